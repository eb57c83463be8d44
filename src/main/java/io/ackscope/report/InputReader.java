package io.ackscope.report;

import io.ackscope.tables.TableFiles;
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

/**
 * Reads {@code capture_files}: what was analysed, and where every frame went.
 *
 * <p>The page and the flow graphs' sweep number the files of the whole output 0, 1, ... in (source, time) order:
 * the order of {@code file_index} up to schema version 3 (one index over the run), and of (source,
 * {@code file_index}) from version 4 on, where the index counts within its source so that appended files keep it.
 * Both are read the same way: rows are ranked by (source, file_index), sources in {@link String} order as
 * {@code capture.Archive} lists them, so a version-3 output keeps its own indexes. {@link #position} gives a
 * connection's {@code first_file_index} the same number.
 */
final class InputReader {
    /** A row's (source, file_index), by the order it was read in; ranked in {@link #number}. */
    private final List<String> rowSources = new ArrayList<>();
    private final List<Integer> rowIndexes = new ArrayList<>();
    /** "source NUL file_index" to the position in the whole output. */
    private final Map<String, Integer> positions = new HashMap<>();
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

    static InputReader read(TableFiles dir) throws IOException {
        InputReader r = new InputReader();
        TableReader.scan(dir, Tables.CAPTURE_FILES, Tables.CAPTURE_FILES_COLUMNS,
                java.util.stream.Stream.concat(Tables.CAPTURE_FILES_SEEK_COLUMNS.stream(),
                        Tables.CAPTURE_FILES_ARCHIVE_COLUMNS.stream()).toList(), r::add);
        r.number();
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
                            (int) copies.values[i], null, null));
                }
            });
            SourceNotes notes = SourceNotes.read(dir);
            r.sourceRows.replaceAll(s -> new ReportData.Source(s.name(), s.files(), s.frames(), s.gaps(),
                    s.gapMicros(), s.duplicateFrames(), s.copiesSkipped(), notes.verdict(s.name()),
                    notes.notFollowing(s.name())));
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
            int idx = rowIndexes.size();   // the order read; number() makes it the position
            rowIndexes.add((int) index.values[i]);
            rowSources.add(source != null && source[i] != null ? source[i] : "");
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

    /**
     * Ranks the rows read by (source, file_index) and renumbers everything read by that position (see the class
     * comment).
     */
    private void number() {
        Integer[] order = new Integer[rowIndexes.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparing((Integer i) -> rowSources.get(i))
                .thenComparingInt(rowIndexes::get));
        int[] position = new int[order.length];
        for (int p = 0; p < order.length; p++) {
            position[order[p]] = p;
            positions.put(key(rowSources.get(order[p]), rowIndexes.get(order[p])), p);
        }
        renumber(paths, position);
        renumber(sources, position);
        renumber(numbering, position);
        renumber(seeks, position);
        files.replaceAll(f -> new ReportData.CaptureFile(position[f.index()], f.file(), f.format(), f.readMode(),
                f.linkTypes(), f.bytes(), f.frames(), f.tcpFrames(), f.framesOk(), f.framesTruncated(),
                f.framesMalformed(), f.framesUnsupported(), f.firstMicros(), f.lastMicros(), f.errorOffset(),
                f.error(), f.tailOffset(), f.tailProblem()));
        maxIndex = order.length - 1;
    }

    private static <V> void renumber(Map<Integer, V> byRow, int[] position) {
        Map<Integer, V> m = new HashMap<>();
        byRow.forEach((row, v) -> m.put(position[row], v));
        byRow.clear();
        byRow.putAll(m);
    }

    private static String key(String source, int fileIndex) {
        return (source == null ? "" : source) + '\0' + fileIndex;
    }

    /**
     * The position in the whole output of the file a table row names by its source (null for outputs without
     * sources) and {@code file_index}; {@code fileIndex} itself when {@code capture_files} has no such file.
     */
    int position(String source, int fileIndex) {
        return positions.getOrDefault(key(source, fileIndex), fileIndex);
    }

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

    /** File paths (as the tables name them) by file index; null where unknown. */
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
