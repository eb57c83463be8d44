package io.ackscope.spark.engine;

import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;

import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.FileFrames;
import io.ackscope.capture.FileGap;
import io.ackscope.capture.Overlaps;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the engine tasks need to read an archive's frames as its sources' captures, decided on the driver once the
 * read stage has counted every file: each file's source, how its frames are numbered in the source and which are
 * duplicates of an earlier file's ({@link FileFrames}), the gaps between files ({@link FileGap}), and, after pass 1,
 * where each source's connections start in the global ranking (stream numbers are per source).
 */
public final class ArchiveNumbering implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String[] sources;
    private final int[] sourceOfFile;
    private final FileFrames[] frames;
    private final List<List<FileGap>> gaps;
    /** Index of each source's first file (-1 for a source without files). */
    private final int[] firstFile;
    /** Per source, where this run continues it ({@link Start#NONE} for a source analysed whole). */
    private final Start[] starts;
    /** Per source, the rank of its first connection; set by {@link #ranked}. */
    private long[] sourceStart;
    /** All connections this run numbered; set by {@link #ranked}. */
    private long ranksLength;

    /**
     * Where a run that appends files to a source analysed before continues its numbering ({@code analyze
     * --incremental}): the source's files, frames and connections so far, the gaps found between them, and what the
     * gap rule needs to judge the step into the first new file ({@link FileGap#between}).
     *
     * @param files       files analysed before: the first new file's {@code file_index}
     * @param frameBase   source frames before the first new file (duplicates left out)
     * @param connections connections numbered before: the first new connection's {@code stream}
     * @param lastRecord  the last analysed file's last record time ({@link Long#MIN_VALUE}: none)
     * @param maxStep     the longest step between consecutive records in the analysed files
     * @param gaps        the gaps between the analysed files ({@link FileGap#afterFile()}: the file's index in its
     *                    source)
     */
    public record Start(int files, long frameBase, long connections, long lastRecord, long maxStep, List<FileGap> gaps)
            implements Serializable {
        static final Start NONE = new Start(0, 0, 0, Long.MIN_VALUE, 0, List.of());
    }

    private ArchiveNumbering(String[] sources, int[] sourceOfFile, FileFrames[] frames, List<List<FileGap>> gaps,
                             Start[] starts) {
        this.sources = sources;
        this.sourceOfFile = sourceOfFile;
        this.frames = frames;
        this.gaps = gaps;
        this.starts = starts;
        this.firstFile = new int[sources.length];
        Arrays.fill(firstFile, -1);
        for (int f = sourceOfFile.length - 1; f >= 0; f--) {
            firstFile[sourceOfFile[f]] = f;
        }
    }

    /** A file to compare with the earlier files of its source that overlap it ({@link Overlaps}). */
    public record OverlapTask(int file, String path, List<String> earlier) implements Serializable {
    }

    /**
     * The files of {@code plan} that overlap earlier files of their source, by the read stage's figures: file j
     * overlaps an earlier file i when i's latest timestamp is at or after j's first ({@link Overlaps#overlap}).
     *
     * <p>Linear in the files (plus the pairs found), not quadratic: within a source the files come in first-timestamp
     * order, so an earlier file whose latest timestamp is before file j's first cannot overlap j or any later file,
     * and leaves the set of files still open. A file whose first timestamp is below an earlier one's (a plan not made
     * from an {@link io.ackscope.capture.Archive} listing) is compared with every earlier file of its source, as
     * before. (The scan of every earlier file for every file took 0.6-1.7 s of the driver on 10,008 files.)
     */
    public static List<OverlapTask> overlapTasks(ReadPlan plan, List<SplitStats> perFile) {
        List<OverlapTask> out = new ArrayList<>();
        List<CaptureFile> files = plan.files();
        List<Integer> all = new ArrayList<>();    // earlier files of the source with a latest timestamp
        List<Integer> open = new ArrayList<>();   // those of them that may still overlap a later file
        long floor = Long.MIN_VALUE;              // the greatest first timestamp of the source so far
        for (int j = 0; j < files.size(); j++) {
            if (j == 0 || files.get(j - 1).source() != files.get(j).source()) {
                all.clear();
                open.clear();
                floor = Long.MIN_VALUE;
            }
            long first = plan.archive() != null ? plan.archive().files().get(j).firstNanos() : Long.MIN_VALUE;
            List<Integer> candidates = open;
            if (first != CaptureReader.NO_TIMESTAMP) {
                if (first >= floor) {
                    floor = first;
                    open.removeIf(i -> !Overlaps.overlap(perFile.get(i).lastNanos(), first));
                } else {
                    candidates = all;
                }
            }
            List<String> earlier = new ArrayList<>();
            for (int i : candidates) {
                if (Overlaps.overlap(perFile.get(i).lastNanos(), first)) {
                    earlier.add(files.get(i).path());
                }
            }
            if (!earlier.isEmpty()) {
                out.add(new OverlapTask(j, files.get(j).path(), earlier));
            }
            SplitStats s = perFile.get(j);
            if (s != null && s.lastNanos() != Long.MIN_VALUE) {
                all.add(j);
                open.add(j);
            }
        }
        return out;
    }

    /**
     * The numbering of {@code plan}'s files from the read stage's per-file figures and the duplicates found
     * ({@code duplicates[f]}, null for none).
     */
    public static ArchiveNumbering of(ReadPlan plan, List<SplitStats> perFile, long[][] duplicates) {
        return of(plan, perFile, duplicates, java.util.Map.of());
    }

    /**
     * The numbering of a run that continues the sources of {@code starts} (by name; the others start at nothing):
     * their new files, frames, connections and gaps are numbered on from where the earlier runs left them, as one
     * run over all their files would number them.
     */
    public static ArchiveNumbering of(ReadPlan plan, List<SplitStats> perFile, long[][] duplicates,
                               java.util.Map<String, Start> starts) {
        List<CaptureFile> files = plan.files();
        List<String> names = plan.sources();
        int[] sourceOf = new int[files.size()];
        FileFrames[] frames = new FileFrames[files.size()];
        List<List<FileGap>> gaps = new ArrayList<>();
        Start[] from = new Start[names.size()];
        for (int s = 0; s < names.size(); s++) {
            from[s] = starts.getOrDefault(names.get(s), Start.NONE);
            gaps.add(new ArrayList<>(from[s].gaps()));
        }
        long lastRecord = Long.MIN_VALUE;
        long maxStep = 0;
        int inSource = 0;
        for (int f = 0; f < files.size(); f++) {
            int source = files.get(f).source();
            sourceOf[f] = source;
            long[] dups = duplicates[f] != null ? duplicates[f] : new long[0];
            boolean first = f == 0 || files.get(f - 1).source() != source;
            long firstNanos = plan.archive() != null ? plan.archive().files().get(f).firstNanos() : Long.MIN_VALUE;
            FileGap g = null;
            if (first) {
                Start st = from[source];
                frames[f] = new FileFrames(st.frameBase(), dups);
                lastRecord = st.lastRecord();
                maxStep = st.maxStep();
                inSource = st.files();
                g = st.files() == 0 ? null : FileGap.between(inSource - 1, lastRecord, maxStep, firstNanos);
            } else {
                SplitStats before = perFile.get(f - 1);
                frames[f] = frames[f - 1].next(before != null ? before.lastFrame() : 0, dups);
                g = FileGap.between(inSource - 1, lastRecord, maxStep, firstNanos);
            }
            if (g != null) {
                gaps.get(source).add(g);
            }
            inSource++;
            SplitStats s = perFile.get(f);
            if (s != null) {
                if (s.lastRecordNanos() != Long.MIN_VALUE) {
                    lastRecord = s.lastRecordNanos();
                }
                maxStep = Math.max(maxStep, s.maxStepNanos());
            }
        }
        return new ArchiveNumbering(names.toArray(new String[0]), sourceOf, frames, gaps, from);
    }

    /**
     * Where a later run continues source {@code source} after this run ({@link Start}), given this run's per-file
     * figures and its connections' count in the source ({@link #connections}; after {@link #ranked}).
     */
    public Start next(int source, List<SplitStats> perFile) {
        Start st = starts[source];
        int files = st.files(), last = -1;
        long lastRecord = st.lastRecord(), maxStep = st.maxStep();
        for (int f = 0; f < sourceOfFile.length; f++) {
            if (sourceOfFile[f] != source) {
                continue;
            }
            files++;
            last = f;
            SplitStats s = perFile.get(f);
            if (s != null) {
                if (s.lastRecordNanos() != Long.MIN_VALUE) {
                    lastRecord = s.lastRecordNanos();
                }
                maxStep = Math.max(maxStep, s.maxStepNanos());
            }
        }
        if (last < 0) {
            return st;
        }
        SplitStats s = perFile.get(last);
        long base = frames[last].next(s != null ? s.lastFrame() : 0, new long[0]).base();
        return new Start(files, base, st.connections() + connections(source), lastRecord, maxStep,
                List.copyOf(gaps.get(source)));
    }

    /** The connections this run numbered in {@code source} (after {@link #ranked}). */
    long connections(int source) {
        long end = ranksLength;
        for (int s = source + 1; s < sources.length; s++) {
            if (firstFile[s] >= 0) {
                end = sourceStart[s];
                break;
            }
        }
        return firstFile[source] < 0 ? 0 : end - sourceStart[source];
    }

    public int source(int file) {
        return sourceOfFile[file];
    }

    /** Capture sources (two or more: the vantage tables are made, {@link VantagePlan}). */
    public int sources() {
        return sources.length;
    }

    public String sourceName(int source) {
        return sources[source];
    }

    /** The position of {@code file} in its source (0-based, time order): {@code file_index} in the tables. */
    public int fileInSource(int file) {
        int source = sourceOfFile[file];
        return starts[source].files() + file - firstFile[source];
    }

    FileFrames frames(int file) {
        return frames[file];
    }

    List<FileGap> gaps(int source) {
        return gaps.get(source);
    }

    /** Notes where each source's connections start in {@code ranks} (all connections' sorted first-frame keys). */
    public ArchiveNumbering ranked(long[] ranks) {
        ranksLength = ranks.length;
        sourceStart = new long[sources.length];
        for (int s = 0; s < sources.length; s++) {
            if (firstFile[s] >= 0) {
                int i = Arrays.binarySearch(ranks, EngineTask.key(firstFile[s], 0));
                sourceStart[s] = i >= 0 ? i : -i - 1;
            }
        }
        return this;
    }

    /** The stream number (within its source) of the connection ranked {@code rank} whose first file is {@code file}. */
    long stream(long rank, int file) {
        int source = sourceOfFile[file];
        return starts[source].connections() + rank - sourceStart[source];
    }
}
