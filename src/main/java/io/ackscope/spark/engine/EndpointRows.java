package io.ackscope.spark.engine;

import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.Cause;
import io.ackscope.tcp.CauseRanking;
import io.ackscope.tcp.ConnectionCauses;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.ValueCounts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The per-endpoint tables' rows, made from one {@link EndpointAggregate}: {@code latency_summary} (one row per
 * endpoint) and {@code findings} (one row per cause that is a finding of its endpoint), both by source and endpoint.
 */
public final class EndpointRows {
    private EndpointRows() {
    }

    /** The table's log-scale histogram of {@code v} ({@link LatencySummaryTable#bucket}). */
    static long[] histogram(ValueCounts v) {
        long[] h = new long[LatencySummaryTable.BUCKETS];
        v.forEach((value, count) -> h[LatencySummaryTable.bucket(value)] += count);
        return h;
    }

    /** The rows of {@code latency_summary}, sorted by endpoint. */
    public static List<RowBuffer> latencySummary(EndpointAggregate a) {
        TableSchema t = LatencySummaryTable.TABLE;
        return a.endpoints().stream().map(e -> {
            RowBuffer b = new RowBuffer(t).clear();
            b.setString(0, e.ip()).setInt(1, e.port()).setLong(2, e.connections()).setLong(3, e.exchanges())
                    .setLong(4, e.stalls()).setLong(5, e.stallMicros()).setString(t.ordinal("source"), e.source());
            for (int m = 0; m < EndpointAggregate.METRICS; m++) {
                int base = t.ordinal(LatencySummaryTable.METRICS[m][0] + "_count");
                ValueCounts v = e.metric(m);
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

    /** The rows of {@code findings}: by source and endpoint, each endpoint's causes costliest first. */
    public static List<RowBuffer> findings(EndpointAggregate a) {
        List<RowBuffer> rows = new ArrayList<>();
        for (EndpointAggregate.Endpoint e : a.endpoints()) {
            List<Map.Entry<Cause, ConnectionCauses.Tally>> ranked = e.findings();
            long explained = 0;
            for (Map.Entry<Cause, ConnectionCauses.Tally> en : ranked) {
                explained += en.getValue().timeLostMicros();
            }
            long response = e.responseMicros();
            for (Map.Entry<Cause, ConnectionCauses.Tally> en : ranked) {
                ConnectionCauses.Tally r = en.getValue();
                rows.add(new RowBuffer(FindingsTable.TABLE).clear().setString(0, e.source()).setString(1, e.ip())
                        .setInt(2, e.port()).setString(3, en.getKey().name()).setLong(4, r.connections())
                        .setLong(5, r.requests()).setLong(6, r.events()).setLong(7, r.count())
                        .setLong(8, r.timeLostMicros()).setDouble(9, CauseRanking.share(r.timeLostMicros(), response))
                        .setLongList(10, r.frames()).setLong(11, response)
                        .setDouble(12, CauseRanking.share(explained, response)));
            }
        }
        return rows;
    }
}
