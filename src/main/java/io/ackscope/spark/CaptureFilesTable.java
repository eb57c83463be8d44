package io.ackscope.spark;

import io.ackscope.capture.Archive;
import io.ackscope.capture.FileFrames;
import io.ackscope.decode.DecodeStatus;

import java.util.Arrays;
import java.util.List;

import static io.ackscope.spark.ColumnType.BOOLEAN;
import static io.ackscope.spark.ColumnType.INT;
import static io.ackscope.spark.ColumnType.INT_LIST;
import static io.ackscope.spark.ColumnType.LONG;
import static io.ackscope.spark.ColumnType.LONG_LIST;
import static io.ackscope.spark.ColumnType.STRING;
import static io.ackscope.spark.ColumnType.STRING_LIST;
import static io.ackscope.spark.ColumnType.STRING_LONG_MAP;
import static io.ackscope.spark.ColumnType.TIMESTAMP;

/** The {@code capture_files} table: one row per input capture, with where every one of its frames went. */
final class CaptureFilesTable {
    private CaptureFilesTable() {
    }

    static final TableSchema TABLE = new TableSchema("capture_files",
            "One row per input capture: what it is, what was read from it, and where every frame went. "
                    + "`frames = tcp_frames + skipped_frames` and `frames = frames_ok + frames_truncated + "
                    + "frames_malformed + frames_unsupported` hold for every row.",
            List.of(
                    new Column("file", STRING, false, "", "Capture file (Hadoop path URI)."),
                    new Column("file_index", INT, false, "",
                            "Position in (source, first timestamp, name) order: the order the engine reads files in."),
                    new Column("file_bytes", LONG, false, "bytes", "Size of the file as stored (compressed size for a "
                            + "compressed file)."),
                    new Column("format", STRING, true, "", "pcap or pcapng; null when the file could not be opened."),
                    new Column("read_mode", STRING, false, "",
                            "`split` (read by several tasks in parallel) or `whole` (one task)."),
                    new Column("whole_reason", STRING, true, "",
                            "Why a file was read whole (compressed, small, interfaces declared after the first "
                                    + "packet, ...); null for split files."),
                    new Column("splits", INT, false, "", "Number of splits the file was read in."),
                    new Column("link_types", INT_LIST, false, "", "LINKTYPE_ values seen, ascending."),
                    new Column("interfaces", INT, false, "", "Distinct capture interfaces seen (pcapng)."),
                    new Column("frames", LONG, false, "frames", "Records read."),
                    new Column("captured_bytes", LONG, false, "bytes", "Sum of captured lengths."),
                    new Column("original_bytes", LONG, false, "bytes", "Sum of lengths on the wire."),
                    new Column("first_timestamp", TIMESTAMP, true, "", "Earliest frame timestamp."),
                    new Column("last_timestamp", TIMESTAMP, true, "", "Latest frame timestamp."),
                    new Column("duration_us", LONG, true, "µs", "last_timestamp - first_timestamp."),
                    new Column("frames_ok", LONG, false, "frames", "Frames decoded completely."),
                    new Column("frames_truncated", LONG, false, "frames", "Frames with a header cut by the snap length."),
                    new Column("frames_malformed", LONG, false, "frames", "Frames with a header violating its specification."),
                    new Column("frames_unsupported", LONG, false, "frames",
                            "Frames of a link type or protocol ackscope does not decode."),
                    new Column("tcp_frames", LONG, false, "frames", "Frames with a TCP header, handed to the TCP engine."),
                    new Column("skipped_frames", LONG, false, "frames", "Frames not handed to the engine."),
                    new Column("skipped_by_reason", STRING_LONG_MAP, false, "frames",
                            "Skipped frames by reason (UDP, ICMP, not IP, `TRUNCATED at IPV4: ...`, ...)."),
                    new Column("error_offset", LONG, true, "bytes",
                            "Byte offset (in the decompressed file) of damage that stopped reading; null if none."),
                    new Column("error", STRING, true, "", "What the damage is; frames before it were analysed."),
                    new Column("tail_offset", LONG, true, "bytes",
                            "Offset of a truncated last record (the file ends inside it); null if none."),
                    new Column("tail_problem", STRING, true, "", "What was truncated at the end of the file."),
                    new Column("complete", BOOLEAN, false, "",
                            "Every split of the file was read to its end (or to the damage)."),
                    new Column("seek_frames", LONG_LIST, false, "frames",
                            "Frame numbers of the seek points: frames 1, 16385, 32769, ... (every 16,384th frame), "
                                    + "up to the last frame read (before any damage)."),
                    new Column("seek_offsets", LONG_LIST, false, "bytes",
                            "Byte offset of each seek frame's record (pcap record header or pcapng block) in the "
                                    + "file, in the decompressed stream for a compressed file: where a reader can "
                                    + "start with known frame numbers (the report's flow graphs do)."),
                    new Column("source", STRING, false, "", "Capture source the file belongs to (`sources`)."),
                    new Column("first_source_frame", LONG, false, "frames",
                            "Frames of the source before this file (its earlier files, duplicates counted once): the "
                                    + "file's frame k is frame `first_source_frame + k` of the source, less the "
                                    + "duplicates before it, in every other table."),
                    new Column("duplicate_frames", LONG, false, "frames",
                            "Of `frames`, those an earlier file of the source also holds (same timestamp and "
                                    + "captured bytes): analysed there, not here."),
                    new Column("duplicate_ranges", LONG_LIST, false, "frames",
                            "The duplicate frames as ranges of frame numbers of this file: first, last, first, last, "
                                    + "... (an overlap is usually one range)."),
                    new Column("capture_hardware", STRING, true, "", "pcapng shb_hardware (untrusted text)."),
                    new Column("capture_os", STRING, true, "", "pcapng shb_os (untrusted text)."),
                    new Column("capture_application", STRING, true, "", "pcapng shb_userappl (untrusted text)."),
                    new Column("interface_names", STRING_LIST, false, "",
                            "pcapng if_name (or if_description) of the interfaces declared before the first packet."),
                    new Column("comments", STRING_LIST, false, "", "The file's first pcapng comments.")));

