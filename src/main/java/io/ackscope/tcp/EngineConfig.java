package io.ackscope.tcp;

/**
 * Limits that decide when a connection ends without a new SYN. Both are measured on capture time, per 4-tuple, so
 * they give the same result whether a whole file is streamed or each 4-tuple is analysed on its own.
 *
 * @param idleTimeoutNanos  an open connection that sees no packet for longer than this is over: a later packet on
 *                          the same 4-tuple starts a new connection, unless it continues the connection's sequence
 *                          space exactly (which also keeps single frames with bogus timestamps, years off, from
 *                          splitting a connection)
 * @param closedLingerNanos a closed connection (RST, or both FINs acknowledged) stays this long for late packets
 *                          (retransmitted FINs, final ACKs) before it is emitted
 */
public record EngineConfig(long idleTimeoutNanos, long closedLingerNanos) {

    /**
     * 30 minutes idle; 10 seconds after close (long enough for retransmitted FINs and final ACKs, short enough that
     * connection churn does not fill memory with closed connections).
     */
    public static final EngineConfig DEFAULTS = new EngineConfig(30L * 60 * 1_000_000_000L, 10L * 1_000_000_000L);

    /** True when connection {@code c} is over at capture time {@code now}, whatever comes next. */
    boolean expired(ConnectionAnalyzer c, long now) {
        long idle = now - c.lastTs();
        return c.isClosed() ? idle > closedLingerNanos : idle > idleTimeoutNanos;
    }

    /** True when segment {@code s} cannot belong to connection {@code c} any more. */
    boolean ends(ConnectionAnalyzer c, Segment s) {
        return expired(c, s.timestampNanos) && (c.isClosed() || !c.continues(s));
    }
}
