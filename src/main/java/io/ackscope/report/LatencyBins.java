package io.ackscope.report;

/**
 * Log-scale bins for latency histograms (values in whole microseconds): one bin per microsecond below 10 µs, then
 * ten bins per decade (edges 10^(k/10) rounded to whole µs) up to about a day, the last bin open-ended. Ten per
 * decade puts the Linux/FreeBSD delayed-ACK band (40-48 ms) in one bin, [39,811, 50,119) µs, and the 200 ms band
 * in [199,526, 251,189) µs, so the timers show as spikes rather than smears.
 */
final class LatencyBins {
    private LatencyBins() {
    }

    /** Lower edge (µs, inclusive) of each bin; bin {@code k} is {@code [EDGES[k], EDGES[k + 1])}. */
    static final long[] EDGES;

    static {
        long[] e = new long[10 + 10 * 10 + 1];
        int n = 0;
        for (int i = 0; i < 10; i++) {
            e[n++] = i;
        }
        for (int j = 0; j <= 100; j++) {
            e[n++] = Math.round(Math.pow(10, 1 + j / 10.0));
        }
        EDGES = e;
    }

    static int count() {
        return EDGES.length;
    }

    /** Bin of a value in µs (negative values count as 0). */
    static int bin(long us) {
        if (us < 10) {
            return (int) Math.max(0, us);
        }
        int lo = 10, hi = EDGES.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (EDGES[mid] <= us) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Upper edge (exclusive) of bin {@code k}; the last bin's is ten times its lower edge, for drawing. */
    static long upper(int k) {
        return k + 1 < EDGES.length ? EDGES[k + 1] : EDGES[k] * 10;
    }
}
