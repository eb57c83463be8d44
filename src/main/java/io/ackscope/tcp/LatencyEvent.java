package io.ackscope.tcp;

/**
 * A latency cause other than Nagle &times; delayed ACK that the capture shows, with its evidence.
 *
 * @param connection    the connection
 * @param kind          what happened
 * @param startNanos    epoch nanoseconds when the wait began
 * @param durationNanos how long it lasted
 * @param side          the side that waited (retransmission: the sender; zero window: the side advertising it)
 * @param startFrame    frame that began it (original segment / zero-window advertisement)
 * @param endFrame      frame that ended it (retransmission / window update)
 * @param evidence      the same facts in words
 */
public record LatencyEvent(ConnectionId connection, Kind kind, long startNanos, long durationNanos, Side side,
                           long startFrame, long endFrame, String evidence) {

    public enum Kind {
        /**
         * A segment retransmitted by the sender's timer: no fast-retransmit trigger, and a wait of at least the
         * minimum RTO (200 ms) since the data's transmission, the last ACK of new data or the previous
         * retransmission. A shorter wait is a probe or a RACK / early retransmit, not an RTO (docs/causes.md).
         */
        RETRANSMISSION_TIMEOUT,
        /** The receiver advertised a zero window; the sender waited until it reopened. */
        ZERO_WINDOW_WAIT
    }

    /** A duration in the words of evidence texts: "840 us", "41.250 ms" (truncated to microseconds). */
    static String micros(long nanos) {
        long us = nanos / 1000;
        if (Math.abs(us) >= 1000) {
            return (us / 1000) + "." + pad3(Math.abs(us % 1000)) + " ms";
        }
        return us + " us";
    }

    private static String pad3(long v) {
        return v < 10 ? "00" + v : v < 100 ? "0" + v : Long.toString(v);
    }
}
