package io.ackscope.tables;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders {@code docs/schema.md} from the table definitions, so the documentation cannot drift from the code (a
 * golden test compares the file with this output).
 */
public final class SchemaDoc {
    private SchemaDoc() {
    }

    /** Every table {@code analyze} writes, in documentation order. */
    public static List<TableSchema> tables() {
        List<TableSchema> t = new ArrayList<>();
        t.add(SourcesTable.TABLE);
        t.add(CaptureFilesTable.TABLE);
        t.addAll(EngineTables.ALL);
        t.add(LatencySummaryTable.TABLE);
        t.add(FindingsTable.TABLE);
        t.addAll(VantageTables.ALL);
        t.add(PacketSchema.TABLE);
        return t;
    }

    /** What schema version 3 renamed, as {@code table.old → new} (for the doc, so analysts can port queries). */
    public static final List<String> V3_RENAMES = List.of(
            "`sources`, `capture_files`, `connections`: `first_timestamp` → `first_time`, `last_timestamp` → "
                    + "`last_time`",
            "`connections`: `syn_timestamp` → `syn_time`, `syn_ack_timestamp` → `syn_ack_time`, "
                    + "`handshake_ack_timestamp` → `handshake_ack_time`, `first_frame_number` → `first_frame`",
            "`rtt_samples`: `timestamp` → `closing_time`, `frame_number` → `closing_frame` (the packet that closed "
                    + "the measurement)",
            "`ack_delays`: `timestamp` → `ack_time`, `frame_number` → `ack_frame`",
            "`stalls`: `start_timestamp` → `held_time`",
            "`latency_events`: `start_timestamp` → `start_time`",
            "`exchanges`: `request_start` → `request_start_time`, `request_end` → `request_end_time`, "
                    + "`response_first` → `response_first_time`, `response_last` → `response_last_time`, "
                    + "`stall_us` → `stall_before_response_us`, `response_stall_us` → `stall_in_response_us`, "
                    + "and `stall_us` is now their sum (a new column, last in the table)",
            "`packets` and the `pcap` data source: `frame_number` → `frame`, `timestamp` → `frame_time`, "
                    + "`timestamp_ns` → `frame_time_ns` (Wireshark's `frame.number` and `frame.time`)");

