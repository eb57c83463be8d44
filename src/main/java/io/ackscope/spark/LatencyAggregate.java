package io.ackscope.spark;

import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.ConnectionRecord;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The {@code latency_summary} of one engine task, mergeable across tasks: per server endpoint, the exact multiset
 * of each metric's values (in µs, kept sorted and run-length encoded, so memory follows the number of distinct
 * values, not of samples). Merging is exact and order-independent, so the table does not depend on partitioning.
 */
final class LatencyAggregate implements Serializable {
    private static final long serialVersionUID = 1L;

    static final int HANDSHAKE_RTT = 0, DATA_RTT = 1, ACK_DELAY = 2, TTFB = 3, METRICS = 4;

    /**
     * An exact multiset of longs: a hash table of distinct values and their counts for what was added since the last
     * {@link #compact()}, and the sorted distinct values with counts it compacts into. Adding a value or another
     * multiset costs O(1) per distinct value (no sorted merge per connection); memory follows the number of distinct
     * values.
     */
    static final class Values implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final long EMPTY = Long.MIN_VALUE;

        private long[] values = new long[0];
        private long[] counts = new long[0];
        /** Open addressing: keys ({@link #EMPTY} = free; that one value is counted in {@link #minValueCount}). */
        private long[] keys;
        private long[] tableCounts;
        private int tableSize;
        private long minValueCount;

        void add(long v) {
            add(v, 1);
        }

        private void add(long v, long n) {
            if (v == EMPTY) {
                minValueCount += n;
                return;
            }
            if (keys == null) {
                keys = new long[16];
                tableCounts = new long[16];
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
        void addAll(Values o) {
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
        void compact() {
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

        long count() {
            compact();
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }

        /** Nearest-rank percentile: the smallest value with at least {@code p} of the values at or below it. */
        long percentile(double p) {
            long n = count();
            long rank = Math.max(1, (long) Math.ceil(p * n));
            long seen = 0;
            for (int i = 0; i < values.length; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    return values[i];
                }
            }
            throw new IllegalStateException("empty");
        }

        long max() {
            compact();
            return values[values.length - 1];
        }

        long[] histogram() {
            compact();
            long[] h = new long[LatencySummaryTable.BUCKETS];
            for (int i = 0; i < values.length; i++) {
                h[LatencySummaryTable.bucket(values[i])] += counts[i];
            }
            return h;
        }
    }

    /** Everything known about one server endpoint. */
    static final class Endpoint implements Serializable {
        private static final long serialVersionUID = 1L;
        final String source;
        final String ip;
        final int port;
        long connections, exchanges, stalls, stallUs;
        final Values[] metrics = {new Values(), new Values(), new Values(), new Values()};

        Endpoint(String source, String ip, int port) {
            this.source = source;
            this.ip = ip;
            this.port = port;
        }

        void merge(Endpoint o) {
            connections += o.connections;
            exchanges += o.exchanges;
            stalls += o.stalls;
            stallUs += o.stallUs;
            for (int m = 0; m < METRICS; m++) {
                metrics[m].addAll(o.metrics[m]);
            }
        }
    }

    /** Keyed by "source NUL ip port", sorted. */
    private final TreeMap<String, Endpoint> endpoints = new TreeMap<>();

    /**
     * Adds a finished connection and the values its other records carried ({@code own}: DATA_RTT, ACK_DELAY and
     * TTFB slots used; may be null when it had none).
     */
    void connection(ConnectionRecord c, Values[] own, String source) {
        Endpoint e = endpoints.computeIfAbsent(source + '\0' + c.resp().address() + " " + c.resp().port(),
                k -> new Endpoint(source, c.resp().address(), c.resp().port()));
        e.connections++;
        e.exchanges += c.exchanges();
        e.stalls += c.stalls();
        e.stallUs += EngineRows.stallMicros(c);
        if (c.initialRttNanos() >= 0) {
            e.metrics[HANDSHAKE_RTT].add(c.initialRttNanos() / 1000);
        }
        if (own != null) {
            for (int m = DATA_RTT; m < METRICS; m++) {
                if (own[m] != null) {
                    e.metrics[m].addAll(own[m]);
                }
            }
        }
    }

    /** Compacts every buffer (call before shipping to the driver). */
    LatencyAggregate sealed() {
        for (Endpoint e : endpoints.values()) {
            for (Values v : e.metrics) {
                v.compact();
            }
        }
        return this;
    }

    void merge(LatencyAggregate o) {
        o.endpoints.forEach((k, e) -> {
            Endpoint mine = endpoints.get(k);
            if (mine == null) {
                endpoints.put(k, e);
            } else {
                mine.merge(e);
            }
        });
    }

    /** The table's rows, sorted by endpoint. */
    List<RowBuffer> rows() {
        TableSchema t = LatencySummaryTable.TABLE;
        return endpoints.values().stream().map(e -> {
            RowBuffer b = new RowBuffer(t).clear();
            b.setString(0, e.ip).setInt(1, e.port).setLong(2, e.connections).setLong(3, e.exchanges)
                    .setLong(4, e.stalls).setLong(5, e.stallUs).setString(t.columns().size() - 1, e.source);
            for (int m = 0; m < METRICS; m++) {
                int base = t.ordinal(LatencySummaryTable.METRICS[m][0] + "_count");
                Values v = e.metrics[m];
                long n = v.count();
                b.setLong(base, n).setLongList(base + 5, v.histogram());
                if (n > 0) {
                    b.setLong(base + 1, v.percentile(0.5)).setLong(base + 2, v.percentile(0.9))
                            .setLong(base + 3, v.percentile(0.99)).setLong(base + 4, v.max());
                }
            }
            return b;
        }).toList();
    }
}
