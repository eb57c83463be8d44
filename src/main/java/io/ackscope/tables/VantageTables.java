package io.ackscope.tables;

import java.util.ArrayList;
import java.util.List;

import static io.ackscope.tables.ColumnType.BOOLEAN;
import static io.ackscope.tables.ColumnType.DOUBLE;
import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.STRING;
import static io.ackscope.tables.ColumnType.TIMESTAMP;

/**
 * The tables of two vantage points (method in docs/vantage.md): when an input has two or more capture
 * sources, every pair of them that saw connections in common gets a {@code source_pairs} row, each segment both
 * saw a {@code one_way_delays} row, and each server endpoint of the pair a {@code host_times} row splitting its
 * time between the client host, the network each way and the server host. With a single source the three tables
 * are written empty (their schema is there, so queries over several outputs work alike). In every pair, A is the
 * source nearer the clients and B the other.
 */
public final class VantageTables {
    private VantageTables() {
    }

    private static final String A_DOC = "The pair's source nearer the clients (their segments reach it first).";
    private static final String B_DOC = "The pair's other source.";

    public static final TableSchema SOURCE_PAIRS = new TableSchema("source_pairs",
            "One row per pair of capture sources that saw connections in common: their clock offset and its bound, "
                    + "one-way delays and loss per direction between them (docs/vantage.md).",
            List.of(
                    new Column("source_a", STRING, false, "", A_DOC),
                    new Column("source_b", STRING, false, "", B_DOC),
                    new Column("connections", LONG, false, "", "Connections both saw (matched)."),
                    new Column("clock_offset_us", LONG, false, "µs",
                            "B's clock minus A's, at `clock_reference_time` (Paxson's minimum filter: the midpoint "
                                    + "of the bound the smallest one-way delays each way give)."),
                    new Column("clock_offset_error_us", LONG, false, "µs",
                            "Half-width of that bound (half the smallest A→B→A round trip): the offset is within it "
                                    + "whatever the paths' asymmetry. Above 1000 the one-way delays rest on both "
                                    + "directions' smallest delays being equal (`delays_split` false)."),
                    new Column("drift_ppm", DOUBLE, false, "ppm",
                            "How much faster B's clock runs, fitted on the lower envelope (0 when the matched "
                                    + "segments span under 1.5 s)."),
                    new Column("one_way_a_to_b_p50_us", LONG, true, "µs",
                            "One-way delay A to B of the matched segments, offset applied: median."),
                    new Column("one_way_a_to_b_p99_us", LONG, true, "µs", "The same, 99th percentile."),
                    new Column("one_way_b_to_a_p50_us", LONG, true, "µs", "One-way delay B to A: median."),
                    new Column("one_way_b_to_a_p99_us", LONG, true, "µs", "The same, 99th percentile."),
                    new Column("lost_a_to_b", LONG, false, "segments",
                            "Client segments seen at A, within the span both saw the connection, that B did not see."),
                    new Column("lost_b_to_a", LONG, false, "segments",
                            "Server segments seen at B that A did not see."),
                    new Column("only_downstream", LONG, false, "segments",
                            "Segments seen where they arrive but not where they leave (the other capture missed "
                                    + "them)."),
                    new Column("delays_split", BOOLEAN, false, "",
                            "`clock_offset_error_us` is at most 1000: the bound alone splits each round trip into "
                                    + "its two one-way delays; false: too loose to split (the delays assume symmetric "
                                    + "minima)."),
                    new Column("clock_reference_time", TIMESTAMP, false, "",
                            "The time (A's clock) `clock_offset_us` is given for: the middle of the matched span."),
                    new Column("clock_windows", INT, false, "", "Time windows the drift was fitted on (0: none)."),
                    new Column("segments_cut", LONG, false, "segments",
                            "Segments not matched because a connection held more than the per-connection cap "
                                    + "(bounded memory; docs/vantage.md).")));