    /** How the tables lie on disk, how readers read and prune them, and what version 4 changed. */
    static final String LAYOUT = """
            ## Layout

            A table is a directory of Parquet files. From schema version 4 on, the tables that grow with an archive \
            are partitioned Hive-style by capture source and UTC date, so that DuckDB, Spark and pyarrow read only \
            the directories a filter on `source` and `date` selects:

            ```text
            DIR/_SUCCESS                                         written last; lists every file of the dataset
            DIR/report.html
            DIR/connections/source=edge-1/date=2026-12-02/part-00000.snappy.parquet
            DIR/connections/source=edge-1/date=2026-12-02/open-00000.snappy.parquet
            DIR/latency_summary/source=edge-1/part-00000.snappy.parquet
            DIR/source_pairs/part-00000.snappy.parquet
            DIR/_ackscope_state/                                 what the next incremental run continues from
            ```

            - By source and date: `connections`, `rtt_samples`, `ack_delays`, `stalls`, `latency_events`, \
            `exchanges`, `packets` and `capture_files`. `date` is the UTC date of the connection's first frame \
            (`connections` and every table keyed by connection, so all rows of a connection are in one partition), \
            of the file's first record (`capture_files`), of the frame (`packets`).
            - By source only: `latency_summary`, `findings`, `sources`. Not partitioned: `source_pairs`, \
            `host_times`, `one_way_delays`.
            - The source name is escaped as Hive escapes a path value (Spark's `escapePathName`): `%` → `%25`, \
            `/` → `%2F`, `=` → `%3D`, `:` → `%3A`, and control characters, `"#'*?[\\]^{` likewise as `%XX`; \
            an empty name is `__HIVE_DEFAULT_PARTITION__` (null to Hive-aware readers). The source \
            `dc1/edge:1` is the directory `source=dc1%2Fedge%3A1`.
            - The `source` column stays in every file: a reader that knows nothing of partitions still has it, and \
            Hive-aware readers take the same value from the path (unescaped). `date` is only in the path: a `DATE` \
            column to Hive-aware readers.
            - Every source of the output has at least one file in each partitioned table (empty when it has no rows \
            there), so every table's schema can be read.
            - Every Parquet file below a table's directory holds rows of the table, whatever its name; entries whose \
            names start with `_` or `.` are not part of it (Spark's and Hive's rule; a run's \
            `_ackscope_staging_*` too). `open-*.parquet` files hold \
            provisional rows: connections still open at the end of their source's last analysed file, as a one-off \
            run would have ended them; the incremental run that adds the source's next file replaces them. A run             that adds files names its files with its id (`part-00000-1a2b3c4d.snappy.parquet`), so none replaces a             file that stays.
            - `DIR/_ackscope_state/` (hidden): `inputs.json` (each analysed file's path, size, modification time,             checksums of its ends and index in its source; each source's counts of files, frames and connections,             its gaps, and where its carried state is) and `held-<run>/`, one per run that last analysed a source:             the held engine state of its open connections (`boundaries/`, `engine/`, `values/`: about 2 KB per             connection), its final `latency_summary` and `findings` aggregates (`final/`), and its 4-tuples and             first handshakes (`tuples/`, `handshakes/`: 8 bytes each), by which a later run tells whether a new             connection was also seen from another capture point. Only ackscope reads it; deleting it makes the next             `--incremental` run read every file again.
            - Tables of schema version 3 and before are flat (`DIR/connections/*.parquet`): the same readers read \
            them, without `date`.

            Reading and pruning (all read flat tables too):

            - DuckDB: `read_parquet('DIR/exchanges/**/*.parquet', hive_partitioning = true, union_by_name = true)`; \
            `WHERE source = 'edge-1' AND date >= DATE '2026-12-01'` opens only those directories (`EXPLAIN` shows \
            the file filter). `union_by_name` joins files of different schema versions.
            - Spark: `spark.read.parquet("DIR/exchanges")` discovers the partitions (`date` a `DATE`; `source` is \
            typed from its values, so give it as a string in a schema when a source's name reads as a number, as \
            `ackscope sql` does); filters on them are the scan's `PartitionFilters`. `ackscope sql DIR...` and \
            `ackscope export` register every table so, one view over all the outputs given.
            - pandas through pyarrow: `ds.dataset("DIR/exchanges", format="parquet", partitioning=hive)` with \
            `hive = ds.partitioning(pa.schema([("source", pa.string()), ("date", pa.date32())]), flavor="hive")` \
            (inferred, `date` would be text), then `.to_table(filter=(ds.field("date") >= datetime.date(2026, 12, \
            1))).to_pandas()`.

            Version 4, from version 3: the partitioned layout above (`date` new, as a partition column only); \
            `file_index` (`capture_files`, `packets`, `connections.first_file_index`, `sources.gap_after_files`) \
            counts the files of its \
            source from 0 in time order, no longer the files of the run, so that it stays the same when files are \
            appended (join on `source` and `file_index`); `capture_files.first_source_frame` is the number of \
            frames of the source before the file; provisional rows in `open-*.parquet`; the state of incremental \
            runs in the hidden `DIR/_ackscope_state/`. No column was added, renamed or removed.
            """;

