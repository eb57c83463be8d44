package io.ackscope.report;

import io.ackscope.tcp.ValueCounts;

import java.util.Arrays;

/** A growable list of primitive longs (latency values in µs), with nearest-rank percentiles once sorted. */
final class LongList {
    private long[] values = new long[16];
    private int size;
    private boolean sorted = true;

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        if (size > 0 && v < values[size - 1]) {
            sorted = false;
        }
        values[size++] = v;
    }

    int size() {
        return size;
    }

    /**
     * Nearest-rank percentile ({@code percentile_disc}: the smallest value with at least {@code fraction} of the
     * values at or below it), the same definition as the {@code latency_summary} table, so the numbers agree.
     * Sorts the list on first use. Returns -1 for an empty list.
     */
    long percentile(double fraction) {
        if (size == 0) {
            return -1;
        }
        sort();
        return values[(int) ValueCounts.nearestRank(fraction, size) - 1];
    }

    long max() {
        if (size == 0) {
            return -1;
        }
        sort();
        return values[size - 1];
    }

    long min() {
        if (size == 0) {
            return -1;
        }
        sort();
        return values[0];
    }

    /** Value {@code i} (in sorted order once a percentile was asked for). */
    long get(int i) {
        return values[i];
    }

    private void sort() {
        if (!sorted) {
            Arrays.sort(values, 0, size);
            sorted = true;
        }
    }
}
