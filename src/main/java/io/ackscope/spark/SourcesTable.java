package io.ackscope.spark;

import io.ackscope.capture.Archive;
import io.ackscope.capture.FileGap;

import java.util.ArrayList;
import java.util.List;

import static io.ackscope.spark.ColumnType.INT;
import static io.ackscope.spark.ColumnType.INT_LIST;
import static io.ackscope.spark.ColumnType.LONG;
import static io.ackscope.spark.ColumnType.LONG_LIST;
import static io.ackscope.spark.ColumnType.STRING;
import static io.ackscope.spark.ColumnType.STRING_LIST;
import static io.ackscope.spark.ColumnType.TIMESTAMP;

/** The {@code sources} table: one row per capture source, how its files make up one capture. */
final class SourcesTable {
    private SourcesTable() {
    }

    static final TableSchema TABLE = new TableSchema("sources",
            "One row per capture source (capture point; by default the directory its files are in): its files read "
                    + "in order as one capture, the gaps between them, the frames two files both held, and the "
                    + "files skipped as exact copies. `frames = sum(capture_files.frames - "
                    + "capture_files.duplicate_frames)` of its files.",
            List.of(new Column("source", STRING, false, "", "Source name (`source` in every other table)."),
                    new Column("files", INT, false, "", "Files read (`capture_files` rows of the source)."),
                    new Column("file_bytes", LONG, false, "bytes", "Their size as stored."),
                    new Column("frames", LONG, false, "frames", "Frames analysed: read, less duplicates."),
                    new Column("captured_bytes", LONG, false, "bytes", "Captured bytes of the frames read."),
                    new Column("first_timestamp", TIMESTAMP, true, "", "Earliest frame of its files."),
                    new Column("last_timestamp", TIMESTAMP, true, "", "Latest frame of its files."),
                    new Column("gaps", INT, false, "",
                            "Gaps between consecutive files: the step from one file's last frame to the next's "
                                    + "first is longer than any step between frames in the source's earlier files "
                                    + "(a missing rotated file). Connections across one have "
                                    + "`connections.crosses_file_gap`."),
                    new Column("gap_after_files", INT_LIST, false, "", "`file_index` of the file before each gap."),
                    new Column("gap_us", LONG_LIST, false, "µs", "Length of each gap."),
                    new Column("overlapping_files", INT, false, "",
                            "Files holding frames of an earlier file of the source (their timestamps overlap)."),
                    new Column("duplicate_frames", LONG, false, "frames",
                            "Frames of later files an earlier file also held (same timestamp and captured bytes): "
                                    + "analysed once."),
                    new Column("copies_skipped", INT, false, "", "Files skipped as byte-for-byte copies of another "
                            + "file of the source."),
                    new Column("copies", STRING_LIST, false, "", "Each skipped copy, as `copy = original`.")));

    /** The rows, in source order. */
    static List<RowBuffer> rows(ReadPlan plan, List<SplitStats> perFile, ArchiveNumbering numbering) {
        List<String> names = plan.sources();
        List<RowBuffer> out = new ArrayList<>();
        for (int s = 0; s < names.size(); s++) {
            int files = 0, overlapping = 0;
            long fileBytes = 0, frames = 0, captured = 0, duplicates = 0;
            long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
            for (CaptureFile f : plan.files()) {
                if (f.source() != s) {
                    continue;
                }
                files++;
                fileBytes += f.length();
                long dups = numbering.frames(f.index()).duplicates().length;
                duplicates += dups;
                overlapping += dups > 0 ? 1 : 0;
                SplitStats st = perFile.get(f.index());
                if (st != null) {
                    frames += st.frames().frames() - dups;
                    captured += st.capturedBytes;
                    first = Math.min(first, st.firstNanos);
                    last = Math.max(last, st.lastNanos);
                }
            }
            List<FileGap> gaps = numbering.gaps(s);
            List<String> copies = new ArrayList<>();
            if (plan.archive() != null) {
                for (Archive.Copy c : plan.archive().copies()) {
                    if (c.source() == s) {
                        copies.add(c.path() + " = " + c.of());
                    }
                }
            }
            RowBuffer r = new RowBuffer(TABLE).clear();
            r.setString(0, names.get(s)).setInt(1, files).setLong(2, fileBytes).setLong(3, frames)
                    .setLong(4, captured);
            if (first <= last) {
                r.setTimestampNanos(5, first).setTimestampNanos(6, last);
            }
            r.setInt(7, gaps.size()).setIntList(8, gaps.stream().mapToInt(FileGap::afterFile).toArray())
                    .setLongList(9, gaps.stream().mapToLong(g -> g.nanos() / 1000).toArray())
                    .setInt(10, overlapping).setLong(11, duplicates).setInt(12, copies.size())
                    .setStringList(13, copies);
            out.add(r);
        }
        return out;
    }
}
