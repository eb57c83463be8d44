package io.ackscope.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns the report reads, by table: its whole dependency on the schema that {@code analyze} writes (see
 * {@code docs/schema.md}). A golden test keeps this list and the written tables in step.
 */
final class Tables {
    private Tables() {
    }

    static final String CAPTURE_FILES = "capture_files";
    static final String CONNECTIONS = "connections";
    static final String EXCHANGES = "exchanges";
    static final String RTT_SAMPLES = "rtt_samples";
    static final String ACK_DELAYS = "ack_delays";
    static final String STALLS = "stalls";
    /** Optional: outputs from before capture sources do not have it. */
    static final String SOURCES = "sources";
    static final List<String> SOURCES_COLUMNS = List.of("source", "files", "frames", "gaps", "gap_us",
            "duplicate_frames", "copies_skipped");
    /** Optional: older outputs do not have it. */
    static final String LATENCY_EVENTS = "latency_events";

    static final List<String> CAPTURE_FILES_COLUMNS = List.of("file", "file_index", "file_bytes", "format",
            "read_mode", "link_types", "frames", "first_timestamp", "last_timestamp", "frames_ok",
            "frames_truncated", "frames_malformed", "frames_unsupported", "tcp_frames", "skipped_by_reason",
            "error_offset", "error", "tail_offset", "tail_problem");

    /** Optional columns of {@code capture_files}: older outputs do not have them. */
    static final List<String> CAPTURE_FILES_SEEK_COLUMNS = List.of("seek_frames", "seek_offsets");

    /** Optional columns of {@code capture_files} that outputs of archives have (sources, frame numbering). */
    static final List<String> CAPTURE_FILES_ARCHIVE_COLUMNS = List.of("source", "first_source_frame",
            "duplicate_ranges");

    /** Optional column of every engine table: the capture source (older outputs have one unnamed source). */
    static final List<String> SOURCE = List.of("source");

    static final List<String> CONNECTIONS_COLUMNS = List.of("stream", "first_file_index", "first_frame_number",
            "first_timestamp", "last_timestamp", "syn_timestamp", "initial_rtt_us", "vantage", "conn_state",
            "history", "client_ip", "client_port", "server_ip", "server_port", "client_packets", "server_packets",
            "client_payload_bytes", "server_payload_bytes", "client_retransmissions", "server_retransmissions");

    static final List<String> EXCHANGES_COLUMNS = List.of("stream", "exchange_index", "request_start", "ttfb_us",
            "stall_us", "response_stall_us", "complete_us", "request_bytes", "response_bytes", "http_method",
            "http_target", "http_host", "http_status");

    static final List<String> RTT_SAMPLES_COLUMNS = List.of("stream", "timestamp", "kind", "rtt_us");

    static final List<String> ACK_DELAYS_COLUMNS = List.of("stream", "timestamp", "acking_side", "ack_delay_us",
            "method", "ack_class");

    static final List<String> STALLS_COLUMNS = List.of("stream", "start_timestamp", "duration_us", "ack_delay_us",
            "resume_gap_us", "holding_side", "delaying_side", "held_frame", "ack_frame", "resume_frame", "evidence");

    static final List<String> LATENCY_EVENTS_COLUMNS = List.of("stream", "kind", "start_timestamp", "duration_us",
            "side", "evidence");

    /** Every table the report reads and its columns, in reading order. */
    static Map<String, List<String>> all() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put(CAPTURE_FILES, java.util.stream.Stream.of(CAPTURE_FILES_COLUMNS, CAPTURE_FILES_SEEK_COLUMNS,
                CAPTURE_FILES_ARCHIVE_COLUMNS).flatMap(List::stream).toList());
        m.put(CONNECTIONS, CONNECTIONS_COLUMNS);
        m.put(EXCHANGES, EXCHANGES_COLUMNS);
        m.put(RTT_SAMPLES, RTT_SAMPLES_COLUMNS);
        m.put(ACK_DELAYS, ACK_DELAYS_COLUMNS);
        m.put(STALLS, STALLS_COLUMNS);
        m.put(LATENCY_EVENTS, LATENCY_EVENTS_COLUMNS);
        m.put(SOURCES, SOURCES_COLUMNS);
        return m;
    }
}
