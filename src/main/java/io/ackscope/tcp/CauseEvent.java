package io.ackscope.tcp;

/**
 * One occurrence of a {@link Cause} on one connection, numbers only, so a table of findings can be built from it.
 * Times are epoch nanoseconds, durations nanoseconds.
 *
 * @param connection     the connection
 * @param cause          what happened
 * @param side           whose behaviour it is: the SYN sender, the retransmitting sender, the side advertising a
 *                       zero window (the one whose application did not read)
 * @param startNanos     when it began: the first SYN / SYN/ACK, the original transmission of the first data that
 *                       had to be retransmitted, the zero-window advertisement
 * @param endNanos       when it ended: the SYN / SYN/ACK that got through, the ACK that covered all retransmitted
 *                       data (the connection's last frame if none did), the window reopening
 * @param timeLostNanos  what it cost: SYN / SYN/ACK: from the first to the last one sent; recovery: from the
 *                       original transmission to the covering ACK less the sender's minimum data RTT (0 for a
 *                       spurious retransmission); zero window: its duration
 * @param count          SYN / SYN/ACK retransmissions; retransmissions in the recovery episode; RTO: backoffs (RTOs
 *                       of the same data after the first); zero window: zero-window advertisements in the episode
 * @param frames         evidence frame numbers in capture order (at most {@link #MAX_FRAMES}; the first and the last
 *                       frames of the episode are always kept); never modified after construction
 * @param outsideNanos   the part of the time lost that the requests' response times, as the capture point measures
 *                       them, do not contain, so a share's denominator adds it (docs/causes.md, Ranking): all of it
 *                       for a handshake retransmission, a recovery or a handshake before a single request; the path
 *                       from the capture point to the client and back for a network delay; 0 otherwise
 */
public record CauseEvent(ConnectionId connection, Cause cause, Side side, long startNanos, long endNanos,
                         long timeLostNanos, int count, long[] frames, long outsideNanos) {

    /** Evidence frames kept per event. */
    public static final int MAX_FRAMES = 16;

    /**
     * The time this occurrence cost, as every table and ranking of causes counts it ({@code findings},
     * {@code connection_causes}, {@code diagnose}): {@link #timeLostNanos}, never below 0.
     */
    public long cost() {
        return Math.max(0, timeLostNanos);
    }

    /**
     * A Nagle x delayed-ACK stall as a cause occurrence: cause by the holding side ({@link Cause#NAGLE_SERVER_HELD}
     * when the server's data waited), from the held segment to the resumed one, its whole duration lost (it lies
     * inside the response time), count 1, evidence the held, ACK and resumed frames (those captured).
     */
    public static CauseEvent of(Stall s) {
        Cause c = s.holdingSide() == Side.RESPONDER ? Cause.NAGLE_SERVER_HELD : Cause.NAGLE_CLIENT_HELD;
        long[] frames = java.util.stream.LongStream.of(s.heldFrame(), s.ackFrame(), s.resumeFrame())
                .filter(f -> f >= 0).toArray();
        return new CauseEvent(s.connection(), c, s.holdingSide(), s.startNanos(), s.startNanos() + s.durationNanos(),
                s.durationNanos(), 1, frames, 0);
    }

    /** An event whose time lost is outside the response times exactly when its cause's always is. */
    public CauseEvent(ConnectionId connection, Cause cause, Side side, long startNanos, long endNanos,
                      long timeLostNanos, int count, long[] frames) {
        this(connection, cause, side, startNanos, endNanos, timeLostNanos, count, frames,
                CauseRanking.outsideResponseTime(cause) ? Math.max(0, timeLostNanos) : 0);
    }
}
