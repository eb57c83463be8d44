package io.ackscope.tcp;

import java.io.Serializable;
import java.util.Arrays;

/**
 * An exact multiset of longs (latency values in µs) with nearest-rank percentiles: the {@code latency_summary}
 * table's values per endpoint ({@link EndpointAggregate}) and {@code diagnose}'s ({@link Diagnosis}), so both
 * print values that were observed, exact to the µs.
 *
 * <p>A hash table of distinct values and their counts for what was added since the last {@link #compact()}, and the sorted distinct values with counts it compacts into. Adding a value or another
 * multiset costs O(1) per distinct value (no sorted merge per connection); memory follows the number of distinct
 * values.
 */
public final class ValueCounts implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long EMPTY = Long.MIN_VALUE;
    /** Slots of a new hash table (a power of two). */
    private static final int INITIAL_SLOTS = 4;

    private long[] values = NO_VALUES;
    private long[] counts = NO_VALUES;
    /** Shared by every multiset before its first compaction (never written: compaction makes new arrays). */
    private static final long[] NO_VALUES = {};
    /** Open addressing: keys ({@link #EMPTY} = free; that one value is counted in {@link #minValueCount}). */
    private long[] keys;
    private long[] tableCounts;
    private int tableSize;
    private long minValueCount;

    /** Adds one value. */
    public void add(long v) {
        add(v, 1);
    }

    /** Adds {@code n} occurrences of {@code v} ({@code n} at least 1: what {@link #forEach} gave, read back). */
    public void add(long v, long n) {
        if (n < 1) {
            throw new IllegalArgumentException("count " + n);
        }
        if (v == EMPTY) {
            minValueCount += n;
            return;
        }
        if (keys == null) {
            // most multisets are one connection's values of one metric, a few values: start small
            keys = new long[INITIAL_SLOTS];
            tableCounts = new long[INITIAL_SLOTS];
            Arrays.fill(keys, EMPTY);
        }
        int h = slot(keys, v);
        if (keys[h] == EMPTY) {
            keys[h] = v;
            if (++tableSize * 2 > keys.length) {
                tableCounts[h] = n;
                grow();
                return;
            }
        }
        tableCounts[h] += n;
    }

    /** Linear probing: the slot of {@code v} in {@code table}, or the free slot where it would go. */
    private static int slot(long[] table, long v) {
        long z = v * 0x9E3779B97F4A7C15L;
        int mask = table.length - 1;
        int h = (int) (z ^ (z >>> 32)) & mask;
        while (table[h] != EMPTY && table[h] != v) {
            h = (h + 1) & mask;
        }
        return h;
    }

    private void grow() {
        long[] k = keys, c = tableCounts;
        keys = new long[k.length * 2];
        tableCounts = new long[k.length * 2];
        Arrays.fill(keys, EMPTY);
        for (int i = 0; i < k.length; i++) {
            if (k[i] != EMPTY) {
                int h = slot(keys, k[i]);
                keys[h] = k[i];
                tableCounts[h] = c[i];
            }
        }
    }

    /** Adds every value of {@code o} (a task's result into the driver's, or a connection's into its endpoint's). */
    public void addAll(ValueCounts o) {
        for (int i = 0; i < o.values.length; i++) {
            add(o.values[i], o.counts[i]);
        }
        if (o.keys != null) {
            for (int i = 0; i < o.keys.length; i++) {
                if (o.keys[i] != EMPTY) {
                    add(o.keys[i], o.tableCounts[i]);
                }
            }
        }
        if (o.minValueCount > 0) {
            add(EMPTY, o.minValueCount);
        }
    }

    /** Moves the hash table into the sorted arrays. */
    public void compact() {
        if (tableSize == 0 && minValueCount == 0) {
            return;
        }
        int n = tableSize + (minValueCount > 0 ? 1 : 0);
        long[] v = new long[n];
        int k = 0;
        if (minValueCount > 0) {
            v[k++] = EMPTY;
        }
        if (keys != null) {
            for (long key : keys) {
                if (key != EMPTY) {
                    v[k++] = key;
                }
            }
        }
        Arrays.sort(v);
        long[] c = new long[n];
        for (int i = 0; i < n; i++) {
            c[i] = v[i] == EMPTY ? minValueCount : tableCount(v[i]);
        }
        long[][] m = merge(values, counts, v, c);
        values = m[0];
        counts = m[1];
        keys = null;
        tableCounts = null;
        tableSize = 0;
        minValueCount = 0;
    }

    private long tableCount(long v) {
        return tableCounts[slot(keys, v)];
    }

    private static long[][] merge(long[] av, long[] ac, long[] bv, long[] bc) {
        if (av.length == 0) {
            return new long[][]{bv, bc};
        }
        int an = av.length, bn = bv.length;
        long[] mv = new long[an + bn];
        long[] mc = new long[an + bn];
        int i = 0, j = 0, k = 0;
        while (i < an || j < bn) {
            if (j >= bn || (i < an && av[i] < bv[j])) {
                mv[k] = av[i];
                mc[k++] = ac[i++];
            } else if (i >= an || bv[j] < av[i]) {
                mv[k] = bv[j];
                mc[k++] = bc[j++];
            } else {
                mv[k] = av[i];
                mc[k++] = ac[i++] + bc[j++];
            }
        }
        return k == mv.length ? new long[][]{mv, mc} : new long[][]{Arrays.copyOf(mv, k), Arrays.copyOf(mc, k)};
    }

    /** How many values were added. */
    public long count() {
        compact();
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /**
     * The 1-based rank of the nearest-rank {@code p} percentile of {@code n} values: {@code ceil(p * n)}, at least 1.
     * The one definition of a percentile in ackscope (the tables, {@code diagnose}, the report); SQL's
     * {@code percentile_disc} and DuckDB's {@code quantile_disc} give the same value.
     */
    public static long nearestRank(double p, long n) {
        return Math.max(1, Math.min(n, (long) Math.ceil(p * n)));
    }

    /**
     * Nearest-rank percentile: the smallest value with at least {@code p} of the values at or below it (so always a
     * value that was added); {@link IllegalStateException} when empty.
     */
    public long percentile(double p) {
        long n = count();
        long rank = nearestRank(p, n);
        long seen = 0;
        for (int i = 0; i < values.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return values[i];
            }
        }
        throw new IllegalStateException("empty");
    }

    /** The largest value; {@link ArrayIndexOutOfBoundsException} when empty. */
    public long max() {
        compact();
        return values[values.length - 1];
    }

    /** Receives each distinct value with its count, smallest first. */
    @FunctionalInterface
    public interface ValueConsumer {
        void accept(long value, long count);
    }

    /** Hands {@code consumer} each distinct value and its count, in ascending order. */
    public void forEach(ValueConsumer consumer) {
        compact();
        for (int i = 0; i < values.length; i++) {
            consumer.accept(values[i], counts[i]);
        }
    }
}
