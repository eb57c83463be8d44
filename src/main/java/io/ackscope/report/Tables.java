package io.ackscope.report;

import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables.AckDelays;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.EngineTables.Exchanges;
import io.ackscope.tables.EngineTables.RttSamples;
import io.ackscope.tables.EngineTables.Stalls;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.SourcesTable;
import io.ackscope.tables.TableSchema;
import io.ackscope.tables.VantageTables;
import io.ackscope.tables.VantageTables.OneWayDelays;
import io.ackscope.tables.VantageTables.SourcePairs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The columns the report reads, by table: its whole dependency on the schema that {@code analyze} writes, as the
 * schemas' own {@link Column}s (see {@code docs/schema.md}). A golden test keeps this list in view.
 */
final class Tables {
    private Tables() {
    }

    static final TableSchema CAPTURE_FILES = CaptureFilesTable.TABLE;
    static final TableSchema CONNECTIONS = EngineTables.CONNECTIONS;
    static final TableSchema EXCHANGES = EngineTables.EXCHANGES;
    static final TableSchema RTT_SAMPLES = EngineTables.RTT_SAMPLES;
    static final TableSchema ACK_DELAYS = EngineTables.ACK_DELAYS;
    static final TableSchema STALLS = EngineTables.STALLS;
    /** Optional: outputs from before capture sources do not have it. */
    static final TableSchema SOURCES = SourcesTable.TABLE;
    static final List<Column> SOURCES_COLUMNS = List.of(SourcesTable.SOURCE, SourcesTable.FILES,
            SourcesTable.FRAMES, SourcesTable.GAPS, SourcesTable.GAP_US, SourcesTable.DUPLICATE_FRAMES,
            SourcesTable.COPIES_SKIPPED);

    static final List<Column> CAPTURE_FILES_COLUMNS = List.of(CaptureFilesTable.FILE, CaptureFilesTable.FILE_INDEX,
            CaptureFilesTable.FILE_BYTES, CaptureFilesTable.FORMAT, CaptureFilesTable.READ_MODE,
            CaptureFilesTable.LINK_TYPES, CaptureFilesTable.FRAMES, CaptureFilesTable.FIRST_TIME,
            CaptureFilesTable.LAST_TIME, CaptureFilesTable.FRAMES_OK, CaptureFilesTable.FRAMES_TRUNCATED,
            CaptureFilesTable.FRAMES_MALFORMED, CaptureFilesTable.FRAMES_UNSUPPORTED, CaptureFilesTable.TCP_FRAMES,
            CaptureFilesTable.SKIPPED_BY_REASON, CaptureFilesTable.ERROR_OFFSET, CaptureFilesTable.ERROR,
            CaptureFilesTable.TAIL_OFFSET, CaptureFilesTable.TAIL_PROBLEM);

    /** Optional columns of {@code capture_files}: older outputs do not have them. */
    static final List<Column> CAPTURE_FILES_SEEK_COLUMNS = List.of(CaptureFilesTable.SEEK_FRAMES,
            CaptureFilesTable.SEEK_OFFSETS);

    /** Optional columns of {@code capture_files} that outputs of archives have (sources, frame numbering). */
    static final List<Column> CAPTURE_FILES_ARCHIVE_COLUMNS = List.of(CaptureFilesTable.SOURCE,
            CaptureFilesTable.FIRST_SOURCE_FRAME, CaptureFilesTable.DUPLICATE_RANGES);

    /** Optional column of every engine table: the capture source (older outputs have one unnamed source). */
    static final List<Column> SOURCE = List.of(EngineTables.SOURCE);

