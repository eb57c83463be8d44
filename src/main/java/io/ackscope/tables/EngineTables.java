package io.ackscope.tables;


import java.util.ArrayList;
import java.util.List;

import static io.ackscope.tables.ColumnType.BOOLEAN;
import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.LONG_LIST;
import static io.ackscope.tables.ColumnType.STRING;
import static io.ackscope.tables.ColumnType.TIMESTAMP;

/**
 * The tables made from the TCP engine's records (how each record becomes a row is {@code spark/EngineRows}). Every
 * row names its connection by {@code source} and {@code stream} ({@code tcp.stream}: connections numbered in order
 * of first appearance over the source's files in file order, from 0 in each source), and by {@code uid}, which does
 * not depend on the run (columns added later come last, so readers by position of older columns keep working).
 * Engine nanoseconds become {@code _us} columns (integer microseconds, rounded down) and TIMESTAMP columns; the
 * engine's "absent" becomes null.
 */
public final class EngineTables {
    private EngineTables() {
    }

    private static final String FRAME_FILE = " in its source (its files numbered as one capture, frames of earlier "
            + "files repeated in later ones counted once).";
    private static final String STREAM_DOC = "Connection index (tshark's `tcp.stream`) within its source, to find the "
            + "connection in Wireshark; join tables on `uid` (`USING (uid)`), which is the same in every output "
            + "(`stream` is only valid within one).";
    /** The column of every engine table after its own (then come {@link #UID} and, in child tables, the server). */
    public static final Column SOURCE = new Column("source", STRING, false, "",
            "Capture source (capture point) the row comes from: connections, streams and frame numbers are per "
                    + "source.");
    /** The stable connection key of every engine table (after {@link #SOURCE}). */
    public static final Column UID = new Column("uid", STRING, false, "",
            "Stable connection key, in Zeek's uid form (as `ackscope export --zeek-conn` writes it): from the source, "
                    + "the client and server endpoints and the first frame's time in microseconds, so the same "
                    + "connection has the same uid in every run over the same capture, and outputs of several runs "
                    + "combine and join on it.");
    /** The connection's server endpoint, in every table whose rows are about one connection's events. */
    public static final List<Column> SERVER = List.of(
            new Column("server_ip", STRING, false, "", "The connection's server (responder) address."),
            new Column("server_port", INT, false, "", "The connection's server port."));

    /**
     * A child table's columns: its own, then source, uid and the server endpoint, then those added since (each
     * version's new columns come last).
     */
    private static List<Column> child(List<Column> own, Column... added) {
        List<Column> c = new ArrayList<>(own);
        c.add(SOURCE);
        c.add(UID);
        c.addAll(SERVER);
        c.addAll(List.of(added));
        return c;
    }

    /** The address of the host a row's side column names. */
    private static Column sideIp(String name, String who) {
        return new Column(name, STRING, false, "", "Address of " + who);
    }

    // ---- connections ---------------------------------------------------------------------------------------
    private static final String[][] SIDE_COUNTS = {
            {"packets", "frames", "Frames sent."},
            {"frame_bytes", "bytes", "Sum of frame lengths on the wire (as tshark's conv table)."},
            {"payload_bytes", "bytes", "Sum of TCP payload lengths."},
            {"retransmissions", "segments", "Retransmissions (tshark RETRANSMISSION only)."},
            {"fast_retransmissions", "segments", "Fast retransmissions."},
            {"spurious_retransmissions", "segments", "Spurious retransmissions."},
            {"duplicate_acks", "segments", "Duplicate ACKs sent."},
            {"out_of_order", "segments", "Out-of-order segments sent."},
            {"zero_windows", "segments", "Zero-window advertisements sent."},
            {"zero_window_probes", "segments", "Zero-window probes sent."},
            {"window_full", "segments", "Segments that filled the peer's advertised window."},
            {"keep_alives", "segments", "Keep-alives sent."},
            {"lost_segments", "events", "Gaps in this side's sequence space (previous segment not captured)."},
            {"rsts", "segments", "RST segments."},
            {"fins", "segments", "FIN segments."},
    };
    private static final String[][] SIDE_ACKS = {
            {"immediate_acks", "Of its ACKs: immediate."},
            {"every_second_acks", "Of its ACKs: sent on every second segment."},
            {"piggybacked_acks", "Of its ACKs: carried on data."},
            {"delayed_40ms_acks", "Of its ACKs: in the 40 ms delayed-ACK band (Linux/FreeBSD)."},
            {"delayed_200ms_acks", "Of its ACKs: in the 200 ms band (Windows, Linux maximum)."},
            {"delayed_other_acks", "Of its ACKs: delayed by another amount."},
    };

