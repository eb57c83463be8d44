package io.ackscope.tcp;

import java.util.Arrays;

/**
 * One open connection's latency values (µs) per {@link EndpointAggregate} metric, kept until its record says which
 * server endpoint they belong to ({@link EndpointAggregate#connection}): a list per metric, in the order they came,
 * and what an earlier run carried as exact counts. Most connections have a few values a metric, and a list costs an
 * append each; a {@link ValueCounts} per metric per connection cost a hash table and a probe for every value, only
 * to be added to the endpoint's once.
 */
public final class ConnectionValues {
    private final long[][] values = new long[EndpointAggregate.METRICS][];
    private final int[] sizes = new int[EndpointAggregate.METRICS];
    /** Per metric, what an earlier run carried ({@link #carried}); null when nothing was. */
    private ValueCounts[] carried;

    /** Adds value {@code v} of {@code metric}. */
    public void add(int metric, long v) {
        long[] l = values[metric];
        int n = sizes[metric];
        if (l == null) {
            l = values[metric] = new long[4];
        } else if (n == l.length) {
            l = values[metric] = Arrays.copyOf(l, n * 2);
        }
        l[n] = v;
        sizes[metric] = n + 1;
    }

    /** The values an earlier run carried, as the exact counts {@link #counts()} gave it; null entries mean none. */
    public static ConnectionValues carried(ValueCounts[] counts) {
        ConnectionValues v = new ConnectionValues();
        v.carried = counts;
        return v;
    }

    /** Adds every value of {@code metric} to {@code to}. */
    void addTo(int metric, ValueCounts to) {
        if (carried != null && carried[metric] != null) {
            to.addAll(carried[metric]);
        }
        long[] l = values[metric];
        for (int i = 0; i < sizes[metric]; i++) {
            to.add(l[i]);
        }
    }

    /** The values as exact counts per metric, null for a metric without any (the form a carrying run keeps). */
    public ValueCounts[] counts() {
        ValueCounts[] out = new ValueCounts[EndpointAggregate.METRICS];
        for (int m = 0; m < out.length; m++) {
            if (sizes[m] > 0 || carried != null && carried[m] != null) {
                out[m] = new ValueCounts();
                addTo(m, out[m]);
            }
        }
        return out;
    }
}
