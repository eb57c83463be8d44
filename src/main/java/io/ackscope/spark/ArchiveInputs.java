package io.ackscope.spark;

import io.ackscope.spark.source.CapturePlanner;
import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;

import io.ackscope.capture.Archive;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a run of {@code analyze} reads, decided on the driver before the read: the archive listing, each file's
 * {@link InputsState.Fingerprint}, and for {@code --incremental} the files held back by the {@link Settle} rule and
 * whether anything is new against the earlier output's {@code inputs.json}.
 *
 * <p>Until an appended source can be continued from held engine state, an incremental run with anything new
 * (a new, changed or vanished file in any source) analyses every file again and replaces every row: the tables are
 * then those of one run over the same files by construction, two capture points are paired again, and a run with
 * nothing new does nothing.
 */
public final class ArchiveInputs {
    /** The files to read (held-back files left out). */
    final Archive archive;
    final List<String> heldBack;
    final Map<String, InputsState.Fingerprint> fingerprints;
    /** Whether the taken files are exactly those of the earlier output (an incremental run then does nothing). */
    final boolean nothingNew;

    private ArchiveInputs(Archive archive, List<String> heldBack, Map<String, InputsState.Fingerprint> fingerprints,
                          boolean nothingNew) {
        this.archive = archive;
        this.heldBack = heldBack;
        this.fingerprints = fingerprints;
        this.nothingNew = nothingNew;
    }

    /** Whether this incremental run has nothing to do (see {@link Analyze#decide}). */
    public boolean nothingNew() {
        return nothingNew;
    }

    /** Lists the inputs of {@code o} and decides what the run reads (see the class comment). */
    static ArchiveInputs of(Analyze.Options o, OutputDirectory out, Configuration conf, long nowMillis)
            throws IOException {
        Archive listed = CapturePlanner.listing(o.inputs(), o.sourceBy(), List.of(o.out()), conf);
        Map<String, InputsState.Fingerprint> prints = fingerprints(listed, conf);
        InputsState.State state = out.previous() == null ? InputsState.State.NONE
                : InputsState.read(out.fs(), out.dir());
        Map<String, InputsState.Input> before = state.files();
        List<String> held = o.incremental() ? Settle.heldBack(listed, path -> prints.get(path).mtimeMillis(),
                nowMillis, o.settle(), before.keySet()) : List.of();
        Archive taken = held.isEmpty() ? listed : listed.without(held);
        boolean same = o.incremental() && out.previous() != null && before.size() == taken.files().size()
                && options(o).equals(state.options());
        for (Archive.Member m : taken.files()) {
            InputsState.Input b = before.get(m.path());
            same &= b != null && b.fingerprint().equals(prints.get(m.path()))
                    && b.source().equals(taken.sources().get(m.source()));
        }
        return new ArchiveInputs(taken, held, prints, same);
    }

    /**
     * The options that shape the rows (the packets table, the source rule, the frame filters), as recorded in the
     * state: an incremental run with other options than the output's analyses everything again.
     */
    static String options(Analyze.Options o) {
        return "packets=" + o.packets() + "; source_by=" + o.sourceBy() + "; filter=" + o.filter().describe();
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
    List<InputsState.Input> state(ReadPlan plan, List<SplitStats> perFile, ArchiveNumbering numbering, String run) {
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
