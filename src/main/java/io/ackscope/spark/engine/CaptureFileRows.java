package io.ackscope.spark.engine;

import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.FilePlan;
import io.ackscope.spark.source.FrameAccounting;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;

import io.ackscope.capture.Archive;
import io.ackscope.capture.FileFrames;
import io.ackscope.decode.DecodeStatus;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.HivePath;
import io.ackscope.tables.RowBuffer;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How a capture file's plan, split statistics and numbering become its row of {@link CaptureFilesTable}. */
public final class CaptureFileRows {
    private CaptureFileRows() {
    }

    /** Ordinals of {@link CaptureFilesTable#TABLE}'s columns. */
    private static final int FILE = 0, FILE_INDEX = 1, FILE_BYTES = 2, FORMAT = 3, READ_MODE = 4, WHOLE_REASON = 5,
            SPLITS = 6, LINK_TYPES = 7, INTERFACES = 8, FRAMES = 9, CAPTURED_BYTES = 10, ORIGINAL_BYTES = 11,
            FIRST_TS = 12, LAST_TS = 13, DURATION_US = 14, FRAMES_OK = 15, FRAMES_TRUNCATED = 16,
            FRAMES_MALFORMED = 17, FRAMES_UNSUPPORTED = 18, TCP_FRAMES = 19, SKIPPED = 20, SKIPPED_BY_REASON = 21,
            ERROR_OFFSET = 22, ERROR = 23, TAIL_OFFSET = 24, TAIL_PROBLEM = 25, COMPLETE = 26, SEEK_FRAMES = 27,
            SEEK_OFFSETS = 28, SOURCE = 29, FIRST_SOURCE_FRAME = 30, DUPLICATE_FRAMES = 31, DUPLICATE_RANGES = 32,
            HARDWARE = 33, OS = 34, APPLICATION = 35, INTERFACE_NAMES = 36, COMMENTS = 37;

    /**
     * The partition directory of a file's {@code capture_files} row: its source, and the UTC date of its first
     * record (from the listing; from the read's figures for a plan without one).
     */
    public static String dir(ReadPlan plan, CaptureFile file, List<SplitStats> perFile) {
        long first = Long.MIN_VALUE;
        if (plan.archive() != null) {
            first = plan.archive().files().get(file.index()).firstNanos();
        } else {
            SplitStats s = perFile.get(file.index());
            if (s != null && s.firstNanos() <= s.lastNanos()) {
                first = s.firstNanos();
            }
        }
        return HivePath.sourceDateDir(file.sourceName(), first);
    }

    /**
     * Each source's directory for a table partitioned by source and date where it has no rows: its first file's
     * ({@link #dir}), in source order.
     */
    public static Map<String, String> sourceDirs(ReadPlan plan, List<SplitStats> perFile) {
        Map<String, String> out = new LinkedHashMap<>();
        for (CaptureFile f : plan.files()) {
            out.putIfAbsent(f.sourceName(), dir(plan, f, perFile));
        }
        return out;
    }

    /**
     * Fills {@code row} for one file from its merged split statistics ({@code stats} null when no split of it
     * reported, for example when the job failed before reading it).
     */
    public static RowBuffer fill(RowBuffer row, CaptureFile file, FilePlan plan, SplitStats stats,
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
        row.setString(FILE, file.path()).setInt(FILE_INDEX, numbering.fileInSource(file.index())).setLong(FILE_BYTES, file.length())
                .setString(READ_MODE, plan.splits() > 1 ? "split" : "whole")
                .setString(WHOLE_REASON, plan.splits() > 1 ? null : plan.wholeReason())
                .setInt(SPLITS, plan.splits());
        if (stats == null) {
            stats = new SplitStats(file.index(), 0);
            stats.frames().seal();
        }
        FrameAccounting f = stats.frames();
        row.setString(FORMAT, stats.format())
                .setIntList(LINK_TYPES, stats.linkTypes().stream().mapToInt(Integer::intValue).toArray())
                .setInt(INTERFACES, stats.interfaces().size())
                .setLong(FRAMES, f.frames()).setLong(CAPTURED_BYTES, stats.capturedBytes())
                .setLong(ORIGINAL_BYTES, stats.originalBytes())
                .setLong(FRAMES_OK, f.status(DecodeStatus.OK))
                .setLong(FRAMES_TRUNCATED, f.status(DecodeStatus.TRUNCATED))
                .setLong(FRAMES_MALFORMED, f.status(DecodeStatus.MALFORMED))
                .setLong(FRAMES_UNSUPPORTED, f.status(DecodeStatus.UNSUPPORTED))
                .setLong(TCP_FRAMES, f.tcpFrames()).setLong(SKIPPED, f.frames() - f.tcpFrames())
                .setStringLongMap(SKIPPED_BY_REASON, f.skipped())
                .setString(ERROR, stats.errorReason()).setString(TAIL_PROBLEM, stats.tailReason())
                .setBoolean(COMPLETE, stats.complete());
        if (stats.firstNanos() <= stats.lastNanos()) {
            row.setTimestampNanos(FIRST_TS, stats.firstNanos()).setTimestampNanos(LAST_TS, stats.lastNanos())
                    .setLong(DURATION_US, (stats.lastNanos() - stats.firstNanos()) / 1000);
        }
        if (stats.errorOffset() != null) {
            row.setLong(ERROR_OFFSET, stats.errorOffset());
        }
        if (stats.tailOffset() != null) {
            row.setLong(TAIL_OFFSET, stats.tailOffset());
        }
        // a split after damage may have read on (the table's other figures stop at the damage): its points go
        int n = 0;
        while (n < stats.seekPointCount()
                && (stats.errorOffset() == null || stats.seekOffsets()[n] < stats.errorOffset())) {
            n++;
        }
        row.setLongList(SEEK_FRAMES, Arrays.copyOf(stats.seekFrames(), n))
                .setLongList(SEEK_OFFSETS, Arrays.copyOf(stats.seekOffsets(), n));
        return row;
    }
}
