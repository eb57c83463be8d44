package io.ackscope.report;

import io.ackscope.capture.FileFrames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Reads {@code capture_files}: what was analysed, and where every frame went. */
final class InputReader {
    private final List<ReportData.CaptureFile> files = new ArrayList<>();
    private final Map<Integer, String> paths = new HashMap<>();
    private final Map<Integer, LadderReader.SeekIndex> seeks = new HashMap<>();
    private final Map<String, Long> skipped = new HashMap<>();
    private final Map<Integer, String> sources = new HashMap<>();
    private final Map<Integer, FileFrames> numbering = new HashMap<>();
    private final List<ReportData.Source> sourceRows = new ArrayList<>();
    private final TreeSet<String> formats = new TreeSet<>();
    private long bytes, frames, tcpFrames, ok, truncated, malformed, unsupported;
    private long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
    private int damaged, maxIndex = -1;

    private InputReader() {
    }

    static InputReader read(Path dir) throws IOException {
        InputReader r = new InputReader();
        TableReader.scan(dir, Tables.CAPTURE_FILES, Tables.CAPTURE_FILES_COLUMNS,
                java.util.stream.Stream.concat(Tables.CAPTURE_FILES_SEEK_COLUMNS.stream(),
                        Tables.CAPTURE_FILES_ARCHIVE_COLUMNS.stream()).toList(), r::add);
        if (TableReader.exists(dir, Tables.SOURCES)) {
            TableReader.scan(dir, Tables.SOURCES, Tables.SOURCES_COLUMNS, b -> {
                String[] name = b.strings("source");
                TableReader.LongColumn files = b.longs("files"), frames = b.longs("frames"), gaps = b.longs("gaps"),
                        dups = b.longs("duplicate_frames"), copies = b.longs("copies_skipped");
                long[][] gapUs = b.longLists("gap_us");
                for (int i = 0; i < b.rows; i++) {
                    r.sourceRows.add(new ReportData.Source(name[i], (int) files.values[i], frames.values[i],
                            (int) gaps.values[i], java.util.Arrays.stream(gapUs[i]).sum(), dups.values[i],
                            (int) copies.values[i]));
                }
            });
        }
        return r;
    }

    /** The seek indexes of the files by file index ({@link LadderReader.SeekIndex#NONE} where there is none). */
    List<LadderReader.SeekIndex> seekIndexes() {
        List<LadderReader.SeekIndex> l = new ArrayList<>();
        for (int i = 0; i <= maxIndex; i++) {
            l.add(seeks.getOrDefault(i, LadderReader.SeekIndex.NONE));
        }
        return l;
    }

