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
 *
 * <p>The facts are numbers; the words an output shows for them are made where it is written
 * ({@code spark/EvidenceText}).
 */
public record LatencyEvent(ConnectionId connection, Kind kind, long startNanos, long durationNanos, Side side,
                           long startFrame, long endFrame) {

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
}
