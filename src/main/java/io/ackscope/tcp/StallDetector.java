package io.ackscope.tcp;

/**
 * Nagle &times; delayed-ACK stalls of one connection, in two steps: (1) a side's pure, delayed ACK covers everything
 * the peer had in flight, so the peer (the holder) may have been holding data back for it; (2) the holder's next new
 * data leaves within {@link ConnectionAnalyzer#RESUME_WINDOW_NANOS} after that ACK (corrected by the path RTT when the
 * capture point does not see the holder). {@link AckDelayTracker} skips step 1 when the holder's data filled the
 * peer's window and step 2 when the resumed segment is full-sized: the window or the congestion window held those,
 * not Nagle, which holds only a partial segment (docs/causes.md). Created at a connection's first delayed ACK: most
 * connections have none.
 * Candidates are indexed by holding side (0 = a, 1 = b).
 */
final class StallDetector implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] heldFrame = {-1, -1};
    private final long[] heldTs = new long[2];
    private final int[] heldLen = new int[2];
    private final long[] ackFrame = new long[2];
    private final long[] ackTs = new long[2];
    private final long[] ackDelay = new long[2];
    /** Stalls found, and their total duration. */
    long count, nanos;
    /** Of {@link #nanos}, by holding side ({@link Side#ordinal()}: whose data waited). */
    final long[] nanosByHolder = new long[2];

    /** Step 1: side {@code 1 - holder} sent a pure delayed ACK (frame, time, delay) of all {@code holder} had sent. */
    void delayedAck(int holder, long newestFrame, long oldestTs, long bytes, long frame, long ts, long delay) {
        heldFrame[holder] = newestFrame;
        heldTs[holder] = oldestTs;
        heldLen[holder] = (int) Math.min(Integer.MAX_VALUE, bytes);
        ackFrame[holder] = frame;
        ackTs[holder] = ts;
        ackDelay[holder] = delay;
    }

    /** The other side of {@code holder} sent new data: the holder's candidate is off (its next data may answer). */
    void cancel(int holder) {
        heldFrame[holder] = -1;
    }

    /**
     * Step 2: side {@code hi} sent new data in {@code s}. Returns the stall when it left right after the delayed ACK
     * of its candidate, else null; the candidate is used up either way.
     *
     * @param path the path RTT from the capture point to the holder and back, -1 if unknown
     * @param seen the capture point sees the holder (no correction)
     */
    Stall resume(ConnectionId id, Segment s, int hi, Side holder, long path, boolean seen) {
        if (heldFrame[hi] < 0) {
            return null;
        }
        Stall st = null;
        long now = s.timestampNanos;
        long gap = now - ackTs[hi];
        long corrected = seen || path < 0 ? gap : gap - path;
        if (gap >= 0 && corrected <= ConnectionAnalyzer.RESUME_WINDOW_NANOS) {
            long duration = now - heldTs[hi];
            st = new Stall(id, heldTs[hi], duration, ackDelay[hi], gap, holder, holder.other(), heldFrame[hi],
                    ackFrame[hi], s.frameNumber, heldLen[hi], s.payloadLength);
            count++;
            nanos += duration;
            nanosByHolder[holder.ordinal()] += duration;
        }
        heldFrame[hi] = -1;
        return st;
    }
}
