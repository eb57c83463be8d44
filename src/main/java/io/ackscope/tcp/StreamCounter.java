package io.ackscope.tcp;

/** Hands out {@code tcp.stream} numbers in order of first appearance. */
public final class StreamCounter {
    private long next;

    public long next() {
        return next++;
    }

    /** Numbers handed out so far. */
    public long count() {
        return next;
    }
}
