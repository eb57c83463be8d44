package io.ackscope.tables;

import java.util.ArrayList;
import java.util.List;

import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.LONG_LIST;
import static io.ackscope.tables.ColumnType.STRING;

/**
 * The {@code latency_summary} table: per server endpoint, exact percentiles and log-scale histograms of handshake
 * RTT, data RTT, ACK delay, time to first byte and response time.
 *
 * <p>Percentiles are exact and nearest-rank (the smallest value with at least that fraction of values at or below
 * it, as SQL's {@code percentile_disc}), so each is a value that was observed; they come from the engine tasks'
 * exact per-endpoint value counts ({@code tcp/EndpointAggregate}), not from re-reading the tables. Histogram bucket
 * {@code k} counts values in {@code [2^(k-1), 2^k)} µs ({@code k = 0}: below 1 µs); there are {@value #BUCKETS} buckets, the last open-ended.
 */
public final class LatencySummaryTable {
    private LatencySummaryTable() {
    }

    public static final int BUCKETS = 40;

    /** Metric name (column prefix) and what it is. */
    public static final String[][] METRICS = {
            {"handshake_rtt", "Handshake RTT (`connections.initial_rtt_us`)"},
            {"data_rtt", "Data→ACK RTT (`rtt_samples` of kind DATA_ACK, both directions)"},
            {"ack_delay", "ACK delay (`ack_delays`, both sides)"},
            {"ttfb", "Time to first byte (`exchanges.ttfb_us`)"},
            {"complete", "Response time (`exchanges.complete_us`: request start to the response's last byte)"},
    };
    /** The metrics whose columns come before {@code source}; those after it were added later. */
    private static final int FIRST_METRICS = 4;

    public static final TableSchema TABLE;

    static {
        List<Column> c = new ArrayList<>();
        c.add(new Column("server_ip", STRING, false, "", "Server (responder) address."));
        c.add(new Column("server_port", INT, false, "", "Server port."));
        c.add(new Column("connections", LONG, false, "", "Connections to the endpoint."));
        c.add(new Column("exchanges", LONG, false, "", "Request/response exchanges."));
        c.add(new Column("stalls", LONG, false, "", "Nagle × delayed-ACK stalls."));
        c.add(new Column("stall_us", LONG, false, "µs", "Total stall time."));
        for (String[] m : java.util.Arrays.copyOf(METRICS, FIRST_METRICS)) {
            metric(c, m);
        }
        c.add(new Column("source", STRING, false, "",
                "Capture source: the same endpoint seen from two capture points is two rows."));
        for (String[] m : java.util.Arrays.copyOfRange(METRICS, FIRST_METRICS, METRICS.length)) {
            metric(c, m);
        }
        TABLE = new TableSchema("latency_summary",
                "One row per capture source and server endpoint (responder address and port): how many connections, exchanges and "
                        + "stalls, and the distributions of handshake RTT, data RTT, ACK delay, time to first byte "
                        + "and response time.",
                c);
    }

    /** A metric's columns: count, p50, p90, p99, max, histogram. */
    private static void metric(List<Column> c, String[] m) {
        c.add(new Column(m[0] + "_count", LONG, false, "", m[1] + ": number of values."));
        for (String p : new String[]{"p50", "p90", "p99"}) {
            c.add(new Column(m[0] + "_" + p + "_us", LONG, true, "µs",
                    m[1] + ": " + p.substring(1) + "th percentile (nearest rank); null without values."));
        }
        c.add(new Column(m[0] + "_max_us", LONG, true, "µs", m[1] + ": maximum."));
        c.add(new Column(m[0] + "_histogram", LONG_LIST, false, "",
                m[1] + ": counts per bucket k = [2^(k-1), 2^k) µs, k = 0 below 1 µs, " + BUCKETS + " buckets."));
    }

    /** Histogram bucket of a value in µs (see the class comment). */
    public static int bucket(long us) {
        if (us < 1) {
            return 0;
        }
        return Math.min(BUCKETS - 1, 64 - Long.numberOfLeadingZeros(us));
    }

}
