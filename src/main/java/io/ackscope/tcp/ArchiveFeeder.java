package io.ackscope.tcp;

import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureProblem;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.FileFrames;
import io.ackscope.capture.FileGap;
import io.ackscope.capture.Overlaps;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Reads a listed {@link Archive} in one JVM exactly as {@code analyze} does, the reference it is tested against:
 * each source as one capture (its files in order, frames numbered across them, duplicates of earlier files left
 * out, {@link Overlaps}), one {@link TcpEngine} per source, so connections, stream numbers and everything else stay
 * within their source, and the gaps between files recorded ({@link FileGap}).
 */
public final class ArchiveFeeder {
    /**
     * What reading one file gave.
     *
     * @param frames     how its frames were numbered and which were duplicates
     * @param records    records read
     * @param minNanos   earliest timestamp ({@link Long#MAX_VALUE} without one)
     * @param maxNanos   latest timestamp ({@link Long#MIN_VALUE} without one)
     * @param damage     damage that ended the read, or null
     * @param tail       a problem that ended the read without being damage (a file cut inside its last record), or
     *                   null
     */
    public record FileRead(Archive.Member file, FileFrames frames, long records, long tcpSegments, long minNanos,
                           long maxNanos, CaptureException damage, CaptureProblem tail) {
    }

    private final Archive archive;
    private final ArchiveStore store;
    private final List<FileRead> files = new ArrayList<>();
    private final List<List<FileGap>> gaps = new ArrayList<>();
    private long frames;
    private long tcpSegments;
    private long connections;
    private long attemptsEvicted;

    public ArchiveFeeder(Archive archive, ArchiveStore store) {
        this.archive = archive;
        this.store = store;
        for (int s = 0; s < archive.sources().size(); s++) {
            gaps.add(new ArrayList<>());
        }
    }

    /**
     * Reads every file; {@code sinks} gives each source's sink (asked once per source, in source order, before
     * its first file is read).
     */
    public void run(IntFunction<AnalysisSink> sinks) throws IOException {
        List<Archive.Member> all = archive.files();
        int i = 0;
        while (i < all.size()) {
            int source = all.get(i).source();
            TcpEngine engine = new TcpEngine(sinks.apply(source)).roles(roleEvidence(all, i, source));
            List<FileRead> earlier = new ArrayList<>();
            FileFrames numbering = null;
            long lastFrame = 0;
            long lastRecord = Long.MIN_VALUE;
            long maxStep = 0;
            for (; i < all.size() && all.get(i).source() == source; i++) {
                Archive.Member m = all.get(i);
                long[] dups = duplicates(earlier, m);
                numbering = numbering == null ? new FileFrames(0, dups) : numbering.next(lastFrame, dups);
                if (!earlier.isEmpty()) {
                    FileGap g = FileGap.between(earlier.get(earlier.size() - 1).file().index(), lastRecord, maxStep,
                            m.firstNanos());
                    if (g != null) {
                        gaps.get(source).add(g);
                    }
                }
                CaptureFeeder feeder = new CaptureFeeder();
                feeder.startFile();
                CaptureException damage = null;
                CaptureProblem tail = null;
                try (CaptureReader r = store.openCapture(m.path())) {
                    try {
                        feeder.feed(r, m.index(), numbering, engine);
                    } finally {
                        tail = r.tailProblem();
                    }
                } catch (CaptureException e) {
                    damage = e;
                }
                FileRead read = new FileRead(m, numbering, feeder.frames(), feeder.tcpSegments(),
                        feeder.minTimestampNanos(), feeder.maxTimestampNanos(), damage, tail);
                files.add(read);
                earlier.add(read);
                frames += feeder.frames();
                tcpSegments += feeder.tcpSegments();
                lastFrame = feeder.lastFrame();
                if (feeder.lastRecordNanos() != Long.MIN_VALUE) {
                    lastRecord = feeder.lastRecordNanos();
                }
                maxStep = Math.max(maxStep, feeder.maxStepNanos());
            }
            engine.finish();
            connections += engine.connections();
            attemptsEvicted += engine.attemptsEvicted();
        }
    }

    /** The frames of {@code later} that the earlier files of its source overlapping it hold. */
    /**
     * The first pass over one source's files (from {@code from}): what they show of who serves
     * ({@link RoleEvidence}), so that connections already open when the capture started get their roles from the
     * whole source. Duplicates of earlier files count once at most, which the sets make harmless; a damaged file
     * gives what it had before the damage (the real pass reports it).
     */
    private RoleEvidence roleEvidence(List<Archive.Member> all, int from, int source) throws IOException {
        RoleEvidence ev = new RoleEvidence();
        for (int j = from; j < all.size() && all.get(j).source() == source; j++) {
            Archive.Member m = all.get(j);
            try (CaptureReader r = store.openCapture(m.path())) {
                new CaptureFeeder().feed(r, m.index(), FileFrames.FIRST, ev::observe);
            } catch (CaptureException e) {
                // the frames before the damage were noted
            }
        }
        return ev;
    }

    private long[] duplicates(List<FileRead> earlier, Archive.Member later) throws IOException {
        List<String> overlapping = new ArrayList<>();
        for (FileRead e : earlier) {
            if (Overlaps.overlap(e.maxNanos(), later.firstNanos())) {
                overlapping.add(e.file().path());
            }
        }
        if (overlapping.isEmpty()) {
            return new long[0];
        }
        return Overlaps.duplicates(overlapping, later.path(), store::openCapture);
    }

    /** The files read, in order. */
    public List<FileRead> files() {
        return files;
    }

    /** The gaps found so far in a source's files (complete once its last file is read). */
    public List<FileGap> gaps(int source) {
        return gaps.get(source);
    }

    public Archive archive() {
        return archive;
    }

    /** Records read, duplicates included. */
    public long frames() {
        return frames;
    }

    /** TCP segments fed to the engines. */
    public long tcpSegments() {
        return tcpSegments;
    }

    /** Unanswered connection attempts the engines emitted before the end of their source (see EngineConfig). */
    public long attemptsEvicted() {
        return attemptsEvicted;
    }

    /** Connections of all sources. */
    public long connections() {
        return connections;
    }
}
