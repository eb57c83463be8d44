package io.ackscope.report;

import io.ackscope.tcp.ValueCounts;

/**
 * Latency values (µs) of one distribution of the page, kept as exact counts of distinct values ({@link ValueCounts},
 * as {@code latency_summary} keeps them), so its memory follows the distinct values, not how many there are: a
 * report over 9 million RTT samples holds each microsecond value once (one long per value took more than a 512 MB
 * heap). Nearest-rank percentiles, the same definition as {@code latency_summary}'s, so the numbers agree.
 */
final class LongList {
    private final ValueCounts counts = new ValueCounts();
    private int size;

    void add(long v) {
        counts.add(v);
        size++;
    }

    int size() {
        return size;
    }

    /**
     * Nearest-rank percentile ({@code percentile_disc}: the smallest value with at least {@code fraction} of the
     * values at or below it). Returns -1 for an empty list.
     */
    long percentile(double fraction) {
        return size == 0 ? -1 : counts.percentile(fraction);
    }

    long max() {
        return size == 0 ? -1 : counts.max();
    }

    /** Each distinct value with how many times it was added, smallest first. */
    void forEach(ValueCounts.ValueConsumer consumer) {
        counts.forEach(consumer);
    }
}
