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

    public static String markdown() {
        StringBuilder sb = new StringBuilder(32_768);
        sb.append("# Output tables of `ackscope analyze`\n\n")
                .append("<!-- Generated from io.ackscope.tables table definitions by SchemaDocTest; do not edit by hand.\n")
                .append("     Regenerate with: ACKSCOPE_UPDATE_GOLDEN=1 mvn -B test -Dtest=SchemaDocTest -->\n\n")
                .append("`ackscope analyze INPUT... --out DIR` writes one Parquet directory per table under `DIR`, ")
                .append("`report.html`, and `DIR/_SUCCESS` last: a JSON summary of the run naming its tables ")
                .append("(`tables`, rows per table) and every file it wrote (`output_files`). An output is complete ")
                .append("when `_SUCCESS` parses and each table it names is there; read nothing less (the protocol: ")
                .append("README, ")
                .append("\"Analysing captures with Spark\").\n\n")
                .append("Conventions:\n\n")
                .append("- Timestamps are Parquet `TIMESTAMP(MICROS, UTC)` (Spark `timestamp`); where the capture ")
                .append("has nanoseconds, `packets.timestamp_ns` keeps them.\n")
                .append("- Durations are integer microseconds, rounded down, in columns ending in `_us`.\n")
                .append("- Byte counts are in columns ending in `_bytes`; frame and segment counts are plain counts.\n")
                .append("- A connection's client is its originator (the SYN sender), its server the responder.\n")
                .append("- `stream` is tshark's `tcp.stream`: connections numbered from 0 in order of first ")
                .append("appearance, over the input files in sorted path order.\n")
                .append("- Null means absent (a value that could not be measured), never zero.\n")
                .append("- `uid` names a connection in every engine table, and the same one in every run over the ")
                .append("same capture (from the source, the 4-tuple and the first frame's microsecond): join and ")
                .append("combine outputs on it; `stream` is only valid within one output.\n")
                .append("- Text taken from captures (HTTP fields, file names) is untrusted: escape it before display.\n\n")
                .append("Schema version: **").append(TableSchema.VERSION).append("**, recorded as `schema_version` in ")
                .append("`_SUCCESS` and as `").append(TableSchema.VERSION_KEY).append("` in the key-value metadata of ")
                .append("every Parquet file ackscope writes itself (not `packets`, which Spark writes). It is raised ")
                .append("when a column is added, renamed or removed; new columns come last in their table. Version 2 ")
                .append("added `uid` to every engine table and `server_ip`/`server_port` to their child tables; ")
                .append("version 3 the peer columns of `connections` and the tables of two vantage points ")
                .append("(`source_pairs`, `host_times`, `one_way_delays`); outputs without a version are version 1.\n\n")
                .append("`ackscope load --out FILE.parquet` writes per-request latencies: see ")
                .append("[load_requests.md](load_requests.md).\n\n");
        sb.append("Tables: ");
        List<TableSchema> all = tables();
        for (int i = 0; i < all.size(); i++) {
            sb.append(i > 0 ? ", " : "").append('[').append(all.get(i).name()).append("](#").append(all.get(i).name())
                    .append(')');
        }
        sb.append(".\n");
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
