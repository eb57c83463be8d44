package io.ackscope.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * When the selected connections were open: their spans merged into disjoint periods, so the timeline can leave out
 * a long stretch when nothing was open (two captures taken hours apart would otherwise spread their data into
 * slivers at both edges of the chart). Memory is bounded: beyond {@link #KEEP} periods the shortest gaps are
 * closed first, so the long gaps, the only ones the timeline cuts, are kept exactly.
 */
final class BusyPeriods {
    /** Periods kept at least; at twice as many the shortest gaps are closed down to this. */
    static final int KEEP = 512;
    /**
     * A gap the timeline leaves out is at least this share of the time that is left on the axis once the longer
     * gaps are out (so after a day-long gap is cut, a 25-minute one between two 5-second captures is cut too), and
     * at least {@link #MIN_CUT_MICROS}: a pause of seconds stays on the axis, it is part of how the traffic looked.
     */
    static final double CUT_SHARE = 0.05;
    static final long MIN_CUT_MICROS = 60_000_000L;
    /** Breaks in the axis at most (the longest gaps). */
    static final int MAX_BREAKS = 8;

    private final TreeMap<Long, Long> periods = new TreeMap<>();

    /** A connection open from {@code first} to {@code last} (µs). */
    void add(long first, long last) {
        long lo = first, hi = Math.max(first, last);
        Map.Entry<Long, Long> e = periods.floorEntry(hi);
        while (e != null && e.getValue() >= lo) {
            lo = Math.min(lo, e.getKey());
            hi = Math.max(hi, e.getValue());
            periods.remove(e.getKey());
            e = periods.floorEntry(hi);
        }
        periods.put(lo, hi);
        if (periods.size() > 2 * KEEP) {
            closeShortGaps(periods.size() - KEEP);
        }
    }

    /** Closes the {@code n} shortest gaps (or more, on ties). */
    private void closeShortGaps(int n) {
        long[] gaps = gaps(periods);
        long[] sorted = gaps.clone();
        Arrays.sort(sorted);
        long limit = sorted[Math.min(sorted.length, n) - 1];
        merge(limit);
    }

    private static long[] gaps(TreeMap<Long, Long> m) {
        long[] g = new long[Math.max(0, m.size() - 1)];
        Long prevEnd = null;
        int i = 0;
        for (Map.Entry<Long, Long> e : m.entrySet()) {
            if (prevEnd != null) {
                g[i++] = e.getKey() - prevEnd;
            }
            prevEnd = e.getValue();
        }
        return g;
    }

    /** Joins every two neighbours whose gap is at most {@code limit}. */
    private void merge(long limit) {
        List<long[]> joined = joined(periods, limit);
        periods.clear();
        for (long[] p : joined) {
            periods.put(p[0], p[1]);
        }
    }

    private static List<long[]> joined(TreeMap<Long, Long> m, long limit) {
        List<long[]> out = new ArrayList<>();
        for (Map.Entry<Long, Long> e : m.entrySet()) {
            long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && e.getKey() - last[1] <= limit) {
                last[1] = Math.max(last[1], e.getValue());
            } else {
                out.add(new long[]{e.getKey(), e.getValue()});
            }
        }
        return out;
    }

    /**
     * The periods inside {@code [from, to]}, each {@code {start, end}} (µs, inclusive), joined across every gap the
     * axis keeps (see {@link #CUT_SHARE}); {@code {from, to}} alone when nothing was open in it.
     */
    List<long[]> periods(long from, long to) {
        TreeMap<Long, Long> in = new TreeMap<>();
        for (Map.Entry<Long, Long> e : periods.entrySet()) {
            long s = Math.max(from, e.getKey()), t = Math.min(to, e.getValue());
            if (s <= t) {
                in.merge(s, t, Math::max);
            }
        }
        if (in.isEmpty()) {
            return List.of(new long[]{from, to});
        }
        List<long[]> all = joined(in, 0);
        long[] gaps = new long[all.size() - 1];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = all.get(i + 1)[0] - all.get(i)[1];
        }
        long[] sorted = gaps.clone();
        Arrays.sort(sorted);
        long left = all.get(all.size() - 1)[1] - all.get(0)[0];
        long cutFrom = Long.MAX_VALUE;
        for (int k = sorted.length - 1, cuts = 0; k >= 0 && cuts < MAX_BREAKS; k--, cuts++) {
            long g = sorted[k];
            if (g < MIN_CUT_MICROS || g < CUT_SHARE * left) {
                break;
            }
            cutFrom = g;
            left -= g;
        }
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i > 0 && gaps[i - 1] < cutFrom) {
                out.get(out.size() - 1)[1] = all.get(i)[1];
            } else {
                out.add(all.get(i));
            }
        }
        return out;
    }
}
