package io.ackscope.load;

/**
 * What one load run does. Every dimension is bounded: a run cannot open more than {@link #MAX_CONNECTIONS}
 * connections, last longer than {@link #MAX_DURATION_NANOS}, or (when it keeps per-request rows) send more than
 * {@link #MAX_RECORDED_REQUESTS} requests.
 *
 * @param target         the only address contacted
 * @param connections    connections kept open, spread over the threads
 * @param threads        event-loop threads, each with its own selector
 * @param durationNanos  how long requests are sent and measured
 * @param warmupNanos    how long requests are sent before that, not measured (lets the JIT compile the event loop,
 *                       connections open and server caches fill; 0 for none, as wrk)
 * @param timeoutNanos   a request (or a connect) without an answer for this long is counted as an error
 * @param rate           requests per second over all connections, or 0 for a closed loop (next request as soon as the
 *                       response is in)
 * @param quickAck       set TCP_QUICKACK after every read (the client-side fix for the delayed-ACK stall)
 * @param noDelay        set TCP_NODELAY on the client sockets (on by default, as wrk)
 * @param maxRequests    stop after this many requests over all threads; each thread gets its share
 * @param recordRequests keep one row per request for the Parquet output
 */
public record LoadConfig(Target target, int connections, int threads, long durationNanos, long warmupNanos,
                         long timeoutNanos,
                         double rate, boolean quickAck, boolean noDelay, long maxRequests,
                         boolean recordRequests) {

    /** Upper bound on {@link #connections}. */
    public static final int MAX_CONNECTIONS = 10_000;
    /** Upper bound on {@link #threads}. */
    public static final int MAX_THREADS = 256;
    /** Upper bound on {@link #durationNanos} and on {@link #warmupNanos}: one hour each. */
    public static final long MAX_DURATION_NANOS = 3_600_000_000_000L;
    /** Upper bound on {@link #rate}. */
    public static final double MAX_RATE = 10_000_000;
    /** Requests kept as rows in memory when {@link #recordRequests} is set (about 50 bytes each). */
    public static final long MAX_RECORDED_REQUESTS = 20_000_000;

    public LoadConfig {
        if (target == null) {
            throw new IllegalArgumentException("no target");
        }
        if (connections < 1 || connections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections must be 1 to " + MAX_CONNECTIONS + ": " + connections);
        }
        if (threads < 1 || threads > Math.min(connections, MAX_THREADS)) {
            throw new IllegalArgumentException("threads must be 1 to min(connections, " + MAX_THREADS + "): "
                    + threads);
        }
        if (durationNanos <= 0 || durationNanos > MAX_DURATION_NANOS) {
            throw new IllegalArgumentException("duration must be above 0 and at most 1h");
        }
        if (warmupNanos < 0 || warmupNanos > MAX_DURATION_NANOS) {
            throw new IllegalArgumentException("warm-up must be 0 to 1h");
        }
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException("timeout must be above 0");
        }
        if (!(rate >= 0 && rate <= MAX_RATE)) {
            throw new IllegalArgumentException("rate must be 0 (closed loop) to " + (long) MAX_RATE + ": " + rate);
        }
        if (maxRequests < 1) {
            throw new IllegalArgumentException("max requests must be at least 1: " + maxRequests);
        }
        if (recordRequests) {
            maxRequests = Math.min(maxRequests, MAX_RECORDED_REQUESTS);
        }
    }

    /** Whether requests are sent on a schedule ({@code -R}) rather than back to back. */
    public boolean openLoop() {
        return rate > 0;
    }
}
