package io.ackscope.vantage;

import java.util.Arrays;

/** Nearest-rank percentiles of nanosecond values, in microseconds, as the pair's table columns want them. */
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
        int rank = (int) Math.ceil(p / 100.0 * s.length);
        return Math.round(s[Math.max(0, Math.min(s.length - 1, rank - 1))] / 1000.0);
    }
}
