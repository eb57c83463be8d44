package io.ackscope.tcp;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a capture (classic pcap, Ethernet, microsecond timestamps) of {@code n} TCP connections that are all still
 * open at its end: each on its own 4-tuple, a client's SYN, the server's SYN/ACK, the client's ACK and one request
 * segment of {@link #PAYLOAD} bytes, 20 µs apart, a new connection every {@code 1/rate} seconds, and no FIN or RST.
 * An appending run ({@code analyze --incremental}) must carry every one of them to the next run: the capture that
 * fills a heap with carried state. Nothing is random: four frames a connection, all the same length per kind.
 *
 * <p>Used by {@code OutOfMemoryRunTest} and {@code jobs/lab-memory}:
 * {@code java -cp target/test-classes io.ackscope.tcp.OpenConnectionsCapture N FILE [RATE [START_EPOCH_SECONDS]]}.
 */
public final class OpenConnectionsCapture {
    /** New connections a second when not given: 1,000,000 connections span 100 s. */
    public static final int DEFAULT_RATE = 10_000;
    /** Bytes of the one data segment each connection carries. */
    static final int PAYLOAD = 32;
    /** Capture time of the first SYN (epoch seconds) when not given. */
    public static final long START_SECONDS = 1_700_000_000L;
    static final int SERVER = 0xC0000214;   // 192.0.2.20
    static final int SERVER_PORT = 8080;
    private static final int HEADERS = 14 + 20 + 20;

    private OpenConnectionsCapture() {
    }

    /** {@code N FILE [RATE [START_EPOCH_SECONDS]]}; prints the frames and connections written. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 4) {
            System.err.println("usage: OpenConnectionsCapture N FILE [RATE [START_EPOCH_SECONDS]]");
            System.exit(2);
        }
        long frames = write(Path.of(args[1]), Integer.parseInt(args[0]),
                args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_RATE,
                args.length > 3 ? Long.parseLong(args[3]) : START_SECONDS);
        System.out.println(frames + " frames, " + args[0] + " open connections: " + args[1]);
    }

    /** Client address of connection {@code i}: 10.0.0.0/8, a new address every 50,000 connections. */
    static int client(int i) {
        return 0x0A000000 + 1 + i / 50_000;
    }

    static int clientPort(int i) {
        return 10_000 + i % 50_000;
    }

    /** Writes the capture, its first SYN at {@code startSeconds}; returns the number of frames (4 n). */
    public static long write(Path file, int n, int rate, long startSeconds) throws IOException {
        if (rate <= 0 || rate > 12_500) {
            throw new IllegalArgumentException("rate must be 1..12500 connections a second (four frames 20 µs apart "
                    + "each, none overlapping), not " + rate);
        }
        ByteBuffer rec = ByteBuffer.allocate(16 + HEADERS + PAYLOAD);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            SyntheticFrames.pcapHeader(out);
            for (int i = 0; i < n; i++) {
                long t = (long) i * 1_000_000L / rate;
                for (int kind = 0; kind < 4; kind++) {
                    frame(out, rec, startSeconds, t + 20L * kind, i, kind);
                }
            }
        }
        return 4L * n;
    }

    /** kind 0: client SYN, 1: server SYN/ACK, 2: client ACK, 3: client data (PSH/ACK). */
    private static void frame(OutputStream out, ByteBuffer rec, long startSeconds, long micros, int i, int kind)
            throws IOException {
        boolean fromClient = kind != 1;
        int src = fromClient ? client(i) : SERVER, dst = fromClient ? SERVER : client(i);
        int sport = fromClient ? clientPort(i) : SERVER_PORT, dport = fromClient ? SERVER_PORT : clientPort(i);
        long isn = (i * 2_654_435_761L) & 0xFFFFFFFFL;
        long serverIsn = (isn ^ 0x5A5A5A5AL) & 0xFFFFFFFFL;
        int payload = kind == 3 ? PAYLOAD : 0;
        long seq, ack;
        int flags;
        switch (kind) {
            case 0 -> { seq = isn; ack = 0; flags = 0x02; }
            case 1 -> { seq = serverIsn; ack = isn + 1; flags = 0x12; }
            case 2 -> { seq = isn + 1; ack = serverIsn + 1; flags = 0x10; }
            default -> { seq = isn + 1; ack = serverIsn + 1; flags = 0x18; }
        }
        int frameLength = HEADERS + payload;
        rec.clear();
        rec.order(ByteOrder.LITTLE_ENDIAN);
        rec.putInt((int) (startSeconds + micros / 1_000_000)).putInt((int) (micros % 1_000_000))
                .putInt(frameLength).putInt(frameLength);
        rec.order(ByteOrder.BIG_ENDIAN);
        rec.putInt(0x02000000).putShort((short) (fromClient ? 2 : 1));   // Ethernet destination, source, IPv4
        rec.putInt(0x02000000).putShort((short) (fromClient ? 1 : 2));
        rec.putShort((short) 0x0800);
        int ip = rec.position();
        rec.put((byte) 0x45).put((byte) 0).putShort((short) (40 + payload))
                .putShort((short) (i * 4 + kind)).putShort((short) 0x4000)
                .put((byte) 64).put((byte) 6).putShort((short) 0)
                .putInt(src).putInt(dst);
        SyntheticFrames.ipv4Checksum(rec, ip);
        rec.putShort((short) sport).putShort((short) dport).putInt((int) seq).putInt((int) ack)
                .put((byte) 0x50).put((byte) flags).putShort((short) 64240)
                .putShort((short) 0).putShort((short) 0);               // checksum (not computed), urgent
        for (int k = 0; k < payload; k++) {
            rec.put((byte) ('a' + (i + k) % 26));
        }
        out.write(rec.array(), 0, rec.position());
    }
}