    static final int FILE = 0, FILE_INDEX = 1, FILE_BYTES = 2, FORMAT = 3, READ_MODE = 4, WHOLE_REASON = 5,
            SPLITS = 6, LINK_TYPES = 7, INTERFACES = 8, FRAMES = 9, CAPTURED_BYTES = 10, ORIGINAL_BYTES = 11,
            FIRST_TS = 12, LAST_TS = 13, DURATION_US = 14, FRAMES_OK = 15, FRAMES_TRUNCATED = 16,
            FRAMES_MALFORMED = 17, FRAMES_UNSUPPORTED = 18, TCP_FRAMES = 19, SKIPPED = 20, SKIPPED_BY_REASON = 21,
            ERROR_OFFSET = 22, ERROR = 23, TAIL_OFFSET = 24, TAIL_PROBLEM = 25, COMPLETE = 26, SEEK_FRAMES = 27,
            SEEK_OFFSETS = 28, SOURCE = 29, FIRST_SOURCE_FRAME = 30, DUPLICATE_FRAMES = 31, DUPLICATE_RANGES = 32,
            HARDWARE = 33, OS = 34, APPLICATION = 35, INTERFACE_NAMES = 36, COMMENTS = 37;

    /**
     * Fills {@code row} for one file from its merged split statistics ({@code stats} null when no split of it
     * reported, for example when the job failed before reading it).
     */
    static RowBuffer fill(RowBuffer row, CaptureFile file, FilePlan plan, SplitStats stats,
                          ArchiveNumbering numbering, Archive.Member member) {
        row.clear();
        FileFrames frames = numbering.frames(file.index());
        row.setString(SOURCE, numbering.sourceName(file.source())).setLong(FIRST_SOURCE_FRAME, frames.base())
                .setLong(DUPLICATE_FRAMES, frames.duplicates().length)
                .setLongList(DUPLICATE_RANGES, frames.ranges());
        Archive.Metadata m = member != null ? member.metadata() : null;
        row.setString(HARDWARE, m != null ? m.hardware() : null).setString(OS, m != null ? m.os() : null)
                .setString(APPLICATION, m != null ? m.application() : null)
                .setStringList(INTERFACE_NAMES, m != null ? m.interfaces() : List.of())
                .setStringList(COMMENTS, m != null ? m.comments() : List.of());
        row.setString(FILE, file.path()).setInt(FILE_INDEX, file.index()).setLong(FILE_BYTES, file.length())
                .setString(READ_MODE, plan.splits() > 1 ? "split" : "whole")
                .setString(WHOLE_REASON, plan.splits() > 1 ? null : plan.wholeReason())
                .setInt(SPLITS, plan.splits());
        if (stats == null) {
            stats = new SplitStats(file.index(), 0);
            stats.frames().seal();
        }
        FrameAccounting f = stats.frames();
        row.setString(FORMAT, stats.format)
                .setIntList(LINK_TYPES, stats.linkTypes.stream().mapToInt(Integer::intValue).toArray())
                .setInt(INTERFACES, stats.interfaces.size())
                .setLong(FRAMES, f.frames()).setLong(CAPTURED_BYTES, stats.capturedBytes)
                .setLong(ORIGINAL_BYTES, stats.originalBytes)
                .setLong(FRAMES_OK, f.status(DecodeStatus.OK))
                .setLong(FRAMES_TRUNCATED, f.status(DecodeStatus.TRUNCATED))
                .setLong(FRAMES_MALFORMED, f.status(DecodeStatus.MALFORMED))
                .setLong(FRAMES_UNSUPPORTED, f.status(DecodeStatus.UNSUPPORTED))
                .setLong(TCP_FRAMES, f.tcpFrames()).setLong(SKIPPED, f.frames() - f.tcpFrames())
                .setStringLongMap(SKIPPED_BY_REASON, f.skipped())
                .setString(ERROR, stats.errorReason).setString(TAIL_PROBLEM, stats.tailReason)
                .setBoolean(COMPLETE, stats.complete);
        if (stats.firstNanos <= stats.lastNanos) {
            row.setTimestampNanos(FIRST_TS, stats.firstNanos).setTimestampNanos(LAST_TS, stats.lastNanos)
                    .setLong(DURATION_US, (stats.lastNanos - stats.firstNanos) / 1000);
        }
        if (stats.errorOffset != null) {
            row.setLong(ERROR_OFFSET, stats.errorOffset);
        }
        if (stats.tailOffset != null) {
            row.setLong(TAIL_OFFSET, stats.tailOffset);
        }
        // a split after damage may have read on (the table's other figures stop at the damage): its points go
        int n = 0;
        while (n < stats.seekPointCount && (stats.errorOffset == null || stats.seekOffsets[n] < stats.errorOffset)) {
            n++;
        }
        row.setLongList(SEEK_FRAMES, Arrays.copyOf(stats.seekFrames, n))
                .setLongList(SEEK_OFFSETS, Arrays.copyOf(stats.seekOffsets, n));
        return row;
    }
}
