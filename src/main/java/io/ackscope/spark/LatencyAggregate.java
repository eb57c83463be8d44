package io.ackscope.spark;

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

    /** An exact multiset of longs: sorted distinct values with counts, plus a buffer of values not yet merged in. */
    static final class Values implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final int BUFFER = 4096;

        private long[] values = new long[0];
        private long[] counts = new long[0];
        private long[] pending = new long[8];
        private int pendingCount;

        void add(long v) {
            if (pendingCount == pending.length) {
                if (pendingCount >= BUFFER) {
                    compact();
                } else {
                    pending = Arrays.copyOf(pending, pendingCount * 2);
                }
            }
            pending[pendingCount++] = v;
        }

        /** Adds every value of {@code o} by merging sorted arrays: for a few large multisets (task results). */
        void addAll(Values o) {
            o.compact();
            compact();
            merge(o.values, o.counts, o.values.length);
        }

        /**
         * Adds every value of {@code o} through the buffer: for many small multisets (one per connection) into one
         * large one, where merging arrays each time would cost the large one's size per connection.
         */
        void addBuffered(Values o) {
            o.compact();
            for (int i = 0; i < o.values.length; i++) {
                long c = o.counts[i];
                if (c > 16) {
                    compact();
                    merge(new long[]{o.values[i]}, new long[]{c}, 1);
                } else {
                    for (long k = 0; k < c; k++) {
                        add(o.values[i]);
                    }
                }
            }
        }

        /** Merges the buffer into the sorted arrays. */
        void compact() {
            if (pendingCount == 0) {
                return;
            }
            Arrays.sort(pending, 0, pendingCount);
            long[] v = new long[pendingCount];
            long[] c = new long[pendingCount];
            int n = 0;
            for (int i = 0; i < pendingCount; i++) {
                if (n > 0 && v[n - 1] == pending[i]) {
                    c[n - 1]++;
                } else {
                    v[n] = pending[i];
                    c[n++] = 1;
                }
            }
            pendingCount = 0;
            merge(v, c, n);
        }

        private void merge(long[] v, long[] c, int n) {
            long[] mv = new long[values.length + n];
            long[] mc = new long[values.length + n];
            int i = 0, j = 0, k = 0;
            while (i < values.length || j < n) {
                if (j >= n || (i < values.length && values[i] < v[j])) {
                    mv[k] = values[i];
                    mc[k++] = counts[i++];
                } else if (i >= values.length || v[j] < values[i]) {
                    mv[k] = v[j];
                    mc[k++] = c[j++];
                } else {
                    mv[k] = values[i];
                    mc[k++] = counts[i++] + c[j++];
                }
            }
            values = Arrays.copyOf(mv, k);
            counts = Arrays.copyOf(mc, k);
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
        final String ip;
        final int port;
        long connections, exchanges, stalls, stallUs;
        final Values[] metrics = {new Values(), new Values(), new Values(), new Values()};

        Endpoint(String ip, int port) {
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

    /** Keyed by "ip port", sorted. */
    private final TreeMap<String, Endpoint> endpoints = new TreeMap<>();

    /**
     * Adds a finished connection and the values its other records carried ({@code own}: DATA_RTT, ACK_DELAY and
     * TTFB slots used; may be null when it had none).
     */
    void connection(ConnectionRecord c, Values[] own) {
        Endpoint e = endpoints.computeIfAbsent(c.resp().address() + " " + c.resp().port(),
                k -> new Endpoint(c.resp().address(), c.resp().port()));
        e.connections++;
        e.exchanges += c.exchanges();
        e.stalls += c.stalls();
        e.stallUs += c.stallNanos() / 1000;
        if (c.initialRttNanos() >= 0) {
            e.metrics[HANDSHAKE_RTT].add(c.initialRttNanos() / 1000);
        }
        if (own != null) {
            for (int m = DATA_RTT; m < METRICS; m++) {
                if (own[m] != null) {
                    e.metrics[m].addBuffered(own[m]);
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
                    .setLong(4, e.stalls).setLong(5, e.stallUs);
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