    public static final TableSchema ONE_WAY_DELAYS = new TableSchema("one_way_delays",
            "One row per segment seen at both sources of a pair: when each saw it and its one-way delay, the "
                    + "pair's clock offset applied.",
            List.of(
                    new Column("source_a", STRING, false, "", A_DOC),
                    new Column("stream_a", LONG, false, "", "The connection's `stream` in source A."),
                    new Column("uid_a", STRING, false, "", "The connection's `uid` in source A."),
                    new Column("source_b", STRING, false, "", B_DOC),
                    new Column("stream_b", LONG, false, "", "The connection's `stream` in source B."),
                    new Column("uid_b", STRING, false, "", "The connection's `uid` in source B."),
                    new Column("direction", STRING, false, "", "A_TO_B (client to server) or B_TO_A."),
                    new Column("a_time", TIMESTAMP, false, "", "When A captured it (A's clock)."),
                    new Column("b_time", TIMESTAMP, false, "", "When B captured it (B's own clock, uncorrected)."),
                    new Column("delay_us", LONG, false, "µs",
                            "One-way delay from the source it left to the one it reached, B's time moved onto A's "
                                    + "clock by the pair's offset and drift (negative only within the offset's "
                                    + "error)."),
                    new Column("seq", LONG, false, "", "Its sequence number (absolute)."),
                    new Column("payload_length", INT, false, "bytes", "Its TCP payload length."),
                    new Column("a_frame", LONG, false, "", "Its frame number in source A."),
                    new Column("b_frame", LONG, false, "", "Its frame number in source B."),
                    new Column("server_ip", STRING, false, "", "The connection's server address as A saw it."),
                    new Column("server_port", INT, false, "", "The connection's server port as A saw it.")));

    public static final TableSchema HOST_TIMES;

    static {
        List<Column> c = new ArrayList<>();
        c.add(new Column("source_a", STRING, false, "", A_DOC));
        c.add(new Column("source_b", STRING, false, "", B_DOC));
        c.add(new Column("server_ip", STRING, false, "", "Server endpoint (as A saw it): address."));
        c.add(new Column("server_port", INT, false, "", "Server port."));
        c.add(new Column("connections", LONG, false, "", "Its connections both sources saw."));
        c.add(new Column("client_ack_delays", LONG, false, "ACKs",
                "The client's pure ACKs of new server data seen at both sources."));
        c.add(new Column("client_ack_delay_p50_us", LONG, true, "µs",
                "Their delay at A: the client host's own (median); null without samples."));
        c.add(new Column("client_ack_delay_at_b_p50_us", LONG, true, "µs",
                "The same ACKs' delay as B saw it (a round trip between the points more)."));
        c.add(new Column("stall_ack_delays", LONG, false, "ACKs",
                "Of those, the ACKs that released held server data (a Nagle × delayed-ACK stall's)."));
        c.add(new Column("stall_ack_delay_p50_us", LONG, true, "µs", "Their delay at A (median)."));
        c.add(new Column("one_way_a_to_b_p50_us", LONG, true, "µs", "Network, client side to server side: median."));
        c.add(new Column("one_way_b_to_a_p50_us", LONG, true, "µs", "Network, server side to client side: median."));
        c.add(new Column("server_turnarounds", LONG, false, "requests",
                "Requests whose answer's first segment both sources saw (a retransmitted request left out)."));
        c.add(new Column("server_turnaround_p50_us", LONG, true, "µs",
                "From the request's last segment to the answer's first at B: the server host's own (median)."));
        c.add(new Column("server_turnaround_at_a_p50_us", LONG, true, "µs",
                "The same as A saw it (what a client-side capture calls the time to first byte)."));
        HOST_TIMES = new TableSchema("host_times",
                "One row per pair of sources and server endpoint: its time split into the client host (ACK delay "
                        + "at A), the network each way, and the server host (turnaround at B), each host figure read "
                        + "on the clock next to that host.", c);
    }

    /** The tables above, in documentation order. */
    public static final List<TableSchema> ALL = List.of(SOURCE_PAIRS, HOST_TIMES, ONE_WAY_DELAYS);

    /** Columns of {@link #SOURCE_PAIRS} that readers use. */
    public static final class SourcePairs {
        private SourcePairs() {
        }

