package io.ackscope.tables;

import static io.ackscope.tables.ColumnType.DOUBLE;
import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.LONG_LIST;
import static io.ackscope.tables.ColumnType.STRING;

import java.util.List;

/**
 * The {@code findings} table: per capture source, server endpoint and latency cause, what the cause cost and the
 * frames that prove it, so a report or a query can lead with the causes ranked by time lost. Made from the
 * engine's cause events and stalls ({@code tcp/EndpointAggregate}); the rules and the share's denominator
 * are in docs/causes.md.
 */
public final class FindingsTable {
    private FindingsTable() {
    }

    public static final TableSchema TABLE = new TableSchema("findings",
            "One row per capture source, server endpoint (responder address and port) and latency cause found on "
                    + "its connections: Nagle × delayed-ACK stalls and the cause events of docs/causes.md.",
            List.of(
                    new Column("source", STRING, false, "", "Capture source."),
                    new Column("server_ip", STRING, false, "", "Server (responder) address."),
                    new Column("server_port", INT, false, "", "Server port."),
                    new Column("cause", STRING, false, "", "The cause: a name of `tcp/Cause` "
                            + "(NAGLE_SERVER_HELD, SYN_RETRANSMISSION, RTO, ZERO_WINDOW, ...)."),
                    new Column("connections", LONG, false, "", "Connections on which it occurred."),
                    new Column("requests", LONG, false, "", "Requests (exchanges) it affected: those whose "
                            + "request-to-last-response-byte span overlaps an occurrence; for a handshake "
                            + "retransmission, the connection's first request."),
                    new Column("events", LONG, false, "", "Occurrences: stalls, recovery episodes, zero-window "
                            + "episodes, handshakes with retransmissions."),
                    new Column("count", LONG, false, "", "Sum of the occurrences' counts (retransmissions, RTO "
                            + "backoffs, zero-window segments; 1 per stall)."),
                    new Column("time_lost_us", LONG, false, "µs", "Time the cause cost, summed."),
                    new Column("share", DOUBLE, false, "", "time_lost_us as a fraction 0-1 of the endpoint's "
                            + "response time (docs/causes.md, Ranking); the costliest cause of at least 0.01 is "
                            + "the verdict."),
                    new Column("evidence_frames", LONG_LIST, false, "", "Evidence: the frame numbers of the "
                            + "costliest occurrences, costliest first, at most 16 (the last occurrence's may be "
                            + "cut); independent of partitioning."),
                    new Column("response_us", LONG, false, "µs", "The endpoint's response time, the same on each of "
                            + "its rows: the denominator of `share` (docs/causes.md, Ranking)."),
                    new Column("explained_share", DOUBLE, false, "", "The share 0-1 of the endpoint's response "
                            + "time that its rows together explain, the same on each of its rows: their "
                            + "`time_lost_us` summed over `response_us`, at most 1 (overlapping causes are each "
                            + "counted whole, so an upper bound); `1 - explained_share` is unattributed, time no "
                            + "cause accounts for.")));

    public static final Column SOURCE = TABLE.column("source");
    public static final Column SERVER_IP = TABLE.column("server_ip");
    public static final Column SERVER_PORT = TABLE.column("server_port");
    public static final Column CAUSE = TABLE.column("cause");
    public static final Column CONNECTIONS = TABLE.column("connections");
    public static final Column REQUESTS = TABLE.column("requests");
    public static final Column EVENTS = TABLE.column("events");
    public static final Column COUNT = TABLE.column("count");
    public static final Column TIME_LOST_US = TABLE.column("time_lost_us");
    public static final Column SHARE = TABLE.column("share");
    public static final Column EVIDENCE_FRAMES = TABLE.column("evidence_frames");
    public static final Column RESPONSE_US = TABLE.column("response_us");
    public static final Column EXPLAINED_SHARE = TABLE.column("explained_share");
}
