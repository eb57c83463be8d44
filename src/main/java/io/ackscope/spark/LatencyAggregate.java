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

    /**
     * An exact multiset of longs: sorted distinct values with counts, a stack of sorted runs not yet merged in (each
     * at least twice the size of the one above it, so adding N values costs O(N log N) merging, however they come),
     * and a buffer of single values.
     */
    static final class Values implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final int BUFFER = 4096;

        private long[] values = new long[0];
        private long[] counts = new long[0];
        private long[] pending = new long[8];
        private int pendingCount;
        /** Sorted runs, each {values, counts}, largest first; empty once compacted. */
        private final java.util.ArrayList<long[][]> runs = new java.util.ArrayList<>();

        void add(long v) {
            if (pendingCount == pending.length) {
                if (pendingCount >= BUFFER) {
                    flushPending();
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
            long[][] m = merge(values, counts, values.length, o.values, o.counts, o.values.length);
            values = m[0];
            counts = m[1];
        }

        /**
         * Adds every value of {@code o} as one more run: for many small multisets (one per connection) into one
         * large one, where merging into the large one each time would cost its size per connection.
         */
        void addBuffered(Values o) {
            o.compact();
            if (o.values.length > 0) {
                push(new long[][]{o.values, o.counts});
            }
        }

        private void flushPending() {
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
            push(new long[][]{Arrays.copyOf(v, n), Arrays.copyOf(c, n)});
        }

        private void push(long[][] run) {
            runs.add(run);
            while (runs.size() >= 2 && runs.get(runs.size() - 1)[0].length * 2 >= runs.get(runs.size() - 2)[0].length) {
                long[][] b = runs.remove(runs.size() - 1);
                long[][] a = runs.remove(runs.size() - 1);
                runs.add(merge(a[0], a[1], a[0].length, b[0], b[1], b[0].length));
            }
        }

        /** Merges the buffer and the runs into the sorted arrays. */
        void compact() {
            flushPending();
            if (runs.isEmpty()) {
                return;
            }
            long[][] m = {values, counts};
            for (int r = runs.size() - 1; r >= 0; r--) {
                long[][] run = runs.get(r);
                m = merge(m[0], m[1], m[0].length, run[0], run[1], run[0].length);
            }
            runs.clear();
            values = m[0];
            counts = m[1];
        }

        private static long[][] merge(long[] av, long[] ac, int an, long[] bv, long[] bc, int bn) {
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
