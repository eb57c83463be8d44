package io.ackscope.spark;

import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.LatencyEvent;
import io.ackscope.tcp.RttSample;
import io.ackscope.tcp.SideStats;
import io.ackscope.tcp.Stall;
import io.ackscope.tcp.Summary;

import java.util.ArrayList;
import java.util.List;

import static io.ackscope.spark.ColumnType.BOOLEAN;
import static io.ackscope.spark.ColumnType.INT;
import static io.ackscope.spark.ColumnType.LONG;
import static io.ackscope.spark.ColumnType.STRING;
import static io.ackscope.spark.ColumnType.TIMESTAMP;

/**
 * The tables made from the TCP engine's records, and how each record becomes a row. Every row names its
 * connection by {@code source} and {@code stream} ({@code tcp.stream}: connections numbered in order of first
 * appearance over the source's files in file order, from 0 in each source). Engine nanoseconds become {@code _us} columns (integer microseconds, rounded down)
 * and TIMESTAMP columns; the engine's "absent" (-1) becomes null.
 */
public final class EngineTables {
    private EngineTables() {
    }

    private static final String FRAME_FILE = " in its source (its files numbered as one capture, frames of earlier "
            + "files repeated in later ones counted once).";
    private static final String STREAM_DOC = "Connection index (tshark's `tcp.stream`) within its source; joins with "
            + "`connections` on (`source`, `stream`).";
    /** The last column of every engine table. */
    static final Column SOURCE = new Column("source", STRING, false, "",
            "Capture source (capture point) the row comes from: connections, streams and frame numbers are per "
                    + "source.");

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
        c.add(new Column("first_file_index", INT, false, "", "File of the connection's first frame (`capture_files`)."));
        c.add(new Column("first_frame_number", LONG, false, "", "Frame number of its first frame" + FRAME_FILE));
        c.add(new Column("originator_rule", STRING, false, "",
                "How the client (originator) was decided: SYN, SYN_ACK, FIRST_PACKET, WELL_KNOWN_PORT."));
        c.add(new Column("first_timestamp", TIMESTAMP, false, "", "First frame."));
        c.add(new Column("last_timestamp", TIMESTAMP, false, "", "Last frame."));
        c.add(new Column("duration_us", LONG, false, "µs", "Last frame - first frame."));
        c.add(new Column("syn_timestamp", TIMESTAMP, true, "", "First SYN from the client."));
        c.add(new Column("syn_ack_timestamp", TIMESTAMP, true, "", "First SYN/ACK from the server."));
        c.add(new Column("handshake_ack_timestamp", TIMESTAMP, true, "", "ACK completing the handshake."));
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
                        + "upper case = client)."));
        c.add(new Column("end_reason", STRING, false, "",
                "Why the record was emitted: CLOSED, PORT_REUSED, IDLE_TIMEOUT, END_OF_INPUT."));
        side(c, "client_", "Client (originator)");
        side(c, "server_", "Server (responder)");
        summary(c, "data_rtt_client_data", "Data→ACK RTT of client data acknowledged by the server");
        summary(c, "data_rtt_server_data", "Data→ACK RTT of server data acknowledged by the client");
        summary(c, "timestamp_rtt", "RTT from TCP timestamp echoes, both directions");
        c.add(new Column("stalls", LONG, false, "", "Nagle × delayed-ACK stalls found."));
        c.add(new Column("stall_us", LONG, false, "µs", "Their total duration."));
        c.add(new Column("exchanges", LONG, false, "", "Request/response exchanges."));
        summary(c, "ttfb", "Time to first byte of the exchanges");
        c.add(new Column("rto_events", LONG, false, "", "Retransmission timeouts."));
        c.add(new Column("zero_window_waits", LONG, false, "", "Zero-window waits."));
        c.add(new Column("crosses_file_gap", BOOLEAN, false, "",
                "The connection has frames on both sides of a gap between files of its source (a missing rotated "
                        + "file, see `sources`): frames of it may be missing."));
        c.add(SOURCE);
        CONNECTIONS = new TableSchema("connections",
                "One row per TCP connection (as tshark's `tcp.stream`, including port reuse). The client is the "
                        + "originator (SYN sender; see `originator_rule` when the handshake was not captured).", c);
    }

    private static final int C_CLIENT = CONNECTIONS.ordinal("client_ip");
    private static final int C_SERVER = CONNECTIONS.ordinal("server_ip");
    private static final int C_RTT_CLIENT = CONNECTIONS.ordinal("data_rtt_client_data_count");
    private static final int C_RTT_SERVER = CONNECTIONS.ordinal("data_rtt_server_data_count");
    private static final int C_RTT_TS = CONNECTIONS.ordinal("timestamp_rtt_count");
    private static final int C_TTFB = CONNECTIONS.ordinal("ttfb_count");

    static void connection(RowBuffer r, ConnectionRecord c, long stream, String source, boolean crossesGap) {
        r.clear();
        int i = 0;
        r.setLong(i++, stream).setInt(i++, c.id().firstFileIndex()).setLong(i++, c.id().firstFrameNumber())
                .setString(i++, c.originatorRule().name());
        r.setTimestampNanos(i++, c.firstNanos()).setTimestampNanos(i++, c.lastNanos())
                .setLong(i++, c.durationNanos() / 1000);
        ts(r, i++, c.synNanos());
        ts(r, i++, c.synAckNanos());
        ts(r, i++, c.handshakeAckNanos());
        us(r, i++, c.synToSynAckNanos());
        us(r, i++, c.synAckToAckNanos());
        us(r, i++, c.initialRttNanos());
        r.setString(i++, c.vantage().name()).setString(i++, c.connState()).setString(i++, c.history())
                .setString(i, c.endReason().name());
        side(r, C_CLIENT, c.orig());
        side(r, C_SERVER, c.resp());
        summary(r, C_RTT_CLIENT, c.dataRttFromOrig());
        summary(r, C_RTT_SERVER, c.dataRttFromResp());
        summary(r, C_RTT_TS, c.timestampRtt());
        int j = C_RTT_TS + 4;
        r.setLong(j++, c.stalls()).setLong(j++, c.stallNanos() / 1000).setLong(j, c.exchanges());
        summary(r, C_TTFB, c.ttfb());
        int k = C_TTFB + 4;
        r.setLong(k++, c.rtoEvents()).setLong(k++, c.zeroWindowWaits()).setBoolean(k++, crossesGap)
                .setString(k, source);
    }

    private static void side(RowBuffer r, int i, SideStats s) {
        r.setString(i++, s.address()).setInt(i++, s.port());
        long[] counts = {s.packets(), s.frameBytes(), s.payloadBytes(), s.retransmissions(), s.fastRetransmissions(),
                s.spuriousRetransmissions(), s.duplicateAcks(), s.outOfOrder(), s.zeroWindows(), s.zeroWindowProbes(),
                s.windowFull(), s.keepAlives(), s.lostSegments(), s.rsts(), s.fins()};
        for (long v : counts) {
            r.setLong(i++, v);
        }
        intOrNull(r, i++, s.mss());
        intOrNull(r, i++, s.windowScale());
        r.setBoolean(i++, s.sackPermitted()).setBoolean(i++, s.timestamps()).setLong(i++, s.unackedDropped());
        summary(r, i, s.ackDelay());
        i += 4;
        long[] acks = {s.immediateAcks(), s.everySecondAcks(), s.piggybackedAcks(), s.delayed40msAcks(),
                s.delayed200msAcks(), s.delayedOtherAcks()};
        for (long v : acks) {
            r.setLong(i++, v);
        }
    }

    private static void summary(RowBuffer r, int i, Summary s) {
        r.setLong(i, s.count());
        if (s.count() > 0) {
            r.setLong(i + 1, s.minNanos() / 1000).setLong(i + 2, s.meanNanos() / 1000).setLong(i + 3, s.maxNanos() / 1000);
        }
    }

    // ---- rtt_samples ---------------------------------------------------------------------------------------
    public static final TableSchema RTT_SAMPLES = new TableSchema("rtt_samples",
            "One row per round-trip time measurement.",
            List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("timestamp", TIMESTAMP, false, "", "When the closing packet (ACK or echo) was captured."),
                    new Column("frame_number", LONG, false, "", "Frame number of the closing packet" + FRAME_FILE),
                    new Column("kind", STRING, false, "",
                            "HANDSHAKE_SYN_SYNACK (capture point → server → back), HANDSHAKE_SYNACK_ACK (→ client → "
                                    + "back), DATA_ACK (tshark's `tcp.analysis.ack_rtt`, includes the peer's ACK "
                                    + "delay), TIMESTAMP_ECHO (TSval to its echo)."),
                    new Column("measured_from", STRING, false, "",
                            "CLIENT or SERVER: the side whose packet started the measurement; the RTT is to the "
                                    + "other side and back."),
                    new Column("rtt_us", LONG, false, "µs", "The round-trip time."),
                    new Column("karn_ambiguous", BOOLEAN, false, "",
                            "The segment was retransmitted, so the ACK may answer either copy (Karn)."), SOURCE));

    static void rttSample(RowBuffer r, RttSample s, long stream, String source) {
        r.clear().setLong(0, stream).setTimestampNanos(1, s.timeNanos()).setLong(2, s.frameNumber())
                .setString(3, s.kind().name()).setString(4, role(s.measuredFrom())).setLong(5, s.valueNanos() / 1000)
                .setBoolean(6, s.karnAmbiguous()).setString(7, source);
    }

    // ---- ack_delays ----------------------------------------------------------------------------------------
    public static final TableSchema ACK_DELAYS = new TableSchema("ack_delays",
            "One row per acknowledgement that newly acknowledged data: how long the acking host held it.",
            List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("timestamp", TIMESTAMP, false, "", "When the ACK was captured."),
                    new Column("frame_number", LONG, false, "", "Frame number of the ACK" + FRAME_FILE),
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
                                    + "DELAYED_OTHER."), SOURCE));

    static void ackDelay(RowBuffer r, AckDelay a, long stream, String source) {
        r.clear().setLong(0, stream).setTimestampNanos(1, a.timeNanos()).setLong(2, a.frameNumber())
                .setString(3, role(a.ackingSide())).setLong(4, a.valueNanos() / 1000)
                .setLong(5, a.sinceNewestNanos() / 1000).setInt(6, a.segments()).setLong(7, a.bytes())
                .setString(8, a.method().name()).setString(9, a.ackClass().name()).setString(10, source);
    }

    // ---- stalls --------------------------------------------------------------------------------------------
    public static final TableSchema STALLS = new TableSchema("stalls",
            "One row per Nagle × delayed-ACK stall: a side held a small unacknowledged segment and sent nothing "
                    + "more until the peer's delayed ACK arrived, then resumed at once.",
            List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("start_timestamp", TIMESTAMP, false, "", "When the held segment was captured."),
                    new Column("duration_us", LONG, false, "µs", "From the held segment to the resumed segment."),
                    new Column("ack_delay_us", LONG, false, "µs", "The delaying side's ACK delay."),
                    new Column("resume_gap_us", LONG, false, "µs", "From the ACK to the resumed segment."),
                    new Column("holding_side", STRING, false, "", "CLIENT or SERVER: whose data waited (Nagle there)."),
                    new Column("delaying_side", STRING, false, "", "CLIENT or SERVER: who delayed its ACK."),
                    new Column("held_frame", LONG, false, "", "Frame number of the held segment."),
                    new Column("ack_frame", LONG, false, "", "Frame number of the delayed ACK."),
                    new Column("resume_frame", LONG, false, "", "Frame number of the resumed segment."),
                    new Column("evidence", STRING, false, "", "The same facts in words."), SOURCE));

    static void stall(RowBuffer r, Stall s, long stream, String source) {
        r.clear().setLong(0, stream).setTimestampNanos(1, s.startNanos()).setLong(2, s.durationNanos() / 1000)
                .setLong(3, s.ackDelayNanos() / 1000).setLong(4, s.resumeGapNanos() / 1000)
                .setString(5, role(s.holdingSide())).setString(6, role(s.delayingSide())).setLong(7, s.heldFrame())
                .setLong(8, s.ackFrame()).setLong(9, s.resumeFrame()).setString(10, s.evidence()).setString(11, source);
    }

    // ---- latency_events ------------------------------------------------------------------------------------
    public static final TableSchema LATENCY_EVENTS = new TableSchema("latency_events",
            "Latency causes other than stalls that the capture shows, with their evidence.",
            List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("kind", STRING, false, "", "RETRANSMISSION_TIMEOUT or ZERO_WINDOW_WAIT."),
                    new Column("start_timestamp", TIMESTAMP, false, "", "When the wait began."),
                    new Column("duration_us", LONG, false, "µs", "How long it lasted."),
                    new Column("side", STRING, false, "",
                            "CLIENT or SERVER: who waited (the sender for a timeout; the side advertising the zero "
                                    + "window)."),
                    new Column("start_frame", LONG, false, "", "Frame that began it."),
                    new Column("end_frame", LONG, false, "", "Frame that ended it."),
                    new Column("evidence", STRING, false, "", "The same facts in words."), SOURCE));

    static void latencyEvent(RowBuffer r, LatencyEvent e, long stream, String source) {
        r.clear().setLong(0, stream).setString(1, e.kind().name()).setTimestampNanos(2, e.startNanos())
                .setLong(3, e.durationNanos() / 1000).setString(4, role(e.side())).setLong(5, e.startFrame())
                .setLong(6, e.endFrame()).setString(7, e.evidence()).setString(8, source);
    }

    // ---- exchanges -----------------------------------------------------------------------------------------
    public static final TableSchema EXCHANGES = new TableSchema("exchanges",
            "One row per request/response exchange (a burst of client data, then the server's data). "
                    + "`ttfb_us = network_us + server_us + stall_us`. HTTP fields come from the capture: bounded, "
                    + "non-printable bytes replaced by `?`, still untrusted text.",
            List.of(new Column("stream", LONG, false, "", STREAM_DOC),
                    new Column("exchange_index", INT, false, "", "0-based position in its connection."),
                    new Column("request_start", TIMESTAMP, false, "", "First request segment."),
                    new Column("request_end", TIMESTAMP, false, "", "Last request segment before the response."),
                    new Column("response_first", TIMESTAMP, true, "", "First response segment; null if none captured."),
                    new Column("response_last", TIMESTAMP, true, "", "Last response segment."),
                    new Column("request_bytes", LONG, false, "bytes", "Request payload bytes."),
                    new Column("response_bytes", LONG, false, "bytes", "Response payload bytes."),
                    new Column("ttfb_us", LONG, true, "µs", "Time to first byte: response_first - request_start."),
                    new Column("network_us", LONG, true, "µs", "Part of ttfb that is the network round trip."),
                    new Column("server_us", LONG, true, "µs", "Part of ttfb that is the server (and request transfer)."),
                    new Column("stall_us", LONG, true, "µs", "Part of ttfb spent in stalls."),
                    new Column("response_stall_us", LONG, true, "µs", "Stall time after the first response byte."),
                    new Column("complete_us", LONG, true, "µs", "response_last - request_start."),
                    new Column("http_method", STRING, true, "", "HTTP/1.x request method, or null."),
                    new Column("http_target", STRING, true, "", "HTTP request target (cut at 256 characters)."),
                    new Column("http_host", STRING, true, "", "HTTP Host header (cut at 128 characters)."),
                    new Column("http_status", INT, true, "", "HTTP response status code, or null."), SOURCE));

    static void exchange(RowBuffer r, Exchange e, long stream, String source) {
        r.clear().setLong(0, stream).setInt(1, e.index()).setTimestampNanos(2, e.requestStartNanos())
                .setTimestampNanos(3, e.requestEndNanos());
        ts(r, 4, e.responseFirstNanos());
        ts(r, 5, e.responseLastNanos());
        r.setLong(6, e.requestBytes()).setLong(7, e.responseBytes());
        us(r, 8, e.ttfbNanos());
        us(r, 9, e.networkNanos());
        us(r, 10, e.serverNanos());
        us(r, 11, e.stallNanos());
        us(r, 12, e.responseStallNanos());
        us(r, 13, e.completeNanos());
        r.setString(14, e.httpMethod()).setString(15, e.httpTarget()).setString(16, e.httpHost());
        intOrNull(r, 17, e.httpStatus());
        r.setString(18, source);
    }

    /** The tables above, in the order they are documented. */
    public static final List<TableSchema> ALL = List.of(CONNECTIONS, RTT_SAMPLES, ACK_DELAYS, STALLS, LATENCY_EVENTS,
            EXCHANGES);

    // ---- helpers -------------------------------------------------------------------------------------------
    private static void ts(RowBuffer r, int i, long nanos) {
        if (nanos >= 0) {
            r.setTimestampNanos(i, nanos);
        }
    }

    private static void us(RowBuffer r, int i, long nanos) {
        if (nanos >= 0) {
            r.setLong(i, nanos / 1000);
        }
    }

    private static void intOrNull(RowBuffer r, int i, int v) {
        if (v >= 0) {
            r.setInt(i, v);
        }
    }

    private static String role(io.ackscope.tcp.Side s) {
        return s == io.ackscope.tcp.Side.ORIGINATOR ? "CLIENT" : "SERVER";
    }
}
