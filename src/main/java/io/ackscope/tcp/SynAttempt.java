package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.FIN;
import static io.ackscope.decode.PacketDecoder.RST;
import static io.ackscope.decode.PacketDecoder.SYN;

/**
 * The SYNs of a connection attempt nobody has answered yet, packed in one {@code long[]} instead of a
 * {@link ConnectionAnalyzer}: the addresses once, then per SYN the few fields the analysis reads. A scan or a SYN
 * flood is mostly such attempts, and this is what they cost while held: the array is 104 bytes for one SYN and
 * 48 more for each retransmission, against about 1,000 bytes for an analyzer and its flows.
 *
 * <p>{@link TupleTracker} keeps an attempt this way between its segments and rebuilds the analyzer by replaying the
 * SYNs (with the sink muted) when the next segment comes, so every result is exactly what the analyzer kept
 * throughout would give. Only segments that {@link #fits} can be packed.
 */
final class SynAttempt {
    /** An attempt with more SYNs than this stays an analyzer (a flood repeating one 4-tuple). */
    static final int MAX_SYNS = 8;
    private static final int HEAD = 5;
    private static final int WORDS = 6;

    private SynAttempt() {
    }

    /**
     * True when {@code s} is a SYN without ACK, FIN, RST or payload whose fields fit the packing (frame length
     * under 4 GiB, frame number under 2^40, IP length under 2^24, option values in range).
     */
    static boolean fits(Segment s) {
        return (s.flags & (SYN | ACK | FIN | RST)) == SYN && s.payloadLength == 0 && s.fileIndex >= 0
                && (s.frameLength >>> 32) == 0 && (s.frameNumber >>> 40) == 0 && (s.ipLength >>> 24) == 0
                && (s.flags >>> 16) == 0 && (s.window >>> 16) == 0
                && s.mss >= -1 && s.mss <= 0xFFFF && s.windowScale >= -1 && s.windowScale <= 0xFF
                && (s.seq >>> 32) == 0 && (s.ack >>> 32) == 0 && (s.tsVal >>> 32) == 0 && (s.tsEcr >>> 32) == 0;
    }

    /** True when {@code log} has the shape {@link #append} gives (one to {@link #MAX_SYNS} SYNs). */
    static boolean valid(long[] log) {
        int syns = (log.length - HEAD) / WORDS;
        return log.length == HEAD + syns * WORDS && syns >= 1 && syns <= MAX_SYNS;
    }

    /** Number of SYNs in {@code log}. */
    static int syns(long[] log) {
        return (log.length - HEAD) / WORDS;
    }

    /** Timestamp of the last SYN in {@code log}. */
    static long lastTs(long[] log) {
        return log[log.length - WORDS];
    }

    /** True when {@code s} comes from the sender of the packed SYNs. */
    static boolean fromOriginator(long[] log, Segment s) {
        return s.srcLo == log[1] && s.srcHi == log[0] && s.srcPort == (int) (log[4] >>> 32);
    }

    /** Sequence number of the first packed SYN. */
    static long isn(long[] log) {
        return log[HEAD + 2] & 0xFFFFFFFFL;
    }

    /** {@code log} (null for none) with {@code s} appended; {@code s} must {@link #fits}. */
    static long[] append(long[] log, Segment s) {
        long[] l;
        int at;
        if (log == null) {
            l = new long[HEAD + WORDS];
            l[0] = s.srcHi;
            l[1] = s.srcLo;
            l[2] = s.dstHi;
            l[3] = s.dstLo;
            l[4] = ((long) s.srcPort << 32) | (s.dstPort & 0xFFFFFFFFL);
            at = HEAD;
        } else {
            l = java.util.Arrays.copyOf(log, log.length + WORDS);
            at = log.length;
        }
        l[at] = s.timestampNanos;
        l[at + 1] = s.frameNumber | ((long) s.ipLength << 40);
        l[at + 2] = s.seq | (s.ack << 32);
        l[at + 3] = s.frameLength | ((long) s.window << 32) | ((long) s.flags << 48);
        l[at + 4] = (s.fileIndex & 0xFFFFFFFFL) | ((long) (s.mss + 1) << 32) | ((long) (s.windowScale + 1) << 49)
                | (s.sackPermitted ? 1L << 58 : 0) | (s.hasTimestamps ? 1L << 59 : 0);
        l[at + 5] = s.tsVal | (s.tsEcr << 32);
        return l;
    }

    /** Sets {@code r} to SYN {@code i} of {@code log}, as it was given to {@link #append}. */
    static Segment fill(long[] log, int i, Segment r) {
        int at = HEAD + i * WORDS;
        r.srcHi = log[0];
        r.srcLo = log[1];
        r.dstHi = log[2];
        r.dstLo = log[3];
        r.srcPort = (int) (log[4] >>> 32);
        r.dstPort = (int) log[4];
        r.timestampNanos = log[at];
        r.frameNumber = log[at + 1] & 0xFF_FFFF_FFFFL;
        r.ipLength = (int) (log[at + 1] >>> 40);
        r.seq = log[at + 2] & 0xFFFFFFFFL;
        r.ack = log[at + 2] >>> 32;
        long w = log[at + 3];
        r.frameLength = w & 0xFFFFFFFFL;
        r.window = (int) ((w >>> 32) & 0xFFFF);
        r.flags = (int) (w >>> 48);
        long o = log[at + 4];
        r.fileIndex = (int) o;
        r.mss = (int) ((o >>> 32) & 0x1FFFF) - 1;
        r.windowScale = (int) ((o >>> 49) & 0x1FF) - 1;
        r.sackPermitted = (o & (1L << 58)) != 0;
        r.hasTimestamps = (o & (1L << 59)) != 0;
        r.tsVal = log[at + 5] & 0xFFFFFFFFL;
        r.tsEcr = log[at + 5] >>> 32;
        r.payloadLength = 0;
        r.payloadPrefixLength = 0;
        r.sackBlockCount = 0;
        return r;
    }
}
