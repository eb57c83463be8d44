package io.ackscope.tcp;

/**
 * Receives the engine's results as they are produced. Nothing is buffered by the engine beyond the state of open
 * connections: a sink that keeps results is the one that decides how much memory they take.
 *
 * <p>Every method has a no-op default, so a sink implements only what it needs. Calls come from the thread that
 * feeds the engine. {@link #onFrame} receives a reused {@link Segment} and {@link FrameAnalysis}: copy what you keep
 * beyond the engine's next {@code accept} or {@code finish} (until then the analysis stays that frame's: the sweep
 * that a segment may trigger does not write it).
 */
public interface AnalysisSink {

    /** After each TCP segment was analysed (frames of one connection arrive in input order). */
    default void onFrame(Segment segment, FrameAnalysis analysis) {
    }

    default void onRttSample(RttSample sample) {
    }

    default void onAckDelay(AckDelay delay) {
    }

    default void onStall(Stall stall) {
    }

    default void onLatencyEvent(LatencyEvent event) {
    }

    default void onExchange(Exchange exchange) {
    }

    /** A latency cause found on a connection, with its evidence frames (see {@link Cause}). */
    default void onCause(CauseEvent event) {
    }

    /**
     * A connection of an engine made with {@link TcpEngine#boundariesOnly} ended; such an engine calls nothing
     * else. Its connections (their ids, first frames and stream numbers) are exactly those a full engine gives.
     */
    default void onConnectionBoundary(ConnectionId id) {
    }

    /**
     * An unanswered attempt whose record the sweep already gave (after {@link EngineConfig#attemptTimeoutNanos()})
     * goes on: a later segment of its 4-tuple continues it, as in tshark, under the same id and stream. Its record
     * will be given again when it ends, complete (a superset of the first): a sink that keeps one record per stream
     * keeps that last one. So will the causes given with the first record (the retransmitted SYNs, counted again
     * with any later ones): a sink that sums causes drops those of the first record (as {@link Diagnosis} does).
     * Called by full and {@link TcpEngine#boundariesOnly} engines alike, so a first pass over the frames can tell a
     * second which records will be superseded.
     */
    default void onAttemptRevived(ConnectionId id) {
    }

    /**
     * Whether this sink takes an evicted attempt's record only once it is final. Then the engine's sweep evicts an
     * unanswered attempt after the attempt timeout, keeping its 4-tuple as a tombstone as usual, but gives its record
     * only when the tombstone is let go or the input ends, and never when a later segment revives the attempt (the
     * complete record comes at its end): each connection has one record, for a sink that counts or writes as it goes
     * and cannot take a record back ({@link #onAttemptEvicted} and {@link #onAttemptSettled} are not called;
     * {@link #onAttemptRevived} is). Records of evicted attempts come later than without, the same records. The
     * engine asks when it starts each 4-tuple's tracker: the answer must not change while it runs.
     */
    default boolean takesFinalRecordsOnly() {
        return false;
    }

    /**
     * The sweep is about to give the record of an unanswered attempt before the end ({@link
     * EngineConfig#attemptTimeoutNanos()}), keeping its 4-tuple as a tombstone: until {@link #onAttemptSettled} or
     * {@link #onAttemptRevived} for the same id, a later segment may still supersede the record. A sink that writes
     * results in runs ({@code analyze --incremental}) keeps the record back until then, and one still pending when
     * the engine holds its 4-tuples ({@link TcpEngine#hold}: {@link TcpEngine#revivable}) is provisional.
     */
    default void onAttemptEvicted(ConnectionId id) {
    }

    /**
     * The record given after {@link #onAttemptEvicted} is final: the tombstone was let go (forgotten, or replaced by a
     * new connection on its 4-tuple) without a revival. Not called for tombstones still held at the end of the input.
     */
    default void onAttemptSettled(ConnectionId id) {
    }

    /** Once per connection, after all its other results. */
    default void onConnection(ConnectionRecord connection) {
    }
}
