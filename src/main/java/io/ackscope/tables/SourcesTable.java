package io.ackscope.tables;

import java.util.List;

import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.INT_LIST;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.LONG_LIST;
import static io.ackscope.tables.ColumnType.STRING;
import static io.ackscope.tables.ColumnType.STRING_LIST;
import static io.ackscope.tables.ColumnType.TIMESTAMP;

/** The {@code sources} table: one row per capture source, how its files make up one capture. */
public final class SourcesTable {
    private SourcesTable() {
    }

    public static final TableSchema TABLE = new TableSchema("sources",
            "One row per capture source (capture point; by default the directory its files are in): its files read "
                    + "in order as one capture, the gaps between them, the frames two files both held, and the "
                    + "files skipped as exact copies. `frames = sum(capture_files.frames - "
                    + "capture_files.duplicate_frames)` of its files.",
            List.of(new Column("source", STRING, false, "", "Source name (`source` in every other table)."),
                    new Column("files", INT, false, "", "Files read (`capture_files` rows of the source)."),
                    new Column("file_bytes", LONG, false, "bytes", "Their size as stored."),
                    new Column("frames", LONG, false, "frames", "Frames analysed: read, less duplicates."),
                    new Column("captured_bytes", LONG, false, "bytes", "Captured bytes of the frames read."),
                    new Column("first_time", TIMESTAMP, true, "", "Earliest frame of its files."),
                    new Column("last_time", TIMESTAMP, true, "", "Latest frame of its files."),
                    new Column("gaps", INT, false, "",
                            "Gaps between consecutive files: the step from one file's last frame to the next's "
                                    + "first is longer than any step between frames in the source's earlier files "
                                    + "(a missing rotated file). Connections across one have "
                                    + "`connections.crosses_file_gap`."),
                    new Column("gap_after_files", INT_LIST, false, "", "`file_index` (in this source) of the file before each gap."),
                    new Column("gap_us", LONG_LIST, false, "µs", "Length of each gap."),
                    new Column("overlapping_files", INT, false, "",
                            "Files holding frames of an earlier file of the source (their timestamps overlap)."),
                    new Column("duplicate_frames", LONG, false, "frames",
                            "Frames of later files an earlier file also held (same timestamp and captured bytes): "
                                    + "analysed once."),
                    new Column("copies_skipped", INT, false, "", "Files skipped as byte-for-byte copies of another "
                            + "file of the source."),
                    new Column("copies", STRING_LIST, false, "", "Each skipped copy, as `copy = original`.")));

    // readers name the columns they read by these constants (see EngineTables)
    public static final Column SOURCE = TABLE.column("source");
    public static final Column FILES = TABLE.column("files");
    public static final Column FRAMES = TABLE.column("frames");
    public static final Column GAPS = TABLE.column("gaps");
    public static final Column GAP_US = TABLE.column("gap_us");
    public static final Column DUPLICATE_FRAMES = TABLE.column("duplicate_frames");
    public static final Column COPIES_SKIPPED = TABLE.column("copies_skipped");
}
