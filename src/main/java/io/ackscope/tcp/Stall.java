package io.ackscope.tcp;

/**
 * A Nagle &times; delayed-ACK stall: the holding side had a small segment unacknowledged and sent nothing more
 * although more data was ready, until the delaying side's (delayed) ACK arrived; the next segment then left
 * within {@link ConnectionAnalyzer#RESUME_WINDOW_NANOS}. Times are epoch nanoseconds, durations nanoseconds.
 *
 * @param connection     the connection
 * @param startNanos     when the unacknowledged segment was captured
 * @param durationNanos  from that segment to the resumed segment: how long the holding side's data waited
 * @param ackDelayNanos  the delaying side's ACK delay (corrected for the capture position like {@link AckDelay})
 * @param resumeGapNanos from the ACK to the resumed segment, as captured
 * @param holdingSide    the side whose data was held (Nagle on that side)
 * @param delayingSide   the side that delayed its ACK
 * @param heldFrame      frame number of the unacknowledged segment
 * @param ackFrame       frame number of the delayed ACK
 * @param resumeFrame    frame number of the segment that followed the ACK
 * @param heldBytes      payload bytes of the unacknowledged segment
 * @param resumeBytes    payload bytes of the segment that followed the ACK
 *
 * <p>The facts are numbers; the words an output shows for them are made where it is written
 * ({@code spark/EvidenceText}).
 */
public record Stall(ConnectionId connection, long startNanos, long durationNanos, long ackDelayNanos,
                    long resumeGapNanos, Side holdingSide, Side delayingSide, long heldFrame, long ackFrame,
                    long resumeFrame, int heldBytes, int resumeBytes) {
}
