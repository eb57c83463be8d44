package io.ackscope.tcp;

/**
 * What the engine concluded about one TCP frame: its stream and Wireshark-style sequence analysis flags.
 *
 * <p>A single instance is reused for every frame and handed to {@link AnalysisSink#onFrame}; copy what you keep.
 * Durations are nanoseconds; {@code -1} means absent.
 */
public final class FrameAnalysis {
    public static final int RETRANSMISSION = 1;
    public static final int FAST_RETRANSMISSION = 1 << 1;
    public static final int SPURIOUS_RETRANSMISSION = 1 << 2;
    public static final int OUT_OF_ORDER = 1 << 3;
    public static final int DUPLICATE_ACK = 1 << 4;
    public static final int ZERO_WINDOW = 1 << 5;
    public static final int ZERO_WINDOW_PROBE = 1 << 6;
    public static final int ZERO_WINDOW_PROBE_ACK = 1 << 7;
    public static final int WINDOW_FULL = 1 << 8;
    public static final int WINDOW_UPDATE = 1 << 9;
    public static final int KEEP_ALIVE = 1 << 10;
    public static final int KEEP_ALIVE_ACK = 1 << 11;
    public static final int LOST_SEGMENT = 1 << 12;
    public static final int ACKED_UNSEEN_SEGMENT = 1 << 13;
    public static final int REUSED_PORTS = 1 << 14;

    /** Any of the three kinds tshark reports as {@code tcp.analysis.retransmission}. */
    public static final int ANY_RETRANSMISSION = RETRANSMISSION | FAST_RETRANSMISSION | SPURIOUS_RETRANSMISSION;

    /** The connection this frame belongs to. */
    public ConnectionId connection;
    /** Connection index ({@code tcp.stream}); equals {@code connection.stream()}. */
    public long stream;
    /** True when the frame was sent by the connection's originator. */
    public boolean fromOriginator;
    /** Bit set of the constants above. */
    public int flags;
    /** Duplicate-ACK ordinal ({@code tcp.analysis.duplicate_ack_num}), 0 if not a duplicate ACK. */
    public int dupAckNum;
    /** Frame whose segment this frame acknowledges ({@code tcp.analysis.acks_frame}), -1 if none. */
    public long ackedFrame;
    /**
     * {@code tcp.analysis.ack_rtt} in ns, -1 when tshark would not show it (no exact ACK, or zero). It is negative
     * only when capture timestamps run backwards; {@link #ackRttShown} is the exact presence flag.
     */
    public long ackRttNanos;
    /** tshark would show {@code tcp.analysis.ack_rtt} on this frame (even a negative one). */
    public boolean ackRttShown;
    /** {@code tcp.analysis.initial_rtt} in ns, -1 when tshark would not show it on this frame. */
    public long initialRttNanos;
    /** tshark would show {@code tcp.analysis.initial_rtt} on this frame. */
    public boolean initialRttShown;
    /** Retransmission timeout measured like tshark's {@code tcp.analysis.rto} (ns), -1 if not a retransmission. */
    public long rtoNanos;
    /** True when tshark would have attached its SEQ/ACK analysis to this frame. */
    public boolean hasAnalysis;

    // ---- tshark's per-frame TCP values (tcp.seq, tcp.ack, tcp.nxtseq, tcp.window_size, tcp.time_*) ----
    /** {@code tcp.seq}: sequence number relative to the sender's base sequence number. */
    public long relativeSeq;
    /** {@code tcp.ack}: acknowledgment number relative to the peer's base; as on the wire without the ACK flag. */
    public long relativeAck;
    /** {@code tcp.nxtseq}: relative sequence number after this segment (SYN and FIN count one). */
    public long relativeNextSeq;
    /** {@code tcp.window_size}: the window field shifted by the sender's known scale (SYNs are never scaled). */
    public long scaledWindow;
    /**
     * {@code tcp.window_size_scalefactor}: -1 unknown, -2 no scaling used, otherwise 2^shift; 0 on SYNs, where
     * tshark shows none.
     */
    public int windowScaleFactor;
    /** {@code tcp.analysis.bytes_in_flight}: unacknowledged payload bytes after this segment, -1 when not shown. */
    public long bytesInFlight;
    /** {@code tcp.time_relative} and {@code tcp.time_delta}: ns since the connection's first and previous frame. */
    public long sinceFirstFrameNanos, sincePreviousFrameNanos;

    // ---- what the frame acknowledged, from SequenceAnalysis's ACK walk, for the engine's own analysis after it (ACK
    // delay, RTT samples, RTO events): per engine like this object, not per connection, and not for sinks ----
    /** Data segments of the peer this frame acknowledged in full, and their payload bytes. */
    int ackedSegments;
    long ackedBytes;
    /** Capture times of the oldest and newest of them, and the newest one's frame. */
    long ackedOldestTs, ackedNewestTs, ackedNewestFrame;
    /** One of them was retransmitted. */
    boolean ackedAmbiguous;
    /** The segment matching the ACK exactly (ack_rtt) was retransmitted / carried data. */
    boolean ackRttAmbiguous, ackedMatchHasData;
    /** Frame {@link #rtoNanos} is measured from (when it is set). */
    long rtoStartFrame = -1;

    /** Before the ACK walk: nothing acknowledged yet. */
    void clearAcked() {
        ackedSegments = 0;
        ackedBytes = 0;
        ackedOldestTs = Long.MAX_VALUE;
        ackedNewestTs = Long.MIN_VALUE;
        ackedNewestFrame = -1;
        ackedAmbiguous = false;
        ackRttAmbiguous = false;
        ackedMatchHasData = false;
    }

    void reset() {
        connection = null;
        stream = -1;
        fromOriginator = false;
        flags = 0;
        dupAckNum = 0;
        ackedFrame = -1;
        ackRttNanos = -1;
        ackRttShown = false;
        initialRttNanos = -1;
        initialRttShown = false;
        rtoNanos = -1;
        rtoStartFrame = -1;
        hasAnalysis = false;
        relativeSeq = 0;
        relativeAck = 0;
        relativeNextSeq = 0;
        scaledWindow = 0;
        windowScaleFactor = 0;
        bytesInFlight = -1;
        sinceFirstFrameNanos = 0;
        sincePreviousFrameNanos = 0;
    }

    /** {@code tcp.analysis.rto_frame}: the frame {@link #rtoNanos} is measured from, -1 if not a retransmission. */
    public long rtoFrame() {
        return rtoNanos < 0 ? -1 : rtoStartFrame;
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /** True when tshark would set {@code tcp.analysis.retransmission} (plain, fast or spurious). */
    public boolean retransmission() {
        return (flags & ANY_RETRANSMISSION) != 0;
    }

    public boolean duplicateAck() {
        return (flags & DUPLICATE_ACK) != 0;
    }
}
