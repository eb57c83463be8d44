package io.ackscope.report;

import io.ackscope.capture.FileFrames;
import io.ackscope.tcp.Segment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The packets of a few chosen connections, for their flow graphs, re-read from the capture files.
 *
 * <p>Why re-read rather than store: the tables stay what they are (no table of packets per connection that only
 * the report uses, and no {@code --packets} needed), the report can pick its connections after filtering, and the
 * flow graph shows the engine's own per-frame analysis (retransmissions, duplicate ACKs, which ACK was delayed,
 * which segment was held) because the engine runs again over those frames. The cost is one sweep over the
 * capture files in file order that reads only around the chosen connections: it enters a file at the seek point
 * ({@code capture_files.seek_frames}/{@code seek_offsets}) before a chosen connection's first frame, reads while a
 * started connection still has frames to come (the {@code connections} table says how many) that could change its
 * rows ({@link LadderCollector#settled}) or until the capture clock is past its end, and seeks ahead to the next one
 * when none has ({@link LadderSweep}, a cursor over the files; {@link LadderCollector} keeps each connection's
 * frames). Each connection's engine sees only the frames on its port pair from its first frame: its results for a
 * 4-tuple depend only on that 4-tuple's frames, as for analyze's per-partition engines. Compressed files, and
 * outputs without seek points, are read from their start. When the captures are not readable here (moved, or on a
 * cluster filesystem) or not again (a FIFO or standard input, which analyze read once: {@link #rereadable}), the
 * page says so and shows everything else.
 *
 * <p>A long connection is shown in part: its first {@link #HEAD} frames (the handshake), then the
 * {@link #BEFORE} frames before a focus frame (the held segment of its longest stall, or the first frame of its
 * slowest exchange) and {@link #AFTER} frames from it; the rows say how many frames were left out.
 */
final class LadderReader {
    static final int HEAD = 3, BEFORE = 8, AFTER = 18;
    static final int MAX_ROWS = HEAD + BEFORE + AFTER;
    /** Stop reading when the capture clock is this far past the end of every chosen connection. */
    static final long STOP_SLACK_MICROS = 120_000_000L;

    private LadderReader() {
    }

    /**
     * A connection to draw.
     *
     * @param focusFrame  frame number to centre on, or -1
     * @param focusMicros when {@code focusFrame} is -1: centre on the first frame at or after this time, or -1
     *                    to show the connection from its start
     */
    record Want(long stream, int firstFile, long firstFrame, int clientPort, int serverPort, long frames,
                long lastMicros, long focusFrame, long focusMicros) {

        /** True when {@code s} may belong to this connection's 4-tuple (its port pair, either way round). */
        boolean mayCarry(Segment s) {
            return (s.srcPort == clientPort && s.dstPort == serverPort)
                    || (s.srcPort == serverPort && s.dstPort == clientPort);
        }
    }

    static List<ReportData.Ladder> unavailable(List<Want> wants, String why) {
        List<ReportData.Ladder> l = new ArrayList<>();
        for (int i = 0; i < wants.size(); i++) {
            l.add(new ReportData.Ladder(null, why, wants.get(i).frames(), List.of()));
        }
        return l;
    }

    /**
     * Where a reader can start inside one capture file with known frame numbers: the {@code seek_frames} and
     * {@code seek_offsets} of {@code capture_files} (ascending frame numbers and the offsets of their records).
     */
    record SeekIndex(long[] frames, long[] offsets) {
        static final SeekIndex NONE = new SeekIndex(new long[0], new long[0]);

        /** The last seek point at or before {@code frame}, or -1 (read from the start). */
        int before(long frame) {
            int i = java.util.Arrays.binarySearch(frames, frame);
            return i >= 0 ? i : -i - 2;
        }
    }

    /**
     * Reads the ladders of {@code wants}. {@code files} are the capture files by index, as the tables name them;
     * {@code seeks} their seek indexes (missing or {@link SeekIndex#NONE}: read that file from its start).
     *
     * <p>Each connection gets an engine of its own that sees only the frames on its port pair from its first
     * frame on: a connection's analysis starts fresh at its first frame in a whole-file run too (the frame that
     * starts a connection always finds its 4-tuple with no current connection), so its frames come out the same.
     * The reading is one sweep in file order: it starts at the seek point before the first chosen connection's
     * first frame, reads while some started connection still has frames to come that could change its rows, and
     * when none has, seeks to the point before the next connection's first frame if that is ahead, instead of
     * reading on.
     */
    static List<ReportData.Ladder> read(List<String> files, List<SeekIndex> seeks, List<Want> wants) {
        return sweep(files, seeks, wants).ladders();
    }

    /**
     * As {@link #read(List, List, List)} over an archive's files: {@code frames} says how each file's frames are
     * numbered in its source (a want's frames are source frames) and which are duplicates of an earlier file's
     * (skipped, as analyze skipped them); {@code sources} names each file's source, and the started connections
     * end where their source does.
     */
    static List<ReportData.Ladder> read(List<String> files, List<SeekIndex> seeks, List<FileFrames> frames,
                                        List<String> sources, List<Want> wants) {
        return sweep(files, seeks, frames, sources, wants).ladders();
    }

    /** The ladders, and how many records the sweep read to draw them. */
    record Sweep(List<ReportData.Ladder> ladders, long recordsRead) {
    }

    /** As {@link #read}, counting the records read. */
    static Sweep sweep(List<String> files, List<SeekIndex> seeks, List<Want> wants) {
        return oneSource(files, seeks, wants, true);
    }

    /** As {@link #read(List, List, List, List, List)}, counting the records read ({@link LadderSweep}). */
    static Sweep sweep(List<String> files, List<SeekIndex> seeks, List<FileFrames> frames, List<String> sources,
                       List<Want> wants) {
        return new LadderSweep(files, seeks, frames, sources, wants, true).run();
    }

    /** As {@link #sweep(List, List, List)}, reading every connection to its last frame. */
    static Sweep sweepToTheEnd(List<String> files, List<SeekIndex> seeks, List<Want> wants) {
        return oneSource(files, seeks, wants, false);
    }

    /** The sweep of {@code files} as one unnamed source, each numbered from its own first frame. */
    private static Sweep oneSource(List<String> files, List<SeekIndex> seeks, List<Want> wants, boolean settleEarly) {
        return new LadderSweep(files, seeks, java.util.Collections.nCopies(files.size(), FileFrames.FIRST),
                java.util.Collections.nCopies(files.size(), ""), wants, settleEarly).run();
    }

    /**
     * Whether {@code p} can be read again: a regular file, not a FIFO, a device or standard input
     * ({@code /dev/stdin} and {@code /proc/self/fd/N} would name the report's own input, not the one analyzed).
     * Opening a FIFO again would wait for a writer that will not come.
     */
    static boolean rereadable(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        return Files.isRegularFile(abs) && !abs.startsWith("/dev") && !abs.startsWith("/proc");
    }

    /** A local path for a file as the tables name it ({@code file:/x} or a plain path); null for other schemes. */
    static Path localPath(String name) {
        if (name == null) {
            return null;
        }
        if (name.startsWith("file:")) {
            String rest = name.substring(5);
            while (rest.startsWith("//")) {
                rest = rest.substring(1);
            }
            return Path.of(rest);
        }
        if (name.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
            return null;
        }
        return Path.of(name);
    }
}
