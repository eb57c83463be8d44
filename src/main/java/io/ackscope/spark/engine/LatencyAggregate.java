package io.ackscope.spark.engine;

import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.ValueCounts;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The {@code latency_summary} of one engine task, mergeable across tasks: per server endpoint, the exact multiset
 * of each metric's values (in µs, kept sorted and run-length encoded, so memory follows the number of distinct
 * values, not of samples). Merging is exact and order-independent, so the table does not depend on partitioning.
 */
public final class LatencyAggregate implements Serializable {
    private static final long serialVersionUID = 1L;

    static final int HANDSHAKE_RTT = 0, DATA_RTT = 1, ACK_DELAY = 2, TTFB = 3, COMPLETE = 4, METRICS = 5;

    /** Everything known about one server endpoint. */
    static final class Endpoint implements Serializable {
        private static final long serialVersionUID = 1L;
        final String source;
        final String ip;
        final int port;
        long connections, exchanges, stalls, stallUs;
        ValueCounts[] metrics = {new ValueCounts(), new ValueCounts(), new ValueCounts(), new ValueCounts(),
                new ValueCounts()};

        Endpoint(String source, String ip, int port) {
            this.source = source;
            this.ip = ip;
            this.port = port;
        }

        /** An endpoint kept by an earlier version ({@link FinalAggregates}) lacks the metrics added since: empty. */
        private Object readResolve() {
            if (metrics.length < METRICS) {
                ValueCounts[] m = java.util.Arrays.copyOf(metrics, METRICS);
                for (int i = metrics.length; i < METRICS; i++) {
                    m[i] = new ValueCounts();
                }
                metrics = m;
            }
            return this;
        }

        public void merge(Endpoint o) {
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
    void connection(ConnectionRecord c, ValueCounts[] own, String source) {
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
            for (ValueCounts v : e.metrics) {
                v.compact();
            }
        }
        return this;
    }

    /** The endpoints of source {@code source} alone (sharing their state with this aggregate). */
    public LatencyAggregate only(String source) {
        LatencyAggregate out = new LatencyAggregate();
        endpoints.forEach((k, e) -> {
            if (e.source.equals(source)) {
                out.endpoints.put(k, e);
            }
        });
        return out;
    }

    public void merge(LatencyAggregate o) {
        o.endpoints.forEach((k, e) -> {
            Endpoint mine = endpoints.get(k);
            if (mine == null) {
                endpoints.put(k, e);
            } else {
                mine.merge(e);
            }
        });
    }

    /** The table's log-scale histogram of {@code v} ({@link LatencySummaryTable#bucket}). */
    static long[] histogram(ValueCounts v) {
        long[] h = new long[LatencySummaryTable.BUCKETS];
        v.forEach((value, count) -> h[LatencySummaryTable.bucket(value)] += count);
        return h;
    }

    /** The table's rows, sorted by endpoint. */
    public List<RowBuffer> rows() {
        TableSchema t = LatencySummaryTable.TABLE;
        return endpoints.values().stream().map(e -> {
            RowBuffer b = new RowBuffer(t).clear();
            b.setString(0, e.ip).setInt(1, e.port).setLong(2, e.connections).setLong(3, e.exchanges)
                    .setLong(4, e.stalls).setLong(5, e.stallUs).setString(t.ordinal("source"), e.source);
            for (int m = 0; m < METRICS; m++) {
                int base = t.ordinal(LatencySummaryTable.METRICS[m][0] + "_count");
                ValueCounts v = e.metrics[m];
                long n = v.count();
                b.setLong(base, n).setLongList(base + 5, histogram(v));
                if (n > 0) {
                    b.setLong(base + 1, v.percentile(0.5)).setLong(base + 2, v.percentile(0.9))
                            .setLong(base + 3, v.percentile(0.99)).setLong(base + 4, v.max());
                }
            }
            return b;
        }).toList();
    }
}
