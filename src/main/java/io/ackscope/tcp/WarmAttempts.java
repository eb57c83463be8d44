package io.ackscope.tcp;

/**
 * The analyzers of the most recent unanswered attempts, kept beside their packed SYNs ({@link TupleTracker}) so that
 * the segment that answers an attempt continues the analyzer that saw its SYNs instead of replaying them into a new
 * one, which comes to the same state. At most {@link #CAPACITY} per engine, the oldest dropped first: a SYN flood or a
 * scan is held packed as before, while an ordinary handshake (answered within a round trip, long before a thousand
 * other attempts start) is analysed by one analyzer instead of two. On a capture of many short connections the second
 * analyzer and its replay were a fifth of what the engine allocated.
 */
final class WarmAttempts {
    /** Attempts kept warm per engine (each about 1.5 KB). */
    static final int CAPACITY = 1024;

    private final TupleTracker[] trackers = new TupleTracker[CAPACITY];
    private final ConnectionAnalyzer[] analyzers = new ConnectionAnalyzer[CAPACITY];
    private int next;

    /** Keeps {@code analyzer} warm for {@code tracker}, dropping the oldest kept if it is still its tracker's. */
    void keep(TupleTracker tracker, ConnectionAnalyzer analyzer) {
        TupleTracker old = trackers[next];
        if (old != null) {
            old.dropWarm(analyzers[next]);
        }
        trackers[next] = tracker;
        analyzers[next] = analyzer;
        next = (next + 1) % CAPACITY;
    }
}