    static final List<Column> CONNECTIONS_COLUMNS = List.of(Connections.STREAM, Connections.FIRST_FILE_INDEX,
            Connections.FIRST_FRAME, Connections.FIRST_TIME, Connections.LAST_TIME,
            Connections.SYN_TIME, Connections.INITIAL_RTT_US, Connections.VANTAGE, Connections.CONN_STATE,
            Connections.HISTORY, Connections.CLIENT_IP, Connections.CLIENT_PORT, Connections.SERVER_IP,
            Connections.SERVER_PORT, Connections.CLIENT_PACKETS, Connections.SERVER_PACKETS,
            Connections.CLIENT_PAYLOAD_BYTES, Connections.SERVER_PAYLOAD_BYTES, Connections.CLIENT_RETRANSMISSIONS,
            Connections.SERVER_RETRANSMISSIONS);

    static final List<Column> EXCHANGES_COLUMNS = List.of(Exchanges.STREAM, Exchanges.EXCHANGE_INDEX,
            Exchanges.REQUEST_START_TIME, Exchanges.TTFB_US, Exchanges.STALL_BEFORE_RESPONSE_US, Exchanges.STALL_IN_RESPONSE_US,
            Exchanges.COMPLETE_US, Exchanges.REQUEST_BYTES, Exchanges.RESPONSE_BYTES, Exchanges.HTTP_METHOD,
            Exchanges.HTTP_TARGET, Exchanges.HTTP_HOST, Exchanges.HTTP_STATUS);

    static final List<Column> RTT_SAMPLES_COLUMNS = List.of(RttSamples.STREAM, RttSamples.CLOSING_TIME,
            RttSamples.KIND, RttSamples.RTT_US);

    static final List<Column> ACK_DELAYS_COLUMNS = List.of(AckDelays.STREAM, AckDelays.ACK_TIME,
            AckDelays.ACKING_SIDE, AckDelays.ACK_DELAY_US, AckDelays.METHOD, AckDelays.ACK_CLASS);

    /**
     * The stream and frame columns of {@code ack_delays} and of {@code rtt_samples}, read again only to find the
     * connection of a cause's evidence frame ({@link CauseFindings#readFrames}).
     */
    static final List<Map.Entry<TableSchema, List<Column>>> EVIDENCE_COLUMNS = List.of(
            Map.entry(ACK_DELAYS, List.of(AckDelays.STREAM, AckDelays.ACK_FRAME)),
            Map.entry(RTT_SAMPLES, List.of(RttSamples.STREAM, RttSamples.CLOSING_FRAME)));

    static final List<Column> STALLS_COLUMNS = List.of(Stalls.STREAM, Stalls.HELD_TIME, Stalls.DURATION_US,
            Stalls.ACK_DELAY_US, Stalls.RESUME_GAP_US, Stalls.HOLDING_SIDE, Stalls.DELAYING_SIDE, Stalls.HELD_FRAME,
            Stalls.ACK_FRAME, Stalls.RESUME_FRAME, Stalls.EVIDENCE);

    /** Optional: older outputs do not have it (and no causes are shown for them). */
    static final TableSchema FINDINGS = FindingsTable.TABLE;
    static final List<Column> FINDINGS_COLUMNS = List.of(FindingsTable.SOURCE, FindingsTable.SERVER_IP,
            FindingsTable.SERVER_PORT, FindingsTable.CAUSE, FindingsTable.CONNECTIONS, FindingsTable.REQUESTS,
            FindingsTable.EVENTS, FindingsTable.COUNT, FindingsTable.TIME_LOST_US, FindingsTable.SHARE,
            FindingsTable.EVIDENCE_FRAMES);

