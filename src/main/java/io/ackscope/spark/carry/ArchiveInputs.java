package io.ackscope.spark.carry;

import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.source.CapturePlanner;
import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;

import io.ackscope.capture.Archive;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a run of {@code analyze} reads, decided on the driver before the read: the archive listing, each file's
 * {@link InputsState.Fingerprint}, and for {@code --incremental} the files held back by the {@link Settle} rule and
 * whether anything is new against the earlier output's {@code inputs.json}.
 *
 * <p>An incremental run with something new <b>appends</b> ({@link Append}) when the earlier files are all there
 * unchanged and every new file comes after its source's analysed ones: only the new files are read, and the open
 * connections the earlier runs held go on from their state. Otherwise ({@link #whole}, the reason said) it analyses
 * every file again and replaces every row: a changed file, a new file that sorts before or overlaps
 * analysed ones, other options, no carried state (an output of a run without {@code --incremental}), or an archive
 * of two or more capture points whose connections are paired ({@link io.ackscope.spark.engine.VantagePlan}: pairs are made over all files; a
 * run that appends checks after its first pass that none of its new connections was seen by another source,
 * {@link SourceTuples}, and otherwise reads every file again).
 *
 * <p>An incremental run never removes rows because inputs vanished: files the state lists that are no longer
 * listed ({@link #vanished}) keep their rows and their state, and the run says so; where every listed file is gone
 * (an empty or unmounted input directory) the run is refused, and where anything else would make it read every file
 * again (dropping the vanished files' rows) it is refused too: {@code --overwrite} analyses only what is listed.
 */
public final class ArchiveInputs {
    /** The files to read (held-back files left out). */
    public final Archive archive;
    public final List<String> heldBack;
    final Map<String, InputsState.Fingerprint> fingerprints;
    /** Whether the taken files are exactly those of the earlier output (an incremental run then does nothing). */
    public final boolean nothingNew;
    /** What the earlier output's state says (NONE without one). */
    final InputsState.State before;
    /** The files to add to the earlier output, null when every taken file is analysed ({@link #whole}). */
    public final Append append;
    /** Why an incremental run with something new analyses every file again; null otherwise. */
    public final String whole;
    /** Files the earlier output's state lists that are no longer listed (incremental runs; their rows are kept). */
    public final List<String> vanished;

    /**
     * A run that adds files to the earlier output.
     *
     * @param archive the new files alone (sources numbered again, names kept)
     * @param sources the earlier state of each source of {@code archive} that had files before, by name
     */
    record Append(Archive archive, Map<String, InputsState.Source> sources) {
        /** Where each continued source's numbering goes on. */
        Map<String, ArchiveNumbering.Start> starts() {
            Map<String, ArchiveNumbering.Start> out = new java.util.HashMap<>();
            sources.forEach((name, s) -> out.put(name, s.start()));
            return out;
        }
    }

    private ArchiveInputs(Archive archive, List<String> heldBack, Map<String, InputsState.Fingerprint> fingerprints,
                          boolean nothingNew, InputsState.State before, Append append, String whole,
                          List<String> vanished) {
        this.archive = archive;
        this.heldBack = heldBack;
        this.fingerprints = fingerprints;
        this.nothingNew = nothingNew;
        this.before = before;
        this.append = append;
        this.whole = whole;
        this.vanished = vanished;
    }

    /** Why this incremental run reads every file again (null: it does not, or it is not incremental). */
    public String whole() {
        return whole;
    }

    /**
     * One line on what an incremental run with something new does: which files it adds to how many analysed ones, or
     * that it reads every file again and why; null for another run.
     */
    public String plan() {
        if (append != null) {
            return "adding " + append.archive().files().size() + " new of " + archive.files().size()
                    + " files (the others analysed before)";
        }
        return whole == null ? null : "reading all " + archive.files().size() + " files again: " + whole;
    }

    /**
     * One line on the analysed files that are no longer listed and whose rows this run keeps; null when none is
     * missing.
     */
    public String kept() {
        if (vanished.isEmpty()) {
            return null;
        }
        return vanished.size() + (vanished.size() == 1 ? " file" : " files") + " analysed before " + (vanished.size()
                == 1 ? "is" : "are") + " no longer listed (" + vanished.get(0) + (vanished.size() > 1 ? ", ..." : "")
                + "): " + (vanished.size() == 1 ? "its" : "their") + " rows are kept (--overwrite instead of "
                + "--incremental analyses only the listed files)";
    }

    /**
     * This decision for a run that reads every file, {@code why}.
     *
     * @throws OutputDirectory.Refused when analysed files vanished: reading every file again would drop their rows
     */
    public ArchiveInputs whole(String why) throws OutputDirectory.Refused {
        refuseWhole(vanished, why);
        return new ArchiveInputs(archive, heldBack, fingerprints, false, before, null, why, vanished);
    }

    private static void refuseWhole(List<String> vanished, String why) throws OutputDirectory.Refused {
        if (!vanished.isEmpty()) {
            throw new OutputDirectory.Refused("the run would read every file again (" + why + ") and drop the rows"
                    + " of " + vanished.size() + " analysed " + (vanished.size() == 1 ? "file" : "files")
                    + " no longer listed (" + vanished.get(0) + (vanished.size() > 1 ? ", ..." : "") + "); the "
                    + "output is unchanged: restore them, or run with --overwrite to analyse only the listed files",
                    false);
        }
    }

    /** The files this run reads. */
    public Archive toRead() {
        return append != null ? append.archive() : archive;
    }

    /** Whether this incremental run has nothing to do (see {@link io.ackscope.spark.Analyze#decide}). */
    public boolean nothingNew() {
        return nothingNew;
    }

    /**
     * What a run asks of its inputs: where they are, how files are grouped into sources, the output (left out of the
     * listing), whether it is incremental and with which settle period.
     *
     * @param options the options that shape the rows, as the state records them: a run with other options than the
     *                output's analyses everything again
     */
    public record Request(List<String> inputs, Archive.SourceRule sourceBy, String out, boolean incremental,
                          Duration settle, String options) {
    }

    /** Lists the inputs of {@code o} and decides what the run reads (see the class comment). */
    public static ArchiveInputs of(Request o, OutputDirectory out, Configuration conf, long nowMillis)
            throws IOException {
        Archive listed = CapturePlanner.listing(o.inputs(), o.sourceBy(), List.of(o.out()), conf);
        Map<String, InputsState.Fingerprint> prints = fingerprints(listed, conf);
        InputsState.State state = out.previous() == null ? InputsState.State.NONE
                : InputsState.read(out.fs(), out.dir());
        Map<String, InputsState.Input> before = state.files();
        List<String> held = o.incremental() ? Settle.heldBack(listed, path -> prints.get(path).mtimeMillis(),
                nowMillis, o.settle(), before.keySet()) : List.of();
        Archive taken = held.isEmpty() ? listed : listed.without(held);
        List<String> vanished = new ArrayList<>();
        if (o.incremental() && out.previous() != null) {
            java.util.Set<String> present = new java.util.HashSet<>();
            listed.files().forEach(m -> present.add(m.path()));
            before.keySet().stream().filter(p -> !present.contains(p)).sorted().forEach(vanished::add);
            if (!before.isEmpty() && vanished.size() == before.size()) {
                throw new OutputDirectory.Refused("none of the " + before.size() + " files analysed before is "
                        + "listed in " + String.join(", ", o.inputs()) + " (an empty or unmounted directory?); the "
                        + "output is unchanged: run with --overwrite to analyse only what is there", false);
            }
        }
        boolean same = o.incremental() && out.previous() != null
                && before.size() == taken.files().size() + vanished.size() && o.options().equals(state.options());
        for (Archive.Member m : taken.files()) {
            InputsState.Input b = before.get(m.path());
            same &= b != null && b.fingerprint().equals(prints.get(m.path()))
                    && b.source().equals(taken.sources().get(m.source()));
        }
        String whole = null;
        Append append = null;
        if (o.incremental() && !same && out.previous() != null) {
            whole = state.problem() != null ? state.problem()
                    : !o.options().equals(state.options()) ? "the options differ from the earlier run's"
                    : appendRefused(taken, state, prints);
            if (whole != null) {
                refuseWhole(vanished, whole);
            } else {
                Archive added = taken.without(before.keySet());
                append = new Append(added, previousSources(added, state));
            }
        }
        // a first incremental run whose every file is held back has nothing to write yet: no output of 0 rows
        boolean nothingYet = o.incremental() && out.previous() == null && taken.files().isEmpty() && !held.isEmpty();
        return new ArchiveInputs(taken, held, prints, same || nothingYet, state, append, whole, vanished);
    }

    /**
     * Why the taken files cannot be added to the earlier output (null: they can): every earlier file must be listed
     * unchanged in its source, before that source's new files, and each new file must start after every earlier
     * file of its source ends (so that nothing of it is a duplicate of theirs, {@link io.ackscope.capture.Overlaps}).
     */
    private static String appendRefused(Archive taken, InputsState.State state,
                                        Map<String, InputsState.Fingerprint> prints) {
        if (state.files().isEmpty()) {
            return "the earlier output records no inputs";
        }
        if (taken.sources().size() > 1 && state.paired() > 0) {
            return "connections of two capture points were paired (" + state.paired() + " pairs of sources in "
                    + "source_pairs): they are paired over all files";
        }
        Map<String, InputsState.Input> left = new java.util.HashMap<>(state.files());
        Map<String, Long> lastEnd = new java.util.HashMap<>();       // per source, the latest analysed record
        java.util.Set<String> listed = new java.util.HashSet<>();
        taken.files().forEach(m -> listed.add(m.path()));
        for (InputsState.Input vanished : state.files().values()) {  // kept: new files must start after them too
            if (!listed.contains(vanished.path()) && vanished.lastNanos() != Long.MIN_VALUE) {
                lastEnd.merge(vanished.source(), vanished.lastNanos(), Math::max);
            }
        }
        Map<Integer, Boolean> newSeen = new java.util.HashMap<>();
        java.util.Set<String> analysedSources = new java.util.HashSet<>();
        state.files().values().forEach(i -> analysedSources.add(i.source()));
        for (Archive.Member m : taken.files()) {
            String source = taken.sources().get(m.source());
            InputsState.Input b = left.remove(m.path());
            if (b != null) {
                if (!b.fingerprint().equals(prints.get(m.path())) || !b.source().equals(source)) {
                    return m.path() + " changed since it was analysed";
                }
                if (newSeen.getOrDefault(m.source(), false)) {
                    return "a new file of source " + source + " sorts before " + m.path();
                }
                if (b.lastNanos() != Long.MIN_VALUE) {
                    lastEnd.merge(source, b.lastNanos(), Math::max);
                }
                continue;
            }
            newSeen.put(m.source(), true);
            Long end = lastEnd.get(source);
            if (m.firstNanos() == io.ackscope.capture.CaptureReader.NO_TIMESTAMP
                    || (end != null && !(m.firstNanos() > end))) {
                return m.path() + " does not start after the analysed files of source " + source + " end";
            }
            InputsState.Source s = state.sources().get(source);
            if (analysedSources.contains(source) && (s == null || s.held() == null)) {
                return "the earlier run kept no state of source " + source + " (it ran without --incremental)";
            }
        }
        if (taken.sources().size() >= 2) {
            for (String source : analysedSources) {
                InputsState.Source s = state.sources().get(source);
                if (s != null && !s.tuples()) {
                    return "the earlier runs kept no 4-tuples of source " + source + " (the archive had one source):"
                            + " capture points are paired over all files";
                }
            }
        }
        return null;
    }

    /** The earlier state of each source of {@code added} (the new files) that had files before. */
    private static Map<String, InputsState.Source> previousSources(Archive added, InputsState.State state) {
        Map<String, InputsState.Source> out = new java.util.LinkedHashMap<>();
        for (String name : added.sources()) {
            InputsState.Source s = state.sources().get(name);
            if (s != null && s.totals().files() > 0) {
                out.put(name, s);
            }
        }
        return out;
    }

    /** Threads reading the files' ends for their fingerprints (the reads are small and wait on the disk). */
    static final int THREADS = 8;

    /** Every listed file's fingerprint, read on {@link #THREADS} threads. */
    private static Map<String, InputsState.Fingerprint> fingerprints(Archive listed, Configuration conf)
            throws IOException {
        Map<String, InputsState.Fingerprint> out = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(THREADS);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (Archive.Member m : listed.files()) {
                done.add(pool.submit(() -> {
                    Path p = new Path(m.path());
                    out.put(m.path(), InputsState.fingerprint(p.getFileSystem(conf), p));
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted reading the inputs' fingerprints");
        } finally {
            pool.shutdownNow();
        }
        return out;
    }

    /** The rows of {@code inputs.json} for the files {@code plan} read, analysed by run {@code run}. */
    public List<InputsState.Input> state(ReadPlan plan, List<SplitStats> perFile, ArchiveNumbering numbering,
                                         String run) {
        List<InputsState.Input> out = new ArrayList<>();
        for (CaptureFile f : plan.files()) {
            SplitStats s = perFile.get(f.index());
            boolean timed = s != null && s.firstNanos() <= s.lastNanos();
            out.add(new InputsState.Input(f.path(), f.sourceName(), numbering.fileInSource(f.index()),
                    fingerprints.get(f.path()), s == null ? 0 : s.frames().frames(),
                    timed ? s.firstNanos() : Long.MIN_VALUE, timed ? s.lastNanos() : Long.MIN_VALUE, run));
        }
        return out;
    }
}
