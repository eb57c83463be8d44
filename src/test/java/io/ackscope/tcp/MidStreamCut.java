package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.SYN;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.decode.PacketDecoder;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Cuts a capture so that every connection starts mid-stream, as a capture started while the connections were open
 * would: each connection's frames before the cut point are left out, the rest kept (pcap, nanosecond timestamps,
 * the original link type). Frames that are not TCP are kept. A connection that never reaches the cut point is left
 * out whole.
 */
public final class MidStreamCut {
    /** Where each connection's capture starts. */
    public enum Point {
        /** At its first frame carrying data (the handshake left out). */
        AFTER_HANDSHAKE,
        /** At the first frame after the client's first data (the handshake and the first request left out). */
        AFTER_FIRST_REQUEST,
        /** At the server's first frame carrying data. */
        AT_FIRST_RESPONSE
    }

    /** Per 4-tuple: the client as the SYN showed it, and whether the cut point was passed. */
    private static final class Conn {
        long clientHi, clientLo;
        int clientPort;
        boolean sawRequest;
        boolean keeping;
    }

    /** What was cut: frames read, kept, and connections that started mid-stream. */
    public record Result(long frames, long kept, long connections) {
    }

    private MidStreamCut() {
    }

    /** Writes {@code in} cut at {@code point} to {@code out}. */
    public static Result cut(Path in, Path out, Point point) throws IOException, CaptureException {
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        Map<TupleKey, Conn> conns = new HashMap<>();
        TupleKey probe = new TupleKey();
        long frames = 0, kept = 0, started = 0;
        try (CaptureReader r = Captures.open(in);
             OutputStream os = new BufferedOutputStream(Files.newOutputStream(out));
             DataOutputStream w = new DataOutputStream(os)) {
            boolean header = false;
            while (r.next()) {
                frames++;
                if (!header) {
                    writeHeader(w, r.linkType());
                    header = true;
                }
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                boolean keep = true;
                if (s.fill(d, r.data(), 0, r.frameNumber(), r.timestampNanos(), r.originalLength())) {
                    Conn c = conns.get(probe.set(s));
                    if ((s.flags & (SYN | ACK)) == SYN && (c == null || c.keeping)) {
                        c = new Conn();
                        c.clientHi = s.srcHi;
                        c.clientLo = s.srcLo;
                        c.clientPort = s.srcPort;
                        conns.put(new TupleKey().copy(probe), c);
                    }
                    if (c != null && !c.keeping) {
                        c.keeping = passes(c, s, point);
                        started += c.keeping ? 1 : 0;
                    }
                    keep = c == null || c.keeping;
                }
                if (keep) {
                    kept++;
                    writeRecord(w, r);
                }
            }
        }
        return new Result(frames, kept, started);
    }

    private static boolean passes(Conn c, Segment s, Point point) {
        boolean fromClient = s.srcPort == c.clientPort && s.srcLo == c.clientLo && s.srcHi == c.clientHi;
        boolean data = s.payloadLength > 0;
        return switch (point) {
            case AFTER_HANDSHAKE -> data;
            case AFTER_FIRST_REQUEST -> {
                if (data && fromClient) {
                    c.sawRequest = true;
                    yield false;
                }
                yield c.sawRequest;
            }
            case AT_FIRST_RESPONSE -> data && !fromClient;
        };
    }

    private static void writeHeader(DataOutputStream w, int linkType) throws IOException {
        w.writeInt(Integer.reverseBytes(0xa1b23c4d));     // magic, nanosecond timestamps, little-endian
        w.writeShort(Short.reverseBytes((short) 2));      // version major
        w.writeShort(Short.reverseBytes((short) 4));      // version minor
        w.writeInt(0);                                     // thiszone
        w.writeInt(0);                                     // sigfigs
        w.writeInt(Integer.reverseBytes(262_144));         // snaplen
        w.writeInt(Integer.reverseBytes(linkType));        // link type
    }

    private static void writeRecord(DataOutputStream w, CaptureReader r) throws IOException {
        long ts = r.timestampNanos();
        w.writeInt(Integer.reverseBytes((int) Math.floorDiv(ts, 1_000_000_000L)));   // seconds
        w.writeInt(Integer.reverseBytes((int) Math.floorMod(ts, 1_000_000_000L)));   // nanoseconds
        w.writeInt(Integer.reverseBytes(r.capturedLength()));                           // captured length
        w.writeInt(Integer.reverseBytes((int) r.originalLength()));                    // original length
        w.write(r.data(), r.dataOffset(), r.capturedLength());
    }

    /** {@code MidStreamCut IN OUT POINT}: for trying cuts by hand. */
    public static void main(String[] args) throws Exception {
        Result res = cut(Path.of(args[0]), Path.of(args[1]), Point.valueOf(args[2]));
        System.out.println(res);
    }
}