    private static void side(List<Column> c, String p, String who) {
        c.add(new Column(p + "ip", STRING, false, "", who + " address."));
        c.add(new Column(p + "port", INT, false, "", who + " port."));
        for (String[] s : SIDE_COUNTS) {
            c.add(new Column(p + s[0], LONG, false, s[1], who + ": " + s[2]));
        }
        c.add(new Column(p + "mss", INT, true, "bytes", who + ": MSS option of its SYN; null if not seen."));
        c.add(new Column(p + "window_scale", INT, true, "", who + ": window scale shift; null if not seen."));
        c.add(new Column(p + "sack_permitted", BOOLEAN, false, "", who + ": SACK-permitted option seen."));
        c.add(new Column(p + "timestamps", BOOLEAN, false, "", who + ": TCP timestamps option on its SYN."));
        c.add(new Column(p + "unacked_dropped", LONG, false, "segments",
                who + ": segments not tracked because the unacknowledged list was full (bounded memory)."));
        summary(c, p + "ack_delay", who + ": delay of the ACKs it sent");
        for (String[] s : SIDE_ACKS) {
            c.add(new Column(p + s[0], LONG, false, "ACKs", who + ": " + s[1]));
        }
    }

    private static void summary(List<Column> c, String p, String what) {
        c.add(new Column(p + "_count", LONG, false, "", what + ": number of values."));
        c.add(new Column(p + "_min_us", LONG, true, "µs", what + ": minimum; null when there is none."));
        c.add(new Column(p + "_mean_us", LONG, true, "µs", what + ": mean."));
        c.add(new Column(p + "_max_us", LONG, true, "µs", what + ": maximum."));
    }

    public static final TableSchema CONNECTIONS;

