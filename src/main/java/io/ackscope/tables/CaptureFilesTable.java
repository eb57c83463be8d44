package io.ackscope.tables;

import java.util.List;

import static io.ackscope.tables.ColumnType.BOOLEAN;
import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.INT_LIST;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.LONG_LIST;
import static io.ackscope.tables.ColumnType.STRING;
import static io.ackscope.tables.ColumnType.STRING_LIST;
import static io.ackscope.tables.ColumnType.STRING_LONG_MAP;
import static io.ackscope.tables.ColumnType.TIMESTAMP;

/** The {@code capture_files} table: one row per input capture, with where every one of its frames went. */
public final class CaptureFilesTable {
    private CaptureFilesTable() {
    }

    public static final TableSchema TABLE = new TableSchema("capture_files",
            "One row per input capture: what it is, what was read from it, and where every frame went. "
                    + "`frames = tcp_frames + skipped_frames` and `frames = frames_ok + frames_truncated + "
                    + "frames_malformed + frames_unsupported` hold for every row.",
            List.of(
                    new Column("file", STRING, false, "", "Capture file (Hadoop path URI)."),
                    new Column("file_index", INT, false, "",
                            "Position of the file in its source (0-based, in first timestamp then name order: the order "
                                    + "the engine reads them in); stable when files are added to the source."),
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
                    new Column("first_time", TIMESTAMP, true, "", "Earliest frame timestamp."),
                    new Column("last_time", TIMESTAMP, true, "", "Latest frame timestamp."),
                    new Column("duration_us", LONG, true, "µs", "last_time - first_time."),
                    new Column("frames_ok", LONG, false, "frames", "Frames decoded completely."),
                    new Column("frames_truncated", LONG, false, "frames", "Frames with a header cut by the snap length."),
                    new Column("frames_malformed", LONG, false, "frames", "Frames with a header violating its specification."),
                    new Column("frames_unsupported", LONG, false, "frames",
                            "Frames of a link type or protocol ackscope does not decode."),
                    new Column("tcp_frames", LONG, false, "frames", "Frames with a TCP header, handed to the TCP engine."),
                    new Column("skipped_frames", LONG, false, "frames", "Frames not handed to the engine."),
                    new Column("skipped_by_reason", STRING_LONG_MAP, false, "frames",
                            "Skipped frames by reason (UDP, ICMP, not IP, `TRUNCATED at IPV4: ...`, ...; "
                                    + "`filtered (--since)`, `filtered (--until)`, `filtered (--server)`, "
                                    + "`filtered (--filter)` for frames `analyze`'s filters dropped)."),
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

    // readers name the columns they read by these constants (see EngineTables)
    public static final Column FILE = TABLE.column("file");
    public static final Column FILE_INDEX = TABLE.column("file_index");
    public static final Column FILE_BYTES = TABLE.column("file_bytes");
    public static final Column FORMAT = TABLE.column("format");
    public static final Column READ_MODE = TABLE.column("read_mode");
    public static final Column LINK_TYPES = TABLE.column("link_types");
    public static final Column FRAMES = TABLE.column("frames");
    public static final Column FIRST_TIME = TABLE.column("first_time");
    public static final Column LAST_TIME = TABLE.column("last_time");
    public static final Column FRAMES_OK = TABLE.column("frames_ok");
    public static final Column FRAMES_TRUNCATED = TABLE.column("frames_truncated");
    public static final Column FRAMES_MALFORMED = TABLE.column("frames_malformed");
    public static final Column FRAMES_UNSUPPORTED = TABLE.column("frames_unsupported");
    public static final Column TCP_FRAMES = TABLE.column("tcp_frames");
    public static final Column SKIPPED_BY_REASON = TABLE.column("skipped_by_reason");
    public static final Column ERROR_OFFSET = TABLE.column("error_offset");
    public static final Column ERROR = TABLE.column("error");
    public static final Column TAIL_OFFSET = TABLE.column("tail_offset");
    public static final Column TAIL_PROBLEM = TABLE.column("tail_problem");
    public static final Column SEEK_FRAMES = TABLE.column("seek_frames");
    public static final Column SEEK_OFFSETS = TABLE.column("seek_offsets");
    public static final Column SOURCE = TABLE.column("source");
    public static final Column FIRST_SOURCE_FRAME = TABLE.column("first_source_frame");
    public static final Column DUPLICATE_RANGES = TABLE.column("duplicate_ranges");
    public static final Column WHOLE_REASON = TABLE.column("whole_reason");
}
