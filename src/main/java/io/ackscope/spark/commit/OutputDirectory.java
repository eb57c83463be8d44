package io.ackscope.spark.commit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ackscope.capture.Archive;
import io.ackscope.json.Json;
import io.ackscope.output.OutputLock;
import io.ackscope.output.OutputMarker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The output directory {@code DIR} of one {@code analyze} run, committed so that at every instant (a kill included)
 * {@code DIR} holds either a complete output, old or new, or one that readers refuse and the next run completes.
 *
 * <p><b>Layout.</b> A complete output is {@code DIR/_SUCCESS} (the marker: the run's summary, its tables and the
 * manifest of every file of the dataset; see {@link OutputMarker}), one directory per table (Hive-partitioned:
 * {@code source=.../date=...}, see {@link TableCommit}), {@code report.html} and {@code _ackscope_state/}
 * ({@link io.ackscope.spark.carry.InputsState}: what the rows were made from, for {@code --incremental}). Other files
 * in {@code DIR} (notes, plots, a filtered report) are the user's: ackscope never removes or replaces them. While a run
 * works, {@code DIR} also holds {@code _ackscope.lock} (the run's lock: {@link OutputLock}, or {@link CreatedLock} on
 * Hadoop filesystems) and {@code _ackscope_staging_<id>/} (hidden from Spark and Hive by its leading {@code _}).
 *
 * <p><b>Protocol.</b> {@link #prepare} (which {@code ackscope analyze} calls before Spark starts) refuses inputs
 * inside {@code DIR} and a {@code DIR} inside an input, takes the lock (a second run on {@code DIR} is refused with
 * the holder's pid and host), recovers what an earlier run left (below), refuses a non-empty {@code DIR} without
 * {@code overwrite} or {@code incremental}, and with them one that is not a complete ackscope output or whose table
 * directories hold files the manifest does not list; then it creates the staging directory. The run writes its
 * files there, at the paths they take in {@code DIR}; {@link #stage} writes {@code staging/_SUCCESS}, so that the
 * staged output reads as a complete one and the report can be made from it into {@code staging/report.html}. Then
 * {@link #commit(java.util.Collection)}, given the files of the earlier output to retire (all of them for
 * {@code --overwrite}), each step named for the test hook:
 * <ol>
 *   <li>{@code staged}: the marker is rewritten with the final manifest: the earlier manifest without the retired
 *       files, with every staged file;</li>
 *   <li>{@code commit-record}: {@code staging/_ackscope_commit} is written (to a temporary name, then renamed): the
 *       files to retire and the files to add. From here the commit only goes forward;</li>
 *   <li>{@code old-marker-moved}: the earlier {@code DIR/_SUCCESS} moves into {@code staging/_ackscope_old/} (the
 *       trash), so readers refuse {@code DIR} from here until step 6;</li>
 *   <li>{@code old-entry-moved}: each file to retire moves into the trash;</li>
 *   <li>{@code new-entry-moved}: each new file moves from staging to its place in {@code DIR}; the directories the
 *       retired files leave empty are removed;</li>
 *   <li>{@code marker-moved}: {@code staging/_SUCCESS} is renamed to {@code DIR/_SUCCESS}, last: {@code DIR} is the
 *       new output;</li>
 *   <li>the staging directory (trash included) is deleted; {@link #close} deletes the lock file and unlocks it.</li>
 * </ol>
 * Every rename stays within {@code DIR} (one filesystem), and every step is idempotent given what is still in staging,
 * so <b>recovery</b> (in {@link #prepare}, and in {@code ackscope report} through {@link #recoverLocal}; always under
 * the lock, so no live run owns the folders it finds) rolls a staging directory that has a commit record forward
 * through the same steps, and deletes one without a record (that run had not touched {@code DIR}). A failed run
 * deletes its staging directory unless it had written the commit record; a {@code DIR} that it created and left empty
 * is removed too.
 *
 * <p>The steps that recovery repeats are in {@link CommitSteps}; the check that inputs and {@code DIR} do not overlap
 * is {@link OutputOverlap}.
 *
 * <p><b>Test hook</b> (tests only): with the system property {@value #KILL_AT} set to a step name, the run prints
 * {@code ackscope.test.step NAME} on stderr on reaching that step and blocks, for the test to kill it there.
 */
public final class OutputDirectory implements AutoCloseable {
    public static final String STAGING_PREFIX = Archive.STAGING_PREFIX;
    public static final String SUCCESS = OutputMarker.FILE;
    static final String LOCK = OutputLock.FILE;
    static final String COMMIT_RECORD = "_ackscope_commit";
    static final String TRASH = "_ackscope_old";
    /**
     * The default checkpoint of {@code analyze --watch} ({@link io.ackscope.spark.watch.WatchedInputs}): not an entry
     * of the output.
     */
    public static final String CHECKPOINT = "_ackscope_checkpoint";
    /** Test-only: the commit step at which the run stops (see the class comment). */
    public static final String KILL_AT = "ackscope.test.killAt";

    /** {@code DIR} cannot be used as asked: a usage error ({@link #usage}) or another run holds it. */
    public static final class Refused extends IOException {
        private final boolean usage;

        public Refused(String message, boolean usage) {
            super(message);
            this.usage = usage;
        }

        /** Whether the arguments are at fault (exit status 2) rather than the state of the directory. */
        public boolean usage() {
            return usage;
        }
    }

    private final FileSystem fs;
    private final Path dir;
    private final Path staging;
    private final AutoCloseable lock;
    private final boolean createdDir;
    private final OutputMarker previous;
    private final boolean overwrite;
    private String summaryJson;
    private boolean committing;
    private boolean committed;
    private boolean closed;

    private OutputDirectory(FileSystem fs, Path dir, Path staging, AutoCloseable lock, boolean createdDir,
                            OutputMarker previous, boolean overwrite) {
        this.overwrite = overwrite;
        this.fs = fs;
        this.dir = dir;
        this.staging = staging;
        this.lock = lock;
        this.createdDir = createdDir;
        this.previous = previous;
    }

    /**
     * Checks {@code dir} against {@code inputs}, takes its lock, recovers an interrupted earlier run, checks what
     * {@code dir} holds and creates the staging directory. Reads no capture.
     */
    public static OutputDirectory prepare(String dir, List<String> inputs, Configuration conf, boolean overwrite)
            throws IOException {
        return prepare(dir, inputs, conf, overwrite, false);
    }

    /**
     * As {@link #prepare(String, List, Configuration, boolean)}; with {@code incremental}, a complete ackscope output
     * in {@code dir} is taken as the earlier output the run adds to ({@link #previous}) instead of being refused.
     */
    public static OutputDirectory prepare(String dir, List<String> inputs, Configuration conf, boolean overwrite,
                                          boolean incremental) throws IOException {
        refuseOverlap(inputs, dir, conf);
        Path path = new Path(dir);
        FileSystem fs = path.getFileSystem(conf);
        path = fs.makeQualified(path);
        boolean created = false;
        if (fs.exists(path)) {
            if (!fs.getFileStatus(path).isDirectory()) {
                throw new Refused(show(path) + " exists and is not a directory", true);
            }
        } else {
            if (!fs.mkdirs(path)) {
                throw new IOException("cannot create " + path);
            }
            created = true;
        }
        AutoCloseable lock;
        try {
            lock = "file".equals(fs.getScheme()) ? OutputLock.acquire(java.nio.file.Path.of(path.toUri()), "analyze")
                    : CreatedLock.acquire(fs, new Path(path, LOCK));
        } catch (OutputLock.Busy e) {
            removeIfEmpty(fs, path, created);
            throw new Refused(e.getMessage(), false);
        }
        try {
            CommitSteps.recover(fs, path);
            OutputMarker previous = null;
            List<String> others = new ArrayList<>();
            for (FileStatus c : fs.listStatus(path)) {
                if (!c.getPath().getName().equals(LOCK) && !c.getPath().getName().equals(CHECKPOINT)) {
                    others.add(c.getPath().getName());
                }
            }
            if (!others.isEmpty()) {
                if (!overwrite && !incremental) {
                    throw new Refused(show(path) + " is not empty (use --overwrite to replace an earlier ackscope "
                            + "output, or --incremental to add to it; files ackscope did not write are kept)", true);
                }
                previous = ownOutput(fs, path);
            }
            Path staging = new Path(path, STAGING_PREFIX + UUID.randomUUID());
            if (!fs.mkdirs(staging)) {
                throw new IOException("cannot create " + staging);
            }
            return new OutputDirectory(fs, path, staging, lock, created, previous, overwrite);
        } catch (IOException | RuntimeException e) {
            release(lock);
            removeIfEmpty(fs, path, created);
            throw e;
        }
    }

    /** The marker of the complete ackscope output in {@code dir}, after checking that overwriting it is safe. */
    private static OutputMarker ownOutput(FileSystem fs, Path dir) throws IOException {
        OutputMarker m;
        try {
            m = readMarker(fs, new Path(dir, SUCCESS));
        } catch (FileNotFoundException e) {
            throw new Refused(show(dir) + " is not empty and is not an ackscope output (no " + SUCCESS + "); not "
                    + "overwriting it", true);
        } catch (OutputMarker.Invalid e) {
            throw new Refused(show(dir) + " is not empty and is not a complete ackscope output (" + e.getMessage()
                    + "); not overwriting it", true);
        }
        if (m.hasManifest()) {
            Set<String> listed = new TreeSet<>(m.files());
            for (String entry : m.entries()) {
                Path p = new Path(dir, entry);
                if (fs.exists(p) && fs.getFileStatus(p).isDirectory()) {
                    for (String f : relativeFiles(fs, p, entry)) {
                        if (!listed.contains(f)) {
                            throw new Refused(show(new Path(dir, f)) + " was not written by ackscope; move it out of "
                                    + show(new Path(dir, entry)) + " before --overwrite replaces that directory", true);
                        }
                    }
                }
            }
        }
        return m;
    }

    private static OutputMarker readMarker(FileSystem fs, Path marker) throws IOException {
        try (FSDataInputStream in = fs.open(marker)) {
            return OutputMarker.parse(new String(in.readNBytes(64 << 20), StandardCharsets.UTF_8), show(marker));
        }
    }

    /** The files under {@code p} (recursively; Hadoop's checksum files hidden), as {@code prefix/...}. */
    private static List<String> relativeFiles(FileSystem fs, Path p, String prefix) throws IOException {
        List<String> out = new ArrayList<>();
        for (FileStatus c : fs.listStatus(p)) {
            String rel = prefix + "/" + c.getPath().getName();
            if (c.isDirectory()) {
                out.addAll(relativeFiles(fs, c.getPath(), rel));
            } else {
                out.add(rel);
            }
        }
        return out;
    }

    /**
     * Refuses an input inside {@code out}, and {@code out} equal to or inside an input (see
     * {@link OutputOverlap#refuse}).
     */
    public static void refuseOverlap(List<String> inputs, String out, Configuration conf) throws IOException {
        OutputOverlap.refuse(inputs, out, conf);
    }

    /** {@code p} for messages: a plain path on the local filesystem, the qualified path elsewhere. */
    public static String show(Path p) {
        return p.toUri().getScheme() == null || "file".equals(p.toUri().getScheme()) ? p.toUri().getPath()
                : p.toString();
    }

    /**
     * Completes or removes what interrupted runs left in the local output directory {@code dir}, for
     * {@code ackscope report}; the caller holds the output's lock ({@link OutputLock}).
     *
     * @return whether there was anything to recover
     */
    public static boolean recoverLocal(java.nio.file.Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            if (s.noneMatch(p -> p.getFileName().toString().startsWith(STAGING_PREFIX))) {
                return false;
            }
        }
        Configuration conf = new Configuration();
        NioLocalFileSystem.use(conf);
        FileSystem fs = FileSystem.getLocal(conf);
        CommitSteps.recover(fs, fs.makeQualified(new Path(dir.toAbsolutePath().toUri())));
        return true;
    }

    /** The marker of the earlier complete output in {@code DIR} (with --overwrite or --incremental), or null. */
    public OutputMarker previous() {
        return previous;
    }

    /** The final directory. */
    public Path dir() {
        return dir;
    }

    /** The staging directory (hidden inside the final directory). */
    public Path staging() {
        return staging;
    }

    /** Where a table is staged. */
    public Path staged(String table) {
        return new Path(staging, table);
    }

    public FileSystem fs() {
        return fs;
    }

    /** Marks a staged table complete. */
    public void tableDone(String table) throws IOException {
        try (FSDataOutputStream out = fs.create(new Path(staged(table), SUCCESS), true)) {
            // an empty per-table marker, as Spark's committers write
        }
    }

    /**
     * Writes {@code staging/_SUCCESS} with {@code summaryJson} (which must carry {@code "tool":"ackscope"} and the
     * tables), so that the staged output reads as complete (the report is made from it).
     */
    public void stage(String summaryJson) throws IOException {
        this.summaryJson = summaryJson;
        CommitSteps.writeAtomically(fs, new Path(staging, SUCCESS), OutputMarker.withFiles(summaryJson, stagedFiles()));
    }

    /** Everything in staging but the marker and the commit's own files, as relative paths. */
    List<String> stagedFiles() throws IOException {
        List<String> files = new ArrayList<>();
        for (FileStatus c : fs.listStatus(staging)) {
            String name = c.getPath().getName();
            if (name.equals(SUCCESS) || name.equals(COMMIT_RECORD) || name.equals(TRASH) || name.startsWith(".")) {
                continue;
            }
            if (c.isDirectory()) {
                files.addAll(relativeFiles(fs, c.getPath(), name));
            } else {
                files.add(name);
            }
        }
        return files;
    }

    /** Moves the staged output into place (the steps of the class comment); every file of the earlier output goes. */
    public void commit() throws IOException {
        commit(previousFiles());
    }

    /**
     * The files of the earlier output (its manifest; for a marker written before manifests, the files under its
     * entries), none without one.
     */
    public List<String> previousFiles() throws IOException {
        if (previous == null) {
            return List.of();
        }
        if (previous.hasManifest()) {
            return previous.files();
        }
        List<String> out = new ArrayList<>();
        for (String e : previous.entries()) {
            Path p = new Path(dir, e);
            if (fs.exists(p)) {
                if (fs.getFileStatus(p).isDirectory()) {
                    out.addAll(relativeFiles(fs, p, e));
                } else {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /**
     * Moves the staged files into place (the steps of the class comment), retiring {@code retire} (files of the
     * earlier output, relative to {@code DIR}); the new manifest is the earlier one without {@code retire}, with the
     * staged files.
     */
    public void commit(Collection<String> retire) throws IOException {
        if (summaryJson == null) {
            throw new IllegalStateException("stage before commit");
        }
        CommitSteps.step("staged");
        List<String> added = stagedFiles();
        Set<String> retired = new LinkedHashSet<>(retire);
        if (previous != null && overwrite) {
            ownOutput(fs, dir); // again: a file put into a table directory since prepare would go with it
        }
        Set<String> old = previous == null ? Set.of() : previous.entries();
        for (String f : added) {
            int slash = f.indexOf('/');
            String entry = slash < 0 ? f : f.substring(0, slash);
            if (!old.contains(entry) && fs.exists(new Path(dir, entry))) {
                throw new Refused(show(new Path(dir, entry)) + " was not written by ackscope and is in the way of "
                        + "the new output; move it away and run again", true);
            }
        }
        Set<String> kept = new TreeSet<>();
        if (previous != null && previous.hasManifest()) {
            kept.addAll(previous.files());
        }
        kept.removeAll(retired);
        for (String f : added) {
            if (kept.remove(f)) {
                retired.add(f);     // a file of the earlier output written again (a marker, the report, the state)
            } else if (!retired.contains(f) && fs.exists(new Path(dir, f))) {
                throw new Refused(show(new Path(dir, f)) + " was not written by ackscope and is in the way of the "
                        + "new output; move it away and run again", true);
            }
        }
        Set<String> manifest = new TreeSet<>(kept);
        manifest.addAll(added);
        CommitSteps.writeAtomically(fs, new Path(staging, SUCCESS), OutputMarker.withFiles(summaryJson, manifest));
        ObjectNode record = Json.MAPPER.createObjectNode();
        retired.forEach(record.putArray("retire")::add);
        added.forEach(record.putArray("add")::add);
        committing = true;
        CommitSteps.writeAtomically(fs, new Path(staging, COMMIT_RECORD),
                Json.MAPPER.writeValueAsString(record) + "\n");
        CommitSteps.step("commit-record");
        CommitSteps.rollForward(fs, dir, staging);
        committed = true;
    }

    /**
     * After a failure: deletes the staging directory unless the commit had begun (then the next run completes it).
     */
    public void abort() {
        if (committing || committed || closed) {
            return;
        }
        try {
            fs.delete(staging, true);
        } catch (IOException e) {
            // the next run removes it
        }
    }

    /**
     * Empties the staging directory, for a run that starts again ({@link io.ackscope.spark.Analyze}: an append that
     * must read all).
     */
    public void restage() throws IOException {
        fs.delete(staging, true);
        fs.mkdirs(staging);
    }

    /** Releases the lock (once); removes {@code DIR} if this run created it and left it empty. */
    @Override
    public void close() {
        if (closed) {
            return; // a second release would delete a lock file another run may hold by now
        }
        closed = true;
        release(lock);
        removeIfEmpty(fs, dir, createdDir);
    }

    private static void release(AutoCloseable lock) {
        try {
            lock.close();
        } catch (Exception e) {
            // both locks swallow their own failures
        }
    }

    private static void removeIfEmpty(FileSystem fs, Path dir, boolean created) {
        try {
            if (created && fs.listStatus(dir).length == 0) {
                fs.delete(dir, false);
            }
        } catch (IOException e) {
            // an empty directory left behind is harmless
        }
    }

    /** The bytes in the staging directory, -1 if unknown (measured before {@link #abort}, for the disk-full error). */
    public long stagedBytes() {
        try {
            return fs.getContentSummary(staging).getLength();
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * The one-line error for a run that filled the filesystem ({@link NoSpace#of}), given what the run had staged
     * when it failed ({@code staged}); what is free is measured now, after {@link #abort}.
     */
    public NoSpace noSpaceError(Throwable cause, long staged) {
        return NoSpace.of(fs, dir, committing, cause, staged);
    }
}