    static {
        List<Column> c = new ArrayList<>();
        c.add(new Column("stream", LONG, false, "",
                "Connection index (tshark's `tcp.stream`): 0-based within the source, in order of first appearance."));
        c.add(new Column("first_file_index", INT, false, "", "File of the connection's first frame: its `file_index` in the "
                + "connection's source (`capture_files`)."));
        c.add(new Column("first_frame", LONG, false, "", "Frame number of its first frame" + FRAME_FILE));
        c.add(new Column("originator_rule", STRING, false, "",
                "How the client (originator) was decided, the first rule that applied, in this order: SYN, "
                        + "SYN_ACK, LISTENER (the peer answered other connections' SYNs in the source), APPLICATION "
                        + "(HTTP request or status line, TLS ClientHello or ServerHello), WELL_KNOWN_PORT (exactly "
                        + "one port below 1024), EPHEMERAL_PORT (exactly one port 32768 or more), FIRST_PACKET "
                        + "(docs/causes.md, Roles)."));
        c.add(new Column("first_time", TIMESTAMP, false, "", "First frame."));
        c.add(new Column("last_time", TIMESTAMP, false, "", "Last frame."));
        c.add(new Column("duration_us", LONG, false, "µs", "Last frame - first frame."));
        c.add(new Column("syn_time", TIMESTAMP, true, "", "First SYN from the client."));
        c.add(new Column("syn_ack_time", TIMESTAMP, true, "", "First SYN/ACK from the server."));
        c.add(new Column("handshake_ack_time", TIMESTAMP, true, "", "ACK completing the handshake."));
        c.add(new Column("syn_to_syn_ack_us", LONG, true, "µs",
                "Handshake leg capture point → server → capture point (latest SYN to SYN/ACK)."));
        c.add(new Column("syn_ack_to_ack_us", LONG, true, "µs", "Handshake leg capture point → client → capture point."));
        c.add(new Column("initial_rtt_us", LONG, true, "µs", "tshark's `tcp.analysis.initial_rtt` (sum of the legs)."));
        c.add(new Column("vantage", STRING, false, "",
                "Where the capture was taken, inferred from the legs: NEAR_CLIENT, NEAR_SERVER, IN_BETWEEN, LOCAL, "
                        + "UNKNOWN."));
        c.add(new Column("conn_state", STRING, false, "", "Zeek-style conn_state (S0, S1, SF, REJ, RSTO, ...)."));
        c.add(new Column("history", STRING, false, "",
                "Zeek-style history (S syn, H syn/ack, A ack, D data, F fin, R rst, T retransmission, W zero window; "
                        + "upper case = client; a leading ^ when the first frame came from the server, as Zeek marks a "
                        + "flip)."));
        c.add(new Column("end_reason", STRING, false, "",
                "Why the record was emitted: CLOSED, PORT_REUSED, IDLE_TIMEOUT, END_OF_INPUT."));
        side(c, "client_", "Client (originator)");
        side(c, "server_", "Server (responder)");
        summary(c, "data_rtt_client_data", "Data→ACK RTT of client data acknowledged by the server");
        summary(c, "data_rtt_server_data", "Data→ACK RTT of server data acknowledged by the client");
        summary(c, "timestamp_rtt", "RTT from TCP timestamp echoes, both directions");
        c.add(new Column("stalls", LONG, false, "", "Nagle × delayed-ACK stalls found."));
        c.add(new Column("stall_us", LONG, false, "µs",
                "Their total duration: `server_held_stall_us + client_held_stall_us`."));
        c.add(new Column("exchanges", LONG, false, "", "Request/response exchanges."));
        summary(c, "ttfb", "Time to first byte of the exchanges");
        c.add(new Column("rto_events", LONG, false, "", "Retransmission timeouts."));
        c.add(new Column("zero_window_waits", LONG, false, "", "Zero-window waits."));
        c.add(new Column("crosses_file_gap", BOOLEAN, false, "",
                "The connection has frames on both sides of a gap between files of its source (a missing rotated "
                        + "file, see `sources`): frames of it may be missing."));
        c.add(SOURCE);
        c.add(UID);
        c.add(new Column("server_held_stall_us", LONG, false, "µs",
                "Of `stall_us`, stalls in which the server's data waited (Nagle at the server, the client's ACK "
                        + "delayed)."));
        c.add(new Column("client_held_stall_us", LONG, false, "µs",
                "Of `stall_us`, stalls in which the client's data waited (Nagle at the client, the server's ACK "
                        + "delayed)."));
        c.add(new Column("peer_source", STRING, true, "",
                "With two or more sources: the other source that saw this connection too (`source_pairs`, "
                        + "docs/vantage.md); null when no other source did."));
        c.add(new Column("peer_stream", LONG, true, "", "The connection's `stream` in `peer_source`."));
        c.add(new Column("peer_uid", STRING, true, "", "The connection's `uid` in `peer_source`."));
        c.add(new Column("peer_match", STRING, true, "",
                "How the peer was found: `TUPLE` (the same 4-tuple at both sources) or `ISN` (other addresses or "
                        + "ports, a NAT between the points: the same initial sequence numbers both ways and the same "
                        + "segments); null without a peer."));
        for (String[] who : new String[][]{{"client_", "Client (originator)", "orig"}, {"server_", "Server (responder)", "resp"}}) {
            c.add(new Column(who[0] + "seq_bytes", LONG, false, "bytes", who[1] + ": the sequence space it used, as "
                    + "Zeek's `" + who[2] + "_bytes`: the furthest its segments (or the peer's ACKs of them) reached "
                    + "minus its ISN, the SYN and FIN octets excluded, sequence wrap followed; without a captured SYN "
                    + "from its first sequence number seen. Retransmitted bytes count once, bytes the capture missed "
                    + "count (see `" + who[0] + "missed_bytes`)."));
        }
        for (String[] who : new String[][]{{"client_", "Client (originator)", "orig"}, {"server_", "Server (responder)", "resp"}}) {
            c.add(new Column(who[0] + "ip_bytes", LONG, false, "bytes", who[1] + ": sum of the IP lengths (`ip.len`: "
                    + "IPv4 total length, IPv6 40 + payload length) of its packets, as Zeek's `" + who[2]
                    + "_ip_bytes`."));
        }
        for (String[] who : new String[][]{{"client_", "Client (originator)"}, {"server_", "Server (responder)"}}) {
            c.add(new Column(who[0] + "missed_bytes", LONG, false, "bytes", who[1] + ": bytes of its sequence space "
                    + "that no captured segment carried (a segment or an ACK of the peer past the data seen, never "
                    + "filled by a later captured segment): Zeek's content gaps, summed into `missed_bytes`."));
        }
        CONNECTIONS = new TableSchema("connections",
                "One row per TCP connection (as tshark's `tcp.stream`, including port reuse). The client is the "
                        + "originator (SYN sender; see `originator_rule` when the handshake was not captured).", c);
    }