        public static final Column SOURCE_A = SOURCE_PAIRS.column("source_a");
        public static final Column SOURCE_B = SOURCE_PAIRS.column("source_b");
        public static final Column CONNECTIONS = SOURCE_PAIRS.column("connections");
        public static final Column CLOCK_OFFSET_US = SOURCE_PAIRS.column("clock_offset_us");
        public static final Column CLOCK_OFFSET_ERROR_US = SOURCE_PAIRS.column("clock_offset_error_us");
        public static final Column DRIFT_PPM = SOURCE_PAIRS.column("drift_ppm");
        public static final Column ONE_WAY_A_TO_B_P50_US = SOURCE_PAIRS.column("one_way_a_to_b_p50_us");
        public static final Column ONE_WAY_A_TO_B_P99_US = SOURCE_PAIRS.column("one_way_a_to_b_p99_us");
        public static final Column ONE_WAY_B_TO_A_P50_US = SOURCE_PAIRS.column("one_way_b_to_a_p50_us");
        public static final Column ONE_WAY_B_TO_A_P99_US = SOURCE_PAIRS.column("one_way_b_to_a_p99_us");
        public static final Column LOST_A_TO_B = SOURCE_PAIRS.column("lost_a_to_b");
        public static final Column LOST_B_TO_A = SOURCE_PAIRS.column("lost_b_to_a");
        public static final Column DELAYS_SPLIT = SOURCE_PAIRS.column("delays_split");
    }

    /** Columns of {@link #ONE_WAY_DELAYS} that readers use. */
    public static final class OneWayDelays {
        private OneWayDelays() {
        }

        public static final Column SOURCE_A = ONE_WAY_DELAYS.column("source_a");
        public static final Column SOURCE_B = ONE_WAY_DELAYS.column("source_b");
        public static final Column DIRECTION = ONE_WAY_DELAYS.column("direction");
        public static final Column DELAY_US = ONE_WAY_DELAYS.column("delay_us");
        public static final Column UID_A = ONE_WAY_DELAYS.column("uid_a");
        public static final Column STREAM_A = ONE_WAY_DELAYS.column("stream_a");
        public static final Column STREAM_B = ONE_WAY_DELAYS.column("stream_b");
        public static final Column A_TIME = ONE_WAY_DELAYS.column("a_time");
        public static final Column SEQ = ONE_WAY_DELAYS.column("seq");
        public static final Column PAYLOAD_LENGTH = ONE_WAY_DELAYS.column("payload_length");
        public static final Column A_FRAME = ONE_WAY_DELAYS.column("a_frame");
        public static final Column B_FRAME = ONE_WAY_DELAYS.column("b_frame");
    }

    /** Columns of {@link #HOST_TIMES} that readers use. */
    public static final class HostTimes {
        private HostTimes() {
        }

        public static final Column SOURCE_A = HOST_TIMES.column("source_a");
        public static final Column SOURCE_B = HOST_TIMES.column("source_b");
        public static final Column SERVER_IP = HOST_TIMES.column("server_ip");
        public static final Column SERVER_PORT = HOST_TIMES.column("server_port");
        public static final Column CONNECTIONS = HOST_TIMES.column("connections");
        public static final Column CLIENT_ACK_DELAY_P50_US = HOST_TIMES.column("client_ack_delay_p50_us");
        public static final Column STALL_ACK_DELAY_P50_US = HOST_TIMES.column("stall_ack_delay_p50_us");
        public static final Column ONE_WAY_A_TO_B_P50_US = HOST_TIMES.column("one_way_a_to_b_p50_us");
        public static final Column ONE_WAY_B_TO_A_P50_US = HOST_TIMES.column("one_way_b_to_a_p50_us");
        public static final Column SERVER_TURNAROUND_P50_US = HOST_TIMES.column("server_turnaround_p50_us");
        public static final Column SERVER_TURNAROUND_AT_A_P50_US = HOST_TIMES.column("server_turnaround_at_a_p50_us");
    }
}