    /** Optional, as the two others of two vantage points: outputs from before them do not have them. */
    static final TableSchema SOURCE_PAIRS = VantageTables.SOURCE_PAIRS;
    static final List<Column> SOURCE_PAIRS_COLUMNS = List.of(SourcePairs.SOURCE_A, SourcePairs.SOURCE_B,
            SourcePairs.CONNECTIONS, SourcePairs.CLOCK_OFFSET_US, SourcePairs.CLOCK_OFFSET_ERROR_US,
            SourcePairs.DRIFT_PPM, SourcePairs.ONE_WAY_A_TO_B_P50_US, SourcePairs.ONE_WAY_A_TO_B_P99_US,
            SourcePairs.ONE_WAY_B_TO_A_P50_US, SourcePairs.ONE_WAY_B_TO_A_P99_US, SourcePairs.LOST_A_TO_B,
            SourcePairs.LOST_B_TO_A, SourcePairs.DELAYS_SPLIT);
    static final List<Column> HOST_TIMES_COLUMNS = List.of(VantageTables.HostTimes.SOURCE_A,
            VantageTables.HostTimes.SOURCE_B, VantageTables.HostTimes.SERVER_IP, VantageTables.HostTimes.SERVER_PORT,
            VantageTables.HostTimes.CONNECTIONS, VantageTables.HostTimes.CLIENT_ACK_DELAY_P50_US,
            VantageTables.HostTimes.STALL_ACK_DELAY_P50_US, VantageTables.HostTimes.ONE_WAY_A_TO_B_P50_US,
            VantageTables.HostTimes.ONE_WAY_B_TO_A_P50_US, VantageTables.HostTimes.SERVER_TURNAROUND_P50_US,
            VantageTables.HostTimes.SERVER_TURNAROUND_AT_A_P50_US);
    static final List<Column> ONE_WAY_DELAYS_COLUMNS = List.of(OneWayDelays.SOURCE_A, OneWayDelays.SOURCE_B,
            OneWayDelays.DIRECTION, OneWayDelays.DELAY_US, OneWayDelays.UID_A, OneWayDelays.A_FRAME);
    /** The second scan of {@code one_way_delays}, for the two-point flow graph of one connection per pair. */
    static final List<Column> ONE_WAY_FLOW_COLUMNS = List.of(OneWayDelays.SOURCE_A, OneWayDelays.SOURCE_B,
            OneWayDelays.UID_A, OneWayDelays.STREAM_A, OneWayDelays.STREAM_B, OneWayDelays.DIRECTION,
            OneWayDelays.A_TIME, OneWayDelays.DELAY_US, OneWayDelays.SEQ, OneWayDelays.PAYLOAD_LENGTH,
            OneWayDelays.A_FRAME, OneWayDelays.B_FRAME);

    /** Every table the report reads and the names of its columns, in reading order. */
    static Map<String, List<String>> all() {
        Map<String, List<Column>> m = new LinkedHashMap<>();
        m.put(CAPTURE_FILES.name(), Stream.of(CAPTURE_FILES_COLUMNS, CAPTURE_FILES_SEEK_COLUMNS,
                CAPTURE_FILES_ARCHIVE_COLUMNS).flatMap(List::stream).toList());
        m.put(CONNECTIONS.name(), CONNECTIONS_COLUMNS);
        m.put(EXCHANGES.name(), EXCHANGES_COLUMNS);
        // and, for the causes' evidence, their frame numbers (CauseFindings.readFrames)
        m.put(RTT_SAMPLES.name(), Stream.concat(RTT_SAMPLES_COLUMNS.stream(), Stream.of(RttSamples.CLOSING_FRAME))
                .toList());
        m.put(ACK_DELAYS.name(), Stream.concat(ACK_DELAYS_COLUMNS.stream(), Stream.of(AckDelays.ACK_FRAME))
                .toList());
        m.put(STALLS.name(), STALLS_COLUMNS);
        m.put(FINDINGS.name(), FINDINGS_COLUMNS);
        m.put(SOURCES.name(), SOURCES_COLUMNS);
        m.put(SOURCE_PAIRS.name(), SOURCE_PAIRS_COLUMNS);
        m.put(VantageTables.HOST_TIMES.name(), HOST_TIMES_COLUMNS);
        m.put(VantageTables.ONE_WAY_DELAYS.name(), Stream.concat(ONE_WAY_DELAYS_COLUMNS.stream(),
                ONE_WAY_FLOW_COLUMNS.stream()).distinct().toList());
        Map<String, List<String>> names = new LinkedHashMap<>();
        m.forEach((t, cols) -> names.put(t, cols.stream().map(Column::name).toList()));
        return names;
    }
}