    private void add(TableReader.Batch b) {
        String[] file = b.strings("file"), format = b.strings("format"), mode = b.strings("read_mode"),
                error = b.strings("error"), tail = b.strings("tail_problem");
        TableReader.LongColumn index = b.longs("file_index"), fileBytes = b.longs("file_bytes"),
                fr = b.longs("frames"), ts0 = b.longs("first_timestamp"), ts1 = b.longs("last_timestamp"),
                fOk = b.longs("frames_ok"), fTrunc = b.longs("frames_truncated"),
                fMal = b.longs("frames_malformed"), fUns = b.longs("frames_unsupported"),
                tcp = b.longs("tcp_frames"), errOff = b.longs("error_offset"), tailOff = b.longs("tail_offset");
        long[][] links = b.longLists("link_types");
        List<Map<String, Long>> skip = b.maps("skipped_by_reason");
        boolean seekable = b.has("seek_frames") && b.has("seek_offsets");
        long[][] seekFrames = seekable ? b.longLists("seek_frames") : null;
        long[][] seekOffsets = seekable ? b.longLists("seek_offsets") : null;
        String[] source = b.has("source") ? b.strings("source") : null;
        TableReader.LongColumn base = b.has("first_source_frame") ? b.longs("first_source_frame") : null;
        long[][] dupRanges = b.has("duplicate_ranges") ? b.longLists("duplicate_ranges") : null;
        for (int i = 0; i < b.rows; i++) {
            int idx = (int) index.values[i];
            paths.put(idx, file[i]);
            if (source != null) {
                sources.put(idx, source[i]);
            }
            if (base != null && dupRanges != null) {
                FileFrames f = FileFrames.ofRanges(base.values[i], dupRanges[i]);
                if (f != null) {
                    numbering.put(idx, f);
                }
            }
            if (seekFrames != null && seekFrames[i].length == seekOffsets[i].length) {
                seeks.put(idx, new LadderReader.SeekIndex(seekFrames[i], seekOffsets[i]));
            }
            maxIndex = Math.max(maxIndex, idx);
            bytes += fileBytes.values[i];
            frames += fr.values[i];
            tcpFrames += tcp.values[i];
            ok += fOk.values[i];
            truncated += fTrunc.values[i];
            malformed += fMal.values[i];
            unsupported += fUns.values[i];
            if (format[i] != null) {
                formats.add(format[i]);
            }
            if (ts0.present[i]) {
                first = Math.min(first, ts0.values[i]);
            }
            if (ts1.present[i]) {
                last = Math.max(last, ts1.values[i]);
            }
            if (errOff.present[i] || format[i] == null) {
                damaged++;
            }
            skip.get(i).forEach((k, v) -> skipped.merge(k, v, Long::sum));
            List<Long> lt = new ArrayList<>();
            for (long l : links[i]) {
                lt.add(l);
            }
            files.add(new ReportData.CaptureFile(idx, file[i], format[i], mode[i], lt, fileBytes.values[i],
                    fr.values[i], tcp.values[i], fOk.values[i], fTrunc.values[i], fMal.values[i], fUns.values[i],
                    ts0.present[i] ? ts0.values[i] : null, ts1.present[i] ? ts1.values[i] : null,
                    errOff.present[i] ? errOff.values[i] : null, error[i],
                    tailOff.present[i] ? tailOff.values[i] : null, tail[i]));
        }
    }

    /** File paths (as the tables name them) by file index; null where unknown. */
    /** Each file's source by file index ("" for outputs without sources). */
    List<String> fileSources() {
        List<String> l = new ArrayList<>();
        for (int i = 0; i <= maxIndex; i++) {
            l.add(sources.getOrDefault(i, ""));
        }
        return l;
    }

    /** How each file's frames are numbered in its source ({@link FileFrames#FIRST} where the table does not say). */
    List<FileFrames> fileFrames() {
        List<FileFrames> l = new ArrayList<>();
        for (int i = 0; i <= maxIndex; i++) {
            l.add(numbering.getOrDefault(i, FileFrames.FIRST));
        }
        return l;
    }

    List<String> paths() {
        List<String> l = new ArrayList<>();
        for (int i = 0; i <= maxIndex; i++) {
            l.add(paths.get(i));
        }
        return l;
    }

    ReportData.Input summary(long connections, long selected, long requests, int maxFiles, int maxReasons) {
        // Damaged files first (they matter most), then in file order; at most maxFiles.
        List<ReportData.CaptureFile> sorted = new ArrayList<>(files);
        sorted.sort(Comparator.comparing((ReportData.CaptureFile f) -> f.errorOffset() == null
                && f.format() != null && f.tailProblem() == null).thenComparingInt(ReportData.CaptureFile::index));
        List<ReportData.CaptureFile> listed = new ArrayList<>(sorted.subList(0, Math.min(maxFiles, sorted.size())));
        listed.sort(Comparator.comparingInt(ReportData.CaptureFile::index));

        List<Map.Entry<String, Long>> reasons = new ArrayList<>(skipped.entrySet());
        reasons.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        Map<String, Long> top = new LinkedHashMap<>();
        long other = 0;
        for (int i = 0; i < reasons.size(); i++) {
            if (i < maxReasons) {
                top.put(reasons.get(i).getKey(), reasons.get(i).getValue());
            } else {
                other += reasons.get(i).getValue();
            }
        }
        if (other > 0) {
            top.put("(" + (reasons.size() - maxReasons) + " other reasons)", other);
        }
        return new ReportData.Input(files.size(), bytes, frames, tcpFrames, ok, truncated, malformed, unsupported,
                top, List.copyOf(formats), first <= last ? first : null, first <= last ? last : null, damaged,
                listed, files.size() - listed.size(), connections, selected, requests, List.copyOf(sourceRows));
    }
}
