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
        /** A segment retransmitted after a timeout (not a fast retransmission): the sender waited an RTO. */
        RETRANSMISSION_TIMEOUT,
        /** The receiver advertised a zero window; the sender waited until it reopened. */
        ZERO_WINDOW_WAIT
    }
}
