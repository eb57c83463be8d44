package io.ackscope.vantage;

/**
 * The offset of point B's clock from point A's, from the minimum one-way delays of both directions (the
 * minimum-filter bound; V. Paxson, "On Calibrating Measurements of Packet Transit Times", SIGMETRICS 1998).
 *
 * <p>With {@code theta} = B's clock minus A's, a segment going A&rarr;B shows the apparent delay
 * {@code tB - tA = d + theta}, one going B&rarr;A {@code tA - tB = d' - theta}; true delays are never negative, so
 * {@code -min(tA - tB) <= theta <= min(tB - tA)}. The offset is the midpoint of that interval and its error the
 * half-width, {@code (min(tB - tA) + min(tA - tB)) / 2}: half the smallest round trip between the points. The
 * midpoint is exact when both directions' smallest delays are equal; the error says how far off it can be when they
 * are not. Drift: the same midpoint per time window, fitted by least squares (one window's minimum per direction,
 * Paxson's lower envelope), its slope in parts per million; the bound is then taken on the drift-corrected delays.
 *
 * @param offsetNanos  B's clock minus A's at {@code refNanos}
 * @param errorNanos   half-width of the bound on the offset (after the drift correction)
 * @param driftPpm     how much faster B's clock runs, parts per million (0 when the windows were too few to fit)
 * @param refNanos     the time (A's clock) the offset is given for: the middle of the matched segments' span
 * @param windows      time windows the drift was fitted on (0: none)
 */
public record ClockEstimate(long offsetNanos, long errorNanos, double driftPpm, long refNanos, int windows)
        implements java.io.Serializable {

    /** Windows are at least this long, so each holds enough segments for its minimum to be near the floor. */
    static final long MIN_WINDOW_NANOS = 500_000_000L;
    /** At most this many windows. */
    static final int MAX_WINDOWS = 32;
    /** Segments a window needs in each direction to count for the drift fit. */
    static final int MIN_PER_WINDOW = 4;
    /** Windows needed for a drift fit. */
    static final int MIN_WINDOWS = 3;

    /** B's clock minus A's at time {@code tA} (A's clock). */
    public long offsetAt(long tA) {
        return offsetNanos + Math.round(driftPpm * (tA - refNanos) / 1e6);
    }

    /** True when the bound alone places each one-way delay within {@code toleranceNanos}, whatever the asymmetry. */
    public boolean splitsDelaysWithin(long toleranceNanos) {
        return errorNanos <= toleranceNanos;
    }

    /**
     * Estimates the offset.
     *
     * @param tAB times (A's clock) of segments A&rarr;B and {@code dAB} their apparent delays {@code tB - tA}
     * @param tBA times (A's clock) of segments B&rarr;A and {@code dBA} their apparent delays {@code tA - tB}
     * @return null when either direction has no segment
     */
    static ClockEstimate estimate(long[] tAB, long[] dAB, long[] tBA, long[] dBA) {
        return estimate(tAB, dAB, null, tBA, dBA, null);
    }

    /**
     * As {@link #estimate(long[], long[], long[], long[])} on samples that each stand for {@code wAB[i]} (and
     * {@code wBA[i]}) segments, for the count a window needs ({@link ClockSamples}: one sample per bucket); null
     * weights are all 1.
     */
    static ClockEstimate estimate(long[] tAB, long[] dAB, long[] wAB, long[] tBA, long[] dBA, long[] wBA) {
        if (tAB.length == 0 || tBA.length == 0) {
            return null;
        }
        long first = Math.min(min(tAB), min(tBA));
        long last = Math.max(max(tAB), max(tBA));
        long ref = first + (last - first) / 2;
        int n = (int) Math.min(MAX_WINDOWS, (last - first) / MIN_WINDOW_NANOS);
        double slope = 0;
        int used = 0;
        if (n >= MIN_WINDOWS) {
            double[] wt = new double[n];
            double[] wo = new double[n];
            long width = (last - first) / n + 1;
            long[] minAB = windowMinima(tAB, dAB, first, width, n);
            long[] minBA = windowMinima(tBA, dBA, first, width, n);
            long[] cntAB = windowCounts(tAB, wAB, first, width, n);
            long[] cntBA = windowCounts(tBA, wBA, first, width, n);
            for (int w = 0; w < n; w++) {
                if (cntAB[w] >= MIN_PER_WINDOW && cntBA[w] >= MIN_PER_WINDOW) {
                    wt[used] = (first + w * width + width / 2.0) - ref;
                    wo[used] = (minAB[w] - minBA[w]) / 2.0;
                    used++;
                }
            }
            if (used >= MIN_WINDOWS) {
                slope = slope(wt, wo, used);
            } else {
                used = 0;
            }
        }
        long lo = Long.MAX_VALUE;
        long hi = Long.MAX_VALUE;
        for (int i = 0; i < tAB.length; i++) {
            hi = Math.min(hi, dAB[i] - Math.round(slope * (tAB[i] - ref)));
        }
        for (int i = 0; i < tBA.length; i++) {
            lo = Math.min(lo, dBA[i] + Math.round(slope * (tBA[i] - ref)));
        }
        // theta lies in [-lo, hi]
        return new ClockEstimate(Math.round((hi - (double) lo) / 2), Math.round((hi + (double) lo) / 2),
                slope * 1e6, ref, used);
    }

    private static long[] windowMinima(long[] t, long[] d, long first, long width, int n) {
        long[] m = new long[n];
        java.util.Arrays.fill(m, Long.MAX_VALUE);
        for (int i = 0; i < t.length; i++) {
            int w = (int) Math.min(n - 1, (t[i] - first) / width);
            m[w] = Math.min(m[w], d[i]);
        }
        return m;
    }

    private static long[] windowCounts(long[] t, long[] weights, long first, long width, int n) {
        long[] c = new long[n];
        for (int i = 0; i < t.length; i++) {
            c[(int) Math.min(n - 1, (t[i] - first) / width)] += weights == null ? 1 : weights[i];
        }
        return c;
    }

    /** Least-squares slope of y over x, the first n points. */
    private static double slope(double[] x, double[] y, int n) {
        double mx = 0, my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxy = 0, sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        return sxx == 0 ? 0 : sxy / sxx;
    }

    private static long min(long[] a) {
        long m = Long.MAX_VALUE;
        for (long v : a) {
            m = Math.min(m, v);
        }
        return m;
    }

    private static long max(long[] a) {
        long m = Long.MIN_VALUE;
        for (long v : a) {
            m = Math.max(m, v);
        }
        return m;
    }
}
