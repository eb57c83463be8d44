package io.ackscope.tcp;

import io.ackscope.decode.PacketDecoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Builds synthetic segment sequences between a client and a server for engine tests. */
final class Segments {
    static final long CLIENT = 0x0000_ffff_0a00_0001L;  // 10.0.0.1
    static final long SERVER = 0x0000_ffff_0a00_0002L;  // 10.0.0.2
    static final int MS = 1_000_000;
    static final int US = 1_000;

    final List<Segment> list = new ArrayList<>();
    long frame;
    long t = 1_700_000_000_000_000_000L;
    int clientPort = 40000;
    int serverPort = 80;
    long clientIp = CLIENT;
    long serverIp = SERVER;

    /** Advances the clock. */
    Segments after(long nanos) {
        t += nanos;
        return this;
    }

    Segment client(int flags, long seq, long ack, int len) {
        return add(clientIp, clientPort, serverIp, serverPort, flags, seq, ack, len, 64240);
    }

    Segment server(int flags, long seq, long ack, int len) {
        return add(serverIp, serverPort, clientIp, clientPort, flags, seq, ack, len, 65160);
    }

    Segment add(long src, int sport, long dst, int dport, int flags, long seq, long ack, int len, int window) {
        Segment s = new Segment().clear();
        s.frameNumber = ++frame;
        s.timestampNanos = t;
        s.frameLength = 54 + len;
        s.srcLo = src;
        s.srcPort = sport;
        s.dstLo = dst;
        s.dstPort = dport;
        s.flags = flags;
        s.seq = seq & 0xffffffffL;
        s.ack = ack & 0xffffffffL;
        s.payloadLength = len;
        s.window = window;
        list.add(s);
        return s;
    }

    static Segment payload(Segment s, String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        s.setPayloadPrefix(b, 0, b.length);
        s.payloadLength = Math.max(s.payloadLength, b.length);
        s.frameLength = 54 + s.payloadLength;
        return s;
    }

    static final int SYN = PacketDecoder.SYN, ACK = PacketDecoder.ACK, PSH = PacketDecoder.PSH,
            FIN = PacketDecoder.FIN, RST = PacketDecoder.RST;

    /** Runs everything through a fresh whole-file engine and returns what it emitted. */
    Collected run() {
        Collected c = new Collected();
        TcpEngine e = new TcpEngine(c);
        for (Segment s : list) {
            e.accept(s);
        }
        e.finish();
        return c;
    }

    /** Result collector that keeps every emitted item. */
    static final class Collected implements AnalysisSink {
        /** {@link AnalysisSink#takesFinalRecordsOnly}. */
        private final boolean finalRecordsOnly;
        final List<long[]> frames = new ArrayList<>();   // frame, stream, flags, ackRtt, initialRtt, dupAckNum
        final List<ConnectionRecord> connections = new ArrayList<>();
        final List<RttSample> rtt = new ArrayList<>();
        final List<AckDelay> ackDelays = new ArrayList<>();
        final List<Stall> stalls = new ArrayList<>();
        final List<Exchange> exchanges = new ArrayList<>();
        final List<LatencyEvent> events = new ArrayList<>();

        Collected() {
            this(false);
        }

        Collected(boolean finalRecordsOnly) {
            this.finalRecordsOnly = finalRecordsOnly;
        }

        @Override
        public boolean takesFinalRecordsOnly() {
            return finalRecordsOnly;
        }

        @Override
        public void onFrame(Segment s, FrameAnalysis a) {
            frames.add(new long[]{s.frameNumber, a.stream, a.flags, a.ackRttNanos, a.initialRttNanos, a.dupAckNum});
        }

        @Override
        public void onRttSample(RttSample sample) {
            rtt.add(sample);
        }

        @Override
        public void onAckDelay(AckDelay delay) {
            ackDelays.add(delay);
        }

        @Override
        public void onStall(Stall stall) {
            stalls.add(stall);
        }

        @Override
        public void onLatencyEvent(LatencyEvent event) {
            events.add(event);
        }

        @Override
        public void onExchange(Exchange exchange) {
            exchanges.add(exchange);
        }

        @Override
        public void onConnection(ConnectionRecord connection) {
            connections.add(connection);
        }

        long[] frame(long number) {
            for (long[] f : frames) {
                if (f[0] == number) {
                    return f;
                }
            }
            throw new AssertionError("no frame " + number);
        }
    }
}
