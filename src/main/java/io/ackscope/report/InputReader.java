package io.ackscope.report;

import io.ackscope.capture.FileFrames;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.SourcesTable;
import io.ackscope.tables.TableReader;
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
                String[] name = b.strings(SourcesTable.SOURCE);
                TableReader.LongColumn files = b.longs(SourcesTable.FILES), frames = b.longs(SourcesTable.FRAMES),
                        gaps = b.longs(SourcesTable.GAPS), dups = b.longs(SourcesTable.DUPLICATE_FRAMES),
                        copies = b.longs(SourcesTable.COPIES_SKIPPED);
                long[][] gapUs = b.longLists(SourcesTable.GAP_US);
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
        String[] file = b.strings(CaptureFilesTable.FILE), format = b.strings(CaptureFilesTable.FORMAT),
                mode = b.strings(CaptureFilesTable.READ_MODE), error = b.strings(CaptureFilesTable.ERROR),
                tail = b.strings(CaptureFilesTable.TAIL_PROBLEM);
        TableReader.LongColumn index = b.longs(CaptureFilesTable.FILE_INDEX),
                fileBytes = b.longs(CaptureFilesTable.FILE_BYTES), fr = b.longs(CaptureFilesTable.FRAMES),
                ts0 = b.longs(CaptureFilesTable.FIRST_TIME), ts1 = b.longs(CaptureFilesTable.LAST_TIME),
                fOk = b.longs(CaptureFilesTable.FRAMES_OK), fTrunc = b.longs(CaptureFilesTable.FRAMES_TRUNCATED),
                fMal = b.longs(CaptureFilesTable.FRAMES_MALFORMED),
                fUns = b.longs(CaptureFilesTable.FRAMES_UNSUPPORTED), tcp = b.longs(CaptureFilesTable.TCP_FRAMES),
                errOff = b.longs(CaptureFilesTable.ERROR_OFFSET), tailOff = b.longs(CaptureFilesTable.TAIL_OFFSET);
        long[][] links = b.longLists(CaptureFilesTable.LINK_TYPES);
        List<Map<String, Long>> skip = b.maps(CaptureFilesTable.SKIPPED_BY_REASON);
        boolean seekable = b.has(CaptureFilesTable.SEEK_FRAMES) && b.has(CaptureFilesTable.SEEK_OFFSETS);
        long[][] seekFrames = seekable ? b.longLists(CaptureFilesTable.SEEK_FRAMES) : null;
        long[][] seekOffsets = seekable ? b.longLists(CaptureFilesTable.SEEK_OFFSETS) : null;
        String[] source = b.has(CaptureFilesTable.SOURCE) ? b.strings(CaptureFilesTable.SOURCE) : null;
        TableReader.LongColumn base = b.has(CaptureFilesTable.FIRST_SOURCE_FRAME)
                ? b.longs(CaptureFilesTable.FIRST_SOURCE_FRAME) : null;
        long[][] dupRanges = b.has(CaptureFilesTable.DUPLICATE_RANGES)
                ? b.longLists(CaptureFilesTable.DUPLICATE_RANGES) : null;
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
