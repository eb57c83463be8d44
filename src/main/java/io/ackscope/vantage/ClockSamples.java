package io.ackscope.vantage;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * What a {@link ClockEstimate} needs of a pair's matched segments, reduced to a bounded size that merges across
 * parts of the input (the Spark job matches each shuffle partition on its own): per time bucket of point X's clock
 * and per direction, the count of segments and the smallest and largest apparent delay, each with X's time of that
 * segment. Apparent delays are {@code u = tY - tX} for the originator's (client's) segments and
 * {@code v = tX - tY} for the responder's.
 *
 * <p>Which point is nearer the clients: if X is, {@code u = d + theta} and {@code v = d' - theta}, so
 * {@code min u + min v} (and {@code max u + max v}) is a round trip between the points, positive; if Y is, both are
 * minus one. The estimate then uses the minima in X's orientation, or the maxima turned round into Y's
 * ({@code tX - tY = -u}, at Y's time {@code tX + u}). The same minimum filter as {@link ClockEstimate#estimate}, on
 * one sample per bucket and direction (the bucket's extreme); its windows count the segments each sample stands for.
 * Buckets are {@code 2^shift} ns wide, from {@link #FIRST_SHIFT} (67 ms), and twice as wide whenever there would be
 * more than {@link #MAX_BUCKETS}, so any capture span is summarised in a few thousand buckets.
 */
public final class ClockSamples implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Buckets start 2^26 ns (67 ms) wide: several per drift window of {@link ClockEstimate#MIN_WINDOW_NANOS}. */
    static final int FIRST_SHIFT = 26;
    /** Above this many buckets, they are made twice as wide. */
    static final int MAX_BUCKETS = 4096;

    private int shift = FIRST_SHIFT;
    private Map<Long, Bucket> buckets = new HashMap<>();

    /** One bucket: per direction (0 originator, 1 responder) count, min and max with X's time of each. */
    private static final class Bucket implements Serializable {
        private static final long serialVersionUID = 1L;
        final long[] count = new long[2];
        final long[] min = {Long.MAX_VALUE, Long.MAX_VALUE};
        final long[] minAt = new long[2];
        final long[] max = {Long.MIN_VALUE, Long.MIN_VALUE};
        final long[] maxAt = new long[2];

        void add(int dir, long value, long tX, long n) {
            count[dir] += n;
            if (value < min[dir]) {
                min[dir] = value;
                minAt[dir] = tX;
            }
            if (value > max[dir]) {
                max[dir] = value;
                maxAt[dir] = tX;
            }
        }

        void merge(Bucket o) {
            for (int d = 0; d < 2; d++) {
                if (o.count[d] > 0) {
                    add(d, o.min[d], o.minAt[d], o.count[d]);
                    add(d, o.max[d], o.maxAt[d], 0);
                }
            }
        }
    }

    /** Adds one matched segment seen at X at {@code tX} and at Y at {@code tY} (each point's own clock). */
    public void add(boolean fromOriginator, long tX, long tY) {
        long value = fromOriginator ? tY - tX : tX - tY;
        bucket(Math.floorDiv(tX, 1L << shift)).add(fromOriginator ? 0 : 1, value, tX, 1);
    }

    private Bucket bucket(long index) {
        Bucket b = buckets.get(index);
        if (b == null) {
            b = new Bucket();
            buckets.put(index, b);
            if (buckets.size() > MAX_BUCKETS) {
                coarsen(shift + 1);
                return bucket(Math.floorDiv(index, 2));
            }
        }
        return b;
    }

    /** Makes the buckets {@code 2^newShift} ns wide. */
    private void coarsen(int newShift) {
        Map<Long, Bucket> old = buckets;
        int by = newShift - shift;
        shift = newShift;
        buckets = new HashMap<>();
        for (Map.Entry<Long, Bucket> e : old.entrySet()) {
            long index = e.getKey() >> by;
            Bucket b = buckets.get(index);
            if (b == null) {
                buckets.put(index, e.getValue());
            } else {
                b.merge(e.getValue());
            }
        }
        if (buckets.size() > MAX_BUCKETS) {
            coarsen(shift + 1);
        }
    }

    /** Adds {@code o}'s samples (of the same pair, X and Y the same way round) to these. */
    public void merge(ClockSamples o) {
        if (o.shift > shift) {
            coarsen(o.shift);
        }
        int by = shift - o.shift;
        for (Map.Entry<Long, Bucket> e : o.buckets.entrySet()) {
            Bucket b = buckets.get(e.getKey() >> by);
            if (b == null) {
                b = new Bucket();
                buckets.put(e.getKey() >> by, b);
            }
            b.merge(e.getValue());
        }
        if (buckets.size() > MAX_BUCKETS) {
            coarsen(shift + 1);
        }
    }

    /**
     * Which point is nearer the clients, and the clock of the other relative to it.
     *
     * @param xNearerClients X is point A
     * @param clock          B's clock minus A's, in A's time
     */
    public record Oriented(boolean xNearerClients, ClockEstimate clock) implements Serializable {
    }

    /** The estimate; null when either direction has no segment. */
    public Oriented estimate() {
        long minU = Long.MAX_VALUE, minV = Long.MAX_VALUE, maxU = Long.MIN_VALUE, maxV = Long.MIN_VALUE;
        for (Bucket b : buckets.values()) {
            minU = Math.min(minU, b.min[0]);
            minV = Math.min(minV, b.min[1]);
            maxU = Math.max(maxU, b.max[0]);
            maxV = Math.max(maxV, b.max[1]);
        }
        if (minU == Long.MAX_VALUE || minV == Long.MAX_VALUE) {
            return null;
        }
        // the sign of the round trip between the points, from the lower and the upper envelope together
        boolean xNearer = (double) minU + minV + maxU + maxV >= 0;
        int n = buckets.size();
        long[][] t = new long[2][n];
        long[][] d = new long[2][n];
        long[][] w = new long[2][n];
        int[] k = new int[2];
        for (Bucket b : buckets.values()) {
            for (int dir = 0; dir < 2; dir++) {
                if (b.count[dir] == 0) {
                    continue;
                }
                int i = k[dir]++;
                w[dir][i] = b.count[dir];
                if (xNearer) {
                    t[dir][i] = b.minAt[dir];
                    d[dir][i] = b.min[dir];
                } else {
                    // at Y's time: tY = tX + u (originator) or tX - v (responder); the apparent delay turned round
                    t[dir][i] = dir == 0 ? b.maxAt[dir] + b.max[dir] : b.maxAt[dir] - b.max[dir];
                    d[dir][i] = -b.max[dir];
                }
            }
        }
        ClockEstimate clock = ClockEstimate.estimate(java.util.Arrays.copyOf(t[0], k[0]),
                java.util.Arrays.copyOf(d[0], k[0]), java.util.Arrays.copyOf(w[0], k[0]),
                java.util.Arrays.copyOf(t[1], k[1]), java.util.Arrays.copyOf(d[1], k[1]),
                java.util.Arrays.copyOf(w[1], k[1]));
        return new Oriented(xNearer, clock);
    }
}
