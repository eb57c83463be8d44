package io.ackscope.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.ackscope.spark.ColumnType.INT;
import static io.ackscope.spark.ColumnType.LONG;
import static io.ackscope.spark.ColumnType.LONG_LIST;
import static io.ackscope.spark.ColumnType.STRING;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sum;

/**
 * The {@code latency_summary} table: per server endpoint, exact percentiles and log-scale histograms of handshake
 * RTT, data RTT, ACK delay and time to first byte, computed from the other tables.
 *
 * <p>Percentiles are nearest-rank ({@code percentile_disc}: the smallest value with at least that fraction of
 * values at or below it), so each is a value that was observed. Histogram bucket {@code k} counts values in
 * {@code [2^(k-1), 2^k)} µs ({@code k = 0}: below 1 µs); there are {@value #BUCKETS} buckets, the last open-ended.
 */
public final class LatencySummaryTable {
    private LatencySummaryTable() {
    }

    public static final int BUCKETS = 40;

    /** Metric name (column prefix) and what it is. */
    static final String[][] METRICS = {
            {"handshake_rtt", "Handshake RTT (`connections.initial_rtt_us`)"},
            {"data_rtt", "Data→ACK RTT (`rtt_samples` of kind DATA_ACK, both directions)"},
            {"ack_delay", "ACK delay (`ack_delays`, both sides)"},
            {"ttfb", "Time to first byte (`exchanges.ttfb_us`)"},
    };

    public static final TableSchema TABLE;

    static {
        List<Column> c = new ArrayList<>();
        c.add(new Column("server_ip", STRING, false, "", "Server (responder) address."));
        c.add(new Column("server_port", INT, false, "", "Server port."));
        c.add(new Column("connections", LONG, false, "", "Connections to the endpoint."));
        c.add(new Column("exchanges", LONG, false, "", "Request/response exchanges."));
        c.add(new Column("stalls", LONG, false, "", "Nagle × delayed-ACK stalls."));
        c.add(new Column("stall_us", LONG, false, "µs", "Total stall time."));
        for (String[] m : METRICS) {
            c.add(new Column(m[0] + "_count", LONG, false, "", m[1] + ": number of values."));
            for (String p : new String[]{"p50", "p90", "p99"}) {
                c.add(new Column(m[0] + "_" + p + "_us", LONG, true, "µs",
                        m[1] + ": " + p.substring(1) + "th percentile (nearest rank); null without values."));
            }
            c.add(new Column(m[0] + "_max_us", LONG, true, "µs", m[1] + ": maximum."));
            c.add(new Column(m[0] + "_histogram", LONG_LIST, false, "",
                    m[1] + ": counts per bucket k = [2^(k-1), 2^k) µs, k = 0 below 1 µs, " + BUCKETS + " buckets."));
        }
        TABLE = new TableSchema("latency_summary",
                "One row per server endpoint (responder address and port): how many connections, exchanges and "
                        + "stalls, and the distributions of handshake RTT, data RTT, ACK delay and time to first byte.",
                c);
    }

    /** Histogram bucket of a value in µs (see the class comment). */
    public static int bucket(long us) {
        if (us < 1) {
            return 0;
        }
        return Math.min(BUCKETS - 1, 64 - Long.numberOfLeadingZeros(us));
    }

    /**
     * Computes the table from the staged engine tables under {@code tables} (a map from table name to a Parquet
     * path) and returns its rows, sorted by server address and port.
     */
    static List<RowBuffer> compute(SparkSession spark, Map<String, String> tables) {
        Dataset<Row> conns = spark.read().parquet(tables.get("connections"));
        Dataset<Row> server = conns.select(col("stream"), col("server_ip"), col("server_port"));
        Dataset<Row> values = conns.select(col("server_ip"), col("server_port"), lit("handshake_rtt").as("metric"),
                        col("initial_rtt_us").as("v")).where(col("v").isNotNull())
                .union(spark.read().parquet(tables.get("rtt_samples")).where(col("kind").equalTo("DATA_ACK"))
                        .join(server, "stream").select(col("server_ip"), col("server_port"),
                                lit("data_rtt").as("metric"), col("rtt_us").as("v")))
                .union(spark.read().parquet(tables.get("ack_delays")).join(server, "stream")
                        .select(col("server_ip"), col("server_port"), lit("ack_delay").as("metric"),
                                col("ack_delay_us").as("v")))
                .union(spark.read().parquet(tables.get("exchanges")).where(col("ttfb_us").isNotNull())
                        .join(server, "stream").select(col("server_ip"), col("server_port"), lit("ttfb").as("metric"),
                                col("ttfb_us").as("v")));
        spark.udf().register("ackscope_latency_bucket", (UDF1<Long, Integer>) LatencySummaryTable::bucket,
                DataTypes.IntegerType);

        TreeMap<String, RowBuffer> rows = new TreeMap<>();
        for (Row r : conns.groupBy("server_ip", "server_port")
                .agg(count(lit(1)).as("connections"), sum("exchanges"), sum("stalls"), sum("stall_us"))
                .collectAsList()) {
            RowBuffer b = new RowBuffer(TABLE).clear();
            b.setString(0, r.getString(0)).setInt(1, r.getInt(1)).setLong(2, r.getLong(2)).setLong(3, r.getLong(3))
                    .setLong(4, r.getLong(4)).setLong(5, r.getLong(5));
            for (String[] m : METRICS) {
                int base = TABLE.ordinal(m[0] + "_count");
                b.setLong(base, 0).setLongList(base + 5, new long[BUCKETS]);
            }
            rows.put(endpoint(r.getString(0), r.getInt(1)), b);
        }
        // One aggregation: count, nearest-rank percentiles, maximum and every histogram bucket per (endpoint, metric).
        List<org.apache.spark.sql.Column> aggs = new ArrayList<>();
        for (String p : new String[]{"0.5", "0.9", "0.99"}) {
            aggs.add(expr("percentile_disc(" + p + ") WITHIN GROUP (ORDER BY v)"));
        }
        aggs.add(max("v"));
        for (int k = 0; k < BUCKETS; k++) {
            aggs.add(count_if(col("bucket").equalTo(k)));
        }
        for (Row r : values.withColumn("bucket", expr("ackscope_latency_bucket(v)"))
                .groupBy("server_ip", "server_port", "metric")
                .agg(count(lit(1)), aggs.toArray(new org.apache.spark.sql.Column[0]))
                .collectAsList()) {
            RowBuffer b = rows.get(endpoint(r.getString(0), r.getInt(1)));
            int base = TABLE.ordinal(r.getString(2) + "_count");
            b.setLong(base, r.getLong(3));
            for (int k = 0; k < 4; k++) {
                b.setLong(base + 1 + k, ((Number) r.get(4 + k)).longValue());
            }
            long[] h = new long[BUCKETS];
            for (int k = 0; k < BUCKETS; k++) {
                h[k] = r.getLong(8 + k);
            }
            b.setLongList(base + 5, h);
        }
        return new ArrayList<>(rows.values());
    }

    private static String endpoint(String ip, int port) {
        return ip + "\t" + port;
    }
}
