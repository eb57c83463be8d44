package io.ackscope.vantage;

import io.ackscope.tcp.ValueCounts;

import java.util.Arrays;

/**
 * Nearest-rank percentiles ({@link ValueCounts#nearestRank}, the tables' definition) of nanosecond values, in
 * microseconds, as the pair's table columns want them.
 */
final class Percentiles {
    private Percentiles() {
    }

    /** The {@code p}-th percentile (0 to 100, nearest rank) in microseconds, -1 when there are no values. */
    static long micros(long[] nanos, double p) {
        if (nanos.length == 0) {
            return -1;
        }
        long[] s = nanos.clone();
        Arrays.sort(s);
        return Math.round(s[(int) ValueCounts.nearestRank(p / 100.0, s.length) - 1] / 1000.0);
    }
}
