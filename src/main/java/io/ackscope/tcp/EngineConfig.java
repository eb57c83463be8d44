package io.ackscope.tcp;

/**
 * Limits that decide when a connection ends without a new SYN, and when the engine lets go of one. All are measured on
 * capture time, per 4-tuple, so they give the same result whether a whole file is streamed or each 4-tuple is
 * analysed on its own.
 *
 * @param idleTimeoutNanos    an open connection that sees no packet for longer than this is over: a later packet on
 *                            the same 4-tuple starts a new connection, unless it continues the connection's sequence
 *                            space exactly or repeats a SYN of it (which also keeps single frames with bogus
 *                            timestamps, years off, from splitting a connection)
 * @param closedLingerNanos   a closed connection (RST, or both FINs acknowledged) takes late packets (retransmitted
 *                            FINs, final ACKs) for this long; a packet after that starts a new connection. It is
 *                            emitted then, or when {@link TcpEngine}'s sweep, which trails the capture clock by
 *                            {@link TcpEngine#SWEEP_SLACK_NANOS}, passes that time: held in memory about that much
 *                            longer
 * @param attemptTimeoutNanos a connection attempt nobody answered (the originator's SYNs and nothing else) that sees
 *                            no packet for longer than this is emitted by {@link TcpEngine}'s sweep, as it would be
 *                            at the end of the input, and its 4-tuple is remembered for as long again (see
 *                            {@link TupleTracker}): the bound on what a scan or a SYN flood holds
 */
public record EngineConfig(long idleTimeoutNanos, long closedLingerNanos, long attemptTimeoutNanos) {

    /**
     * 30 minutes idle; 10 seconds after close (long enough for retransmitted FINs and final ACKs, short enough that
     * connection churn does not fill memory with closed connections); 60 seconds for an unanswered attempt (longer
     * than any gap of the usual SYN retransmission schedules: Linux's 1, 2, 4, ... 32 s, Windows' 3 and 6 s; Zeek
     * reports an attempt after 5 s and forgets an idle connection after 5 minutes).
     */
    public static final EngineConfig DEFAULTS = new EngineConfig(30L * 60 * 1_000_000_000L, 10L * 1_000_000_000L,
            60L * 1_000_000_000L);

    /** Limits without a shorter timeout for unanswered attempts: they idle out like any open connection. */
    public EngineConfig(long idleTimeoutNanos, long closedLingerNanos) {
        this(idleTimeoutNanos, closedLingerNanos, idleTimeoutNanos);
    }

    /** True when connection {@code c} is over at capture time {@code now}, whatever comes next. */
    boolean expired(ConnectionAnalyzer c, long now) {
        long idle = now - c.lastTs();
        return c.isClosed() ? idle > closedLingerNanos : idle > idleTimeoutNanos;
    }

    /**
     * True when segment {@code s} cannot belong to connection {@code c} any more. A SYN repeating the connection's
     * initial sequence number of its direction is a retransmission in the same connection, as tshark counts it, even
     * after the connection closed (a client retrying 13 s after a RST), as long as it comes within the idle timeout.
     */
    boolean ends(ConnectionAnalyzer c, Segment s) {
        if (!expired(c, s.timestampNanos)) {
            return false;
        }
        if (c.repeatsSyn(s) && s.timestampNanos - c.lastTs() <= idleTimeoutNanos) {
            return false;
        }
        return c.isClosed() || !c.continues(s);
    }
}