    // ---- rtt_samples ---------------------------------------------------------------------------------------
    public static final TableSchema RTT_SAMPLES = new TableSchema("rtt_samples",
            "One row per round-trip time measurement: from a packet of one side (`measured_from`) to the other "
                    + "side's packet that closed it (an ACK or a timestamp echo).",
            child(List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("closing_time", TIMESTAMP, false, "",
                            "When the closing packet (ACK or echo) was captured."),
                    new Column("closing_frame", LONG, false, "", "Frame number of the closing packet" + FRAME_FILE),
                    new Column("kind", STRING, false, "",
                            "HANDSHAKE_SYN_SYNACK (capture point → server → back), HANDSHAKE_SYNACK_ACK (→ client → "
                                    + "back), DATA_ACK (tshark's `tcp.analysis.ack_rtt`, includes the peer's ACK "
                                    + "delay), TIMESTAMP_ECHO (TSval to its echo)."),
                    new Column("measured_from", STRING, false, "",
                            "CLIENT or SERVER: the side whose packet started the measurement; the RTT is to the "
                                    + "other side and back."),
                    new Column("rtt_us", LONG, false, "µs", "The round-trip time."),
                    new Column("karn_ambiguous", BOOLEAN, false, "",
                            "The segment was retransmitted, so the ACK may answer either copy (Karn).")),
                    sideIp("measured_from_ip", "`measured_from`: the host whose packet started the measurement "
                            + "(the closing packet came from the other host).")));

    // ---- ack_delays ----------------------------------------------------------------------------------------
    public static final TableSchema ACK_DELAYS = new TableSchema("ack_delays",
            "One row per acknowledgement that newly acknowledged data: how long the acking host held it.",
            child(List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("ack_time", TIMESTAMP, false, "", "When the ACK was captured."),
                    new Column("ack_frame", LONG, false, "", "Frame number of the ACK" + FRAME_FILE),
                    new Column("acking_side", STRING, false, "", "CLIENT or SERVER: who sent the ACK."),
                    new Column("ack_delay_us", LONG, false, "µs",
                            "From the arrival of the oldest data it acknowledges to the ACK (corrected by the path "
                                    + "RTT when `method` is ESTIMATED)."),
                    new Column("since_newest_us", LONG, false, "µs", "The same from the newest acknowledged segment."),
                    new Column("segments", INT, false, "segments", "Data segments newly acknowledged."),
                    new Column("acked_bytes", LONG, false, "bytes", "Payload bytes newly acknowledged."),
                    new Column("method", STRING, false, "",
                            "DIRECT (capture at the acking host), ESTIMATED (path RTT subtracted), UNCORRECTED "
                                    + "(handshake not captured: an upper bound)."),
                    new Column("ack_class", STRING, false, "",
                            "IMMEDIATE, EVERY_SECOND_SEGMENT, PIGGYBACKED, DELAYED_40MS, DELAYED_200MS, "
                                    + "DELAYED_OTHER.")),
                    sideIp("acking_ip", "`acking_side`: the host that sent the ACK.")));

    // ---- stalls --------------------------------------------------------------------------------------------
    public static final TableSchema STALLS = new TableSchema("stalls",
            "One row per Nagle × delayed-ACK stall: a side held a small unacknowledged segment and sent nothing "
                    + "more until the peer's delayed ACK arrived, then resumed at once.",
            child(List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("held_time", TIMESTAMP, false, "", "When the held segment was captured."),
                    new Column("duration_us", LONG, false, "µs", "From the held segment to the resumed segment: "
                            + "the same value as `stall_us`, the name every table gives stall time; kept so that "
                            + "queries, notebooks and readers of outputs before schema version 5 keep working."),
                    new Column("ack_delay_us", LONG, false, "µs", "The delaying side's ACK delay."),
                    new Column("resume_gap_us", LONG, false, "µs", "From the ACK to the resumed segment."),
                    new Column("holding_side", STRING, false, "", "CLIENT or SERVER: whose data waited (Nagle there)."),
                    new Column("delaying_side", STRING, false, "", "CLIENT or SERVER: who delayed its ACK."),
                    new Column("held_frame", LONG, false, "", "Frame number of the held segment."),
                    new Column("ack_frame", LONG, false, "", "Frame number of the delayed ACK."),
                    new Column("resume_frame", LONG, false, "", "Frame number of the resumed segment."),
                    new Column("evidence", STRING, false, "", "The same facts in words.")),
                    sideIp("holding_ip", "`holding_side`: the host whose data waited."),
                    sideIp("delaying_ip", "`delaying_side`: the host that delayed its ACK."),
                    new Column("peer_ack_delay_us", LONG, true, "µs",
                            "With two or more sources and a matched connection (`connections.peer_source`): the "
                                    + "delaying host's ACK delay as the source nearer that host saw it (the client's "
                                    + "own delayed ACK at a client-side capture, without the path's round trip); "
                                    + "null when the ACK or its data was not seen at both."),
                    new Column("stall_us", LONG, false, "µs", "The stall's time, from the held segment to the "
                            + "resumed segment (`duration_us`): summed over a connection's or an exchange's stalls "
                            + "it is their `stall_us`.")));

    // ---- latency_events ------------------------------------------------------------------------------------
    public static final TableSchema LATENCY_EVENTS = new TableSchema("latency_events",
            "Two waits the capture shows, one row per wait, with their evidence: retransmission timeouts and "
                    + "zero-window waits. Not the cost of a cause: a `RETRANSMISSION_TIMEOUT` row is one firing of "
                    + "the sender's timer, its duration tshark's `tcp.analysis.rto` (from the oldest unacknowledged "
                    + "segment's first transmission), so a backed-off timeout of the same data is counted again from "
                    + "the same start; `connection_causes` and `findings` count each loss episode once, from the "
                    + "original transmission to the ACK that covered it, less the path's round trip (docs/causes.md). "
                    + "On `lab-cause-loss`: 10.08 s of `RETRANSMISSION_TIMEOUT` here, 6.05 s of `RTO` there. Sum "
                    + "`connection_causes.time_lost_us` for time lost.",
            child(List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("kind", STRING, false, "", "RETRANSMISSION_TIMEOUT or ZERO_WINDOW_WAIT."),
                    new Column("start_time", TIMESTAMP, false, "", "When the wait began."),
                    new Column("duration_us", LONG, false, "µs", "How long it lasted."),
                    new Column("side", STRING, false, "",
                            "CLIENT or SERVER: who waited (the sender for a timeout; the side advertising the zero "
                                    + "window)."),
                    new Column("start_frame", LONG, false, "", "Frame number of the frame that began it."),
                    new Column("end_frame", LONG, false, "", "Frame number of the frame that ended it."),
                    new Column("evidence", STRING, false, "", "The same facts in words.")),
                    sideIp("side_ip", "`side`: the host that waited.")));

    // ---- exchanges -----------------------------------------------------------------------------------------
    public static final TableSchema EXCHANGES = new TableSchema("exchanges",
            "One row per request/response exchange (a burst of client data, then the server's data). "
                    + "`ttfb_us = network_us + server_us + stall_before_response_us`; `stall_us = "
                    + "stall_before_response_us + stall_in_response_us`, so `sum(stall_us) / sum(complete_us)` is "
                    + "the stalled share of the response time. HTTP fields come from the capture: bounded, "
                    + "non-printable bytes replaced by `?`, still untrusted text. An exchange starts with the "
                    + "first byte of a request, where tshark's `http.time` (`ackscope fields -e http.time`) runs from "
                    + "the frame that completes the request to the frame that completes the response, and only for "
                    + "HTTP as tshark's dissector finds it; to compare the two, use `fields -Y http` on the same "
                    + "capture.",
            child(List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("exchange_index", INT, false, "", "0-based position in its connection."),
                    new Column("request_start_time", TIMESTAMP, false, "", "First request segment."),
                    new Column("request_end_time", TIMESTAMP, false, "", "Last request segment before the response."),
                    new Column("response_first_time", TIMESTAMP, true, "",
                            "First response segment; null if none captured."),
                    new Column("response_last_time", TIMESTAMP, true, "", "Last response segment."),
                    new Column("request_bytes", LONG, false, "bytes", "Request payload bytes."),
                    new Column("response_bytes", LONG, false, "bytes", "Response payload bytes."),
                    new Column("ttfb_us", LONG, true, "µs",
                            "Time to first byte: response_first_time - request_start_time."),
                    new Column("network_us", LONG, true, "µs", "Part of ttfb that is the network round trip."),
                    new Column("server_us", LONG, true, "µs", "Part of ttfb that is the server (and request transfer)."),
                    new Column("stall_before_response_us", LONG, true, "µs",
                            "Part of ttfb spent in stalls (before the first response byte); null without a response."),
                    new Column("stall_in_response_us", LONG, true, "µs",
                            "Stall time after the first response byte, until the last."),
                    new Column("complete_us", LONG, true, "µs", "response_last_time - request_start_time."),
                    new Column("http_method", STRING, true, "", "HTTP/1.x request method, or null."),
                    new Column("http_target", STRING, true, "", "HTTP request target (cut at 256 characters)."),
                    new Column("http_host", STRING, true, "", "HTTP Host header (cut at 128 characters)."),
                    new Column("http_status", INT, true, "", "HTTP response status code, or null.")),
                    new Column("stall_us", LONG, false, "µs",
                            "All stall time in the exchange: `stall_before_response_us + stall_in_response_us` "
                                    + "(a null part counts 0)."),
                    new Column("peer_server_turnaround_us", LONG, true, "µs",
                            "With two or more sources and a matched connection (`connections.peer_source`): from the "
                                    + "request's end to the response's first segment as the source nearer the server "
                                    + "saw it (the server host's own time, without the path's round trip); null when "
                                    + "that source has no response for this exchange.")));

    // ---- connection_causes -----------------------------------------------------------------------------------
    public static final TableSchema CONNECTION_CAUSES = new TableSchema("connection_causes",
            "One row per connection and latency cause found on it: every cause of docs/causes.md (Nagle × "
                    + "delayed-ACK stalls, handshake retransmissions, loss recoveries, zero windows, server "
                    + "processing, network and queueing delay, connection churn, small initial window, slow start "
                    + "after idle, ...), with the time it cost by the rules of `findings`: summed over the "
                    + "connections of a server endpoint, `events`, `count` and `time_lost_us` are that endpoint's "
                    + "`findings` row, exactly. A cause `findings` leaves out (a per-request cause on under 10 % of "
                    + "the endpoint's requests) still has its rows here.",
            child(List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("cause", STRING, false, "", "The cause: a name of `tcp/Cause`, as in `findings`."),
                    new Column("events", LONG, false, "", "Occurrences on this connection: stalls, recovery "
                            + "episodes, zero-window episodes, handshakes with retransmissions, requests."),
                    new Column("count", LONG, false, "", "Sum of the occurrences' counts (retransmissions, RTO "
                            + "backoffs, zero-window segments; 1 per stall)."),
                    new Column("requests", LONG, false, "", "The connection's requests (exchanges) it affected, as "
                            + "`findings.requests` counts them."),
                    new Column("time_lost_us", LONG, false, "µs", "Time the cause cost on this connection: each "
                            + "occurrence's time lost (docs/causes.md), in µs rounded down, summed."),
                    new Column("first_time", TIMESTAMP, false, "", "When its first occurrence on the connection "
                            + "began."),
                    new Column("response_us", LONG, false, "µs", "The connection's response time, the same on "
                            + "each of its rows: its requests' response times plus the time lost outside them "
                            + "(handshake retransmissions, loss recoveries, churn), the denominator of `findings.share` "
                            + "(docs/causes.md, Ranking)."),
                    new Column("evidence_frames", LONG_LIST, false, "", "Evidence: the frame numbers of the "
                            + "costliest occurrences, costliest first, at most 16 (as `findings.evidence_frames`)" 
                            + FRAME_FILE))));

    /** The tables above, in the order they are documented. */
    public static final List<TableSchema> ALL = List.of(CONNECTIONS, RTT_SAMPLES, ACK_DELAYS, STALLS, LATENCY_EVENTS,
            EXCHANGES, CONNECTION_CAUSES);

    // ---- columns by name, for readers ------------------------------------------------------------------------
    // Readers (the report, the lab) name the columns they read by these constants, so a column renamed or removed
    // here fails when the class loads, not when a reader asks for it by a string.

    /** Columns of {@link #CONNECTIONS} that readers use. */
    public static final class Connections {
        private Connections() {
        }

        public static final Column STREAM = CONNECTIONS.column("stream");
        public static final Column UID = CONNECTIONS.column("uid");
        public static final Column PEER_SOURCE = CONNECTIONS.column("peer_source");
        public static final Column PEER_STREAM = CONNECTIONS.column("peer_stream");
        public static final Column PEER_UID = CONNECTIONS.column("peer_uid");
        public static final Column FIRST_FILE_INDEX = CONNECTIONS.column("first_file_index");
        public static final Column FIRST_FRAME = CONNECTIONS.column("first_frame");
        public static final Column FIRST_TIME = CONNECTIONS.column("first_time");
        public static final Column LAST_TIME = CONNECTIONS.column("last_time");
        public static final Column SYN_TIME = CONNECTIONS.column("syn_time");
        public static final Column INITIAL_RTT_US = CONNECTIONS.column("initial_rtt_us");
        public static final Column VANTAGE = CONNECTIONS.column("vantage");
        public static final Column CONN_STATE = CONNECTIONS.column("conn_state");
        public static final Column HISTORY = CONNECTIONS.column("history");
        public static final Column CLIENT_IP = CONNECTIONS.column("client_ip");
        public static final Column CLIENT_PORT = CONNECTIONS.column("client_port");
        public static final Column SERVER_IP = CONNECTIONS.column("server_ip");
        public static final Column SERVER_PORT = CONNECTIONS.column("server_port");
        public static final Column CLIENT_PACKETS = CONNECTIONS.column("client_packets");
        public static final Column SERVER_PACKETS = CONNECTIONS.column("server_packets");
        public static final Column CLIENT_PAYLOAD_BYTES = CONNECTIONS.column("client_payload_bytes");
        public static final Column SERVER_PAYLOAD_BYTES = CONNECTIONS.column("server_payload_bytes");
        public static final Column CLIENT_SEQ_BYTES = CONNECTIONS.column("client_seq_bytes");
        public static final Column SERVER_SEQ_BYTES = CONNECTIONS.column("server_seq_bytes");
        public static final Column CLIENT_IP_BYTES = CONNECTIONS.column("client_ip_bytes");
        public static final Column SERVER_IP_BYTES = CONNECTIONS.column("server_ip_bytes");
        public static final Column CLIENT_MISSED_BYTES = CONNECTIONS.column("client_missed_bytes");
        public static final Column SERVER_MISSED_BYTES = CONNECTIONS.column("server_missed_bytes");
        public static final Column CLIENT_RETRANSMISSIONS = CONNECTIONS.column("client_retransmissions");
        public static final Column SERVER_RETRANSMISSIONS = CONNECTIONS.column("server_retransmissions");
    }

    /** Columns of {@link #EXCHANGES} that readers use. */
    public static final class Exchanges {
        private Exchanges() {
        }

        public static final Column STREAM = EXCHANGES.column("stream");
        public static final Column EXCHANGE_INDEX = EXCHANGES.column("exchange_index");
        public static final Column REQUEST_START_TIME = EXCHANGES.column("request_start_time");
        public static final Column TTFB_US = EXCHANGES.column("ttfb_us");
        public static final Column STALL_US = EXCHANGES.column("stall_us");
        public static final Column STALL_BEFORE_RESPONSE_US = EXCHANGES.column("stall_before_response_us");
        public static final Column STALL_IN_RESPONSE_US = EXCHANGES.column("stall_in_response_us");
        public static final Column COMPLETE_US = EXCHANGES.column("complete_us");
        public static final Column REQUEST_BYTES = EXCHANGES.column("request_bytes");
        public static final Column RESPONSE_BYTES = EXCHANGES.column("response_bytes");
        public static final Column HTTP_METHOD = EXCHANGES.column("http_method");
        public static final Column HTTP_TARGET = EXCHANGES.column("http_target");
        public static final Column HTTP_HOST = EXCHANGES.column("http_host");
        public static final Column HTTP_STATUS = EXCHANGES.column("http_status");
    }

    /** Columns of {@link #RTT_SAMPLES} that readers use. */
    public static final class RttSamples {
        private RttSamples() {
        }

        public static final Column STREAM = RTT_SAMPLES.column("stream");
        public static final Column CLOSING_TIME = RTT_SAMPLES.column("closing_time");
        public static final Column KIND = RTT_SAMPLES.column("kind");
        public static final Column RTT_US = RTT_SAMPLES.column("rtt_us");
        public static final Column CLOSING_FRAME = RTT_SAMPLES.column("closing_frame");
    }

    /** Columns of {@link #ACK_DELAYS} that readers use. */
    public static final class AckDelays {
        private AckDelays() {
        }

        public static final Column STREAM = ACK_DELAYS.column("stream");
        public static final Column ACK_TIME = ACK_DELAYS.column("ack_time");
        public static final Column ACKING_SIDE = ACK_DELAYS.column("acking_side");
        public static final Column ACK_DELAY_US = ACK_DELAYS.column("ack_delay_us");
        public static final Column METHOD = ACK_DELAYS.column("method");
        public static final Column ACK_CLASS = ACK_DELAYS.column("ack_class");
        public static final Column ACK_FRAME = ACK_DELAYS.column("ack_frame");
    }

    /** Columns of {@link #STALLS} that readers use. */
    public static final class Stalls {
        private Stalls() {
        }

        public static final Column STREAM = STALLS.column("stream");
        public static final Column HELD_TIME = STALLS.column("held_time");
        public static final Column DURATION_US = STALLS.column("duration_us");
        public static final Column ACK_DELAY_US = STALLS.column("ack_delay_us");
        public static final Column RESUME_GAP_US = STALLS.column("resume_gap_us");
        public static final Column HOLDING_SIDE = STALLS.column("holding_side");
        public static final Column DELAYING_SIDE = STALLS.column("delaying_side");
        public static final Column HELD_FRAME = STALLS.column("held_frame");
        public static final Column ACK_FRAME = STALLS.column("ack_frame");
        public static final Column RESUME_FRAME = STALLS.column("resume_frame");
        public static final Column EVIDENCE = STALLS.column("evidence");
    }

    /** Columns of {@link #LATENCY_EVENTS} that readers use. */
    public static final class LatencyEvents {
        private LatencyEvents() {
        }

        public static final Column STREAM = LATENCY_EVENTS.column("stream");
        public static final Column KIND = LATENCY_EVENTS.column("kind");
        public static final Column START_TIME = LATENCY_EVENTS.column("start_time");
        public static final Column DURATION_US = LATENCY_EVENTS.column("duration_us");
        public static final Column SIDE = LATENCY_EVENTS.column("side");
        public static final Column EVIDENCE = LATENCY_EVENTS.column("evidence");
    }
}