    public static String markdown() {
        StringBuilder sb = new StringBuilder(32_768);
        sb.append("# Output tables of `ackscope analyze`\n\n")
                .append("<!-- Generated from io.ackscope.tables table definitions by SchemaDocTest; do not edit by hand.\n")
                .append("     Regenerate with: ACKSCOPE_UPDATE_GOLDEN=1 mvn -B test -Dtest=SchemaDocTest -->\n\n")
                .append("`ackscope analyze INPUT... --out DIR` writes one Parquet directory per table under `DIR`, ")
                .append("`report.html`, and `DIR/_SUCCESS` last: a JSON summary of the run naming its tables ")
                .append("(`tables`, rows per table) and every file of the dataset (`output_files`). An output is ")
                .append("complete when `_SUCCESS` parses and each table it names is there; read nothing less (the ")
                .append("protocol: README, ")
                .append("\"Analysing captures with Spark\"). How the files are laid out: [Layout](#layout).\n\n")
                .append("Conventions:\n\n")
                .append("- One vocabulary, one name per meaning, the same in every table (and in `load --out`; ")
                .append("`VocabularyTest` checks it):\n")
                .append("  - `*_time`: an instant, Parquet `TIMESTAMP(MICROS, UTC)` (Spark `timestamp`); where the ")
                .append("capture has nanoseconds, `packets.frame_time_ns` keeps them.\n")
                .append("  - `*_us`: a duration, integer microseconds rounded down; one name per quantity: stall ")
                .append("time is `stall_us` in `connections`, `exchanges` and `stalls` (whose `duration_us` is ")
                .append("the same value, kept for earlier queries), time a cause cost is `time_lost_us` in ")
                .append("`findings` and `connection_causes`, a response time `complete_us` (`exchanges`).\n")
                .append("  - `*_frame`: a frame number, as tshark's `frame.number` (in the engine tables numbered ")
                .append("over the source's files as one capture; `packets.frame` within its file); `*_frames` a list ")
                .append("of them or a count of frames.\n")
                .append("  - `*_bytes`: a byte count; segment and event counts are plain counts.\n")
                .append("  - `*_side`: CLIENT or SERVER, and `*_ip` the address of that host where a row is about one ")
                .append("side (`acking_side`/`acking_ip`, `side`/`side_ip`).\n")
                .append("- A connection's client is its originator (the SYN sender), its server the responder.\n")
                .append("- `stream` is tshark's `tcp.stream`: connections numbered from 0 in order of first ")
                .append("appearance, over the input files in sorted path order.\n")
                .append("- Null means absent (a value that could not be measured), never zero.\n")
                .append("- `uid` names a connection in every engine table, and the same one in every run over the ")
                .append("same capture (from the source, the 4-tuple and the first frame's microsecond). The one ")
                .append("join rule of every doc: join tables on `uid` (`USING (uid)`), within an output and across ")
                .append("outputs; `stream` is only valid within one output (use it to find a connection in ")
                .append("Wireshark). `ackscope sql` over several outputs adds `output`, the directory a row was read ")
                .append("from.\n")
                .append("- Text taken from captures (HTTP fields, file names) is untrusted: escape it before display.\n\n")
                .append("Schema version: **").append(TableSchema.VERSION).append("**, recorded as `schema_version` in ")
                .append("`_SUCCESS` and as `").append(TableSchema.VERSION_KEY).append("` in the key-value metadata of ")
                .append("every Parquet file ackscope writes itself (not `packets`, which Spark writes). It is raised ")
                .append("when a column is added, renamed or removed; new columns come last in their table (a ")
                .append("renamed one keeps its place). Version 2 added `uid` to every engine table and ")
                .append("`server_ip`/`server_port` to their child tables; outputs without a version are version 1. ")
                .append("Version 3 gave the tables the vocabulary above, added the acting host's address to the side ")
                .append("tables (`rtt_samples.measured_from_ip`, `ack_delays.acking_ip`, `stalls.holding_ip` and ")
                .append("`delaying_ip`, `latency_events.side_ip`), split `connections.stall_us` by whose data waited ")
                .append("(`server_held_stall_us`, `client_held_stall_us`) and made `exchanges.stall_us` all the ")
                .append("exchange's stall time (it was the part before the response, 0 on most stalled requests), ")
                .append("and added the peer columns of `connections` and the tables of two vantage points ")
                .append("(`source_pairs`, `host_times`, `one_way_delays`). Version 5 added `connection_causes`, ")
                .append("`findings.response_us` and `explained_share`, `stalls.stall_us` and the response-time ")
                .append("percentiles of `latency_summary`. Version 6 added the per-side byte counts of Zeek's ")
                .append("`conn.log` to `connections` (`client_seq_bytes`, `server_seq_bytes`, `client_ip_bytes`, ")
                .append("`server_ip_bytes`, `client_missed_bytes`, `server_missed_bytes`). ")
                .append("Renamed, old → new, to port queries:\n\n");
        for (String r : V3_RENAMES) {
            sb.append("- ").append(r).append('\n');
        }
        sb.append('\n')
                .append("`ackscope load --out FILE.parquet` writes per-request latencies: see ")
                .append("[load_requests.md](load_requests.md).\n\n");
        sb.append("Tables: ");
        List<TableSchema> all = tables();
        for (int i = 0; i < all.size(); i++) {
            sb.append(i > 0 ? ", " : "").append('[').append(all.get(i).name()).append("](#").append(all.get(i).name())
                    .append(')');
        }
        sb.append(".\n\n").append(LAYOUT);
        for (TableSchema t : all) {
            sb.append("\n## ").append(t.name()).append("\n\n").append(t.doc()).append("\n\n");
            if (t == PacketSchema.TABLE) {
                sb.append("Written only with `--packets`; also the row schema of `spark.read.format(\"pcap\")`.\n\n");
            }
            sb.append("| column | type | unit | null | meaning |\n|---|---|---|---|---|\n");
            for (Column c : t.columns()) {
                sb.append("| `").append(c.name()).append("` | ").append(c.type().sql()).append(" | ")
                        .append(c.unit()).append(" | ").append(c.nullable() ? "yes" : "no").append(" | ")
                        .append(c.doc().replace("|", "\\|")).append(" |\n");
            }
        }
        return sb.toString();
    }
}
