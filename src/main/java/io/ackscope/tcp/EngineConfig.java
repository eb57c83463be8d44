package io.ackscope.tcp;

/**
 * Limits that decide when a connection ends without a new SYN. Both are measured on capture time, per 4-tuple, so
 * they give the same result whether a whole file is streamed or each 4-tuple is analysed on its own.
 *
 * @param idleTimeoutNanos  an open connection that sees no packet for longer than this is emitted; a later packet on
 *                          the same 4-tuple starts a new connection
 * @param closedLingerNanos a closed connection (RST, or both FINs acknowledged) stays this long for late packets
 *                          (retransmitted FINs, final ACKs) before it is emitted
 */
public record EngineConfig(long idleTimeoutNanos, long closedLingerNanos) {

    /** 30 minutes idle, 60 seconds after close. */
    public static final EngineConfig DEFAULTS = new EngineConfig(30L * 60 * 1_000_000_000L, 60L * 1_000_000_000L);

    /** True when a connection last seen at {@code lastTs} (closed or not) is over at {@code now}. */
    boolean expired(ConnectionAnalyzer c, long now) {
        long idle = now - c.lastTs();
        return c.isClosed() ? idle > closedLingerNanos : idle > idleTimeoutNanos;
    }
}
