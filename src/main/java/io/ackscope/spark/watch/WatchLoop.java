package io.ackscope.spark.watch;

import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.source.VisibleFiles;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code analyze --watch}: one incremental run over the inputs each time files arrive, and once more when the files
 * the settle rule held back have been quiet for the settle period, until stopped.
 *
 * <p><b>Triggers.</b> Files arriving are seen by a Structured Streaming file source ({@link WatchedInputs}): each
 * micro-batch asks for a run, and is committed to the checkpoint only once that run has committed, so a batch cut
 * short by a kill is replayed on restart (the run's manifest makes the replay add nothing). A run analyses whatever
 * its listing finds new, not only the batch's files, and holds back each source's newest file until it is as old as
 * the settle period (tcpdump may still be writing it). Those files are <i>waiting</i>: between batches the loop
 * checks their modification times every poll and asks for a run once one of them has been quiet for the settle
 * period, so the last file of a capture that stopped is taken without a newer file arriving. One run at start
 * takes what arrived or settled while no watch ran (files already in the checkpoint's log raise no batch again).
 * The stream reports a path only once, so the loop also compares, every poll, the inputs' lengths and modification
 * times with those the last run started from: a file that changed after it was taken (appended to, rewritten)
 * asks for a run once it has been quiet for the settle period, and that run finds it changed and analyses again what
 * it must ({@link #changed}).
 *
 * <p><b>One thread.</b> Every run happens on the thread that called {@link #watch}; the stream's thread only lists
 * the inputs, queues its batch and waits for the run (the batch's files are counted on the run's thread too), so
 * runs and batches never overlap and no two runs do. A run refused because
 * another process holds the output's lock (a cron {@code analyze --incremental}) is retried at the next poll.
 *
 * <p><b>Stopping.</b> {@link #stop} (SIGINT, SIGTERM) lets the run in progress finish and commit, then stops the
 * stream (a batch not yet run stays uncommitted and is replayed by the next watch). The watch also ends by itself
 * after {@link Settings#stopAfter} or after {@link Settings#maxRuns} runs that took files, for tests and for a
 * cron-like "drain and exit".
 */
public final class WatchLoop {

    /** One incremental run over all the inputs, with the settle rule. */
    public interface Run {
        Outcome run() throws Exception;
    }

    /**
     * What a run did.
     *
     * @param tookNew  whether it analysed new or changed files (false: nothing new, the output untouched)
     * @param analysed files in the output's manifest after it (all analysed so far)
     * @param waiting  the files the settle rule held back, as paths a Hadoop filesystem resolves
     * @param line     one line saying what it did, for the progress line
     */
    public record Outcome(boolean tookNew, int analysed, List<String> waiting, String line) {
    }

    /**
     * @param inputs     the input directories (or globs), as given to {@code analyze}
     * @param out        the output directory
     * @param checkpoint the checkpoint directory (see {@link WatchedInputs#checkpoint})
     * @param settle     the settle period
     * @param maxRuns    stop after this many runs that took files; 0 = no limit
     * @param stopAfter  stop after this long (after the run in progress); null = no limit
     */
    public record Settings(List<String> inputs, String out, String checkpoint, Duration settle, int maxRuns,
                           Duration stopAfter) {
    }

    /** A request for a run: a batch of the stream (its files' rows, with its future), or the stop sentinel. */
    private record Request(long batch, Dataset<Row> files, CompletableFuture<Void> done) {
    }

    private static final Request STOP = new Request(-1, null, null);

    private final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    private volatile boolean stopping;

    /** Asks the watch to stop once the run in progress has committed; any thread, any number of times. */
    public void stop() {
        stopping = true;
        requests.offer(STOP);
    }

    /** Whether {@link #stop} was called. */
    public boolean stopping() {
        return stopping;
    }

    /**
     * How often the inputs are listed and the waiting files looked at: a quarter of the settle period, from 1 s to
     * 30 s (a listing of a remote archive every second would cost more than the files waiting for it).
     */
    public static Duration pollInterval(Duration settle) {
        long ms = Math.max(1_000, Math.min(30_000, settle.toMillis() / 4));
        return Duration.ofMillis(ms);
    }

    /** The checkpoint directory: {@code given}, or by default {@code _ackscope_checkpoint} inside {@code out}. */
    public static String checkpoint(String given, String out) {
        return WatchedInputs.checkpoint(given, out);
    }

    /** Checks the inputs and the checkpoint (usage errors are {@link OutputDirectory.Refused}) before Spark starts. */
    public static void check(Settings s, Configuration conf) throws IOException {
        WatchedInputs.check(s.inputs(), s.out(), s.checkpoint(), conf);
    }

    /** Watches until stopped or bounded (see the class comment); returns the number of runs that took files. */
    public int watch(SparkSession spark, Settings s, Run run, PrintStream progress) throws Exception {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        long deadline = s.stopAfter() == null ? Long.MAX_VALUE : System.nanoTime() + s.stopAfter().toNanos();
        Duration poll = pollInterval(s.settle());
        State state = new State(run, progress, s.inputs(), conf);
        try (AutoCloseable lock = WatchedInputs.lock(s.checkpoint(), conf)) {
            state.run("start");
            StreamingQuery query = null;
            try {
                if (!stopping) {
                    query = WatchedInputs.start(spark, s.inputs(), s.checkpoint(), poll, (batch, id) -> {
                        Request r = new Request(id, batch, new CompletableFuture<>());
                        requests.put(r);
                        r.done().get(); // the batch is committed once its run has been
                    });
                }
                while (!stopping && System.nanoTime() < deadline && (s.maxRuns() == 0 || state.took < s.maxRuns())) {
                    failIfEnded(query);
                    long waitMs = Math.min(poll.toMillis(), Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                    Request r = requests.poll(waitMs, TimeUnit.MILLISECONDS);
                    if (r == STOP) {
                        break;
                    }
                    if (r != null) {
                        runFor(state, r);
                    } else if (state.retry || settled(state.waiting, s.settle(), conf)) {
                        state.run("quiet: " + (state.retry ? "retry" : "waiting files settled"));
                    } else {
                        String changed = changed(state.listed, s.inputs(), s.settle(), conf);
                        if (changed != null) {
                            state.run("changed and quiet: " + changed);
                        }
                    }
                }
            } finally {
                if (query != null) {
                    query.stop(); // interrupts a batch waiting for its run: it stays uncommitted
                }
                for (Request r; (r = requests.poll()) != null; ) {
                    if (r.done() != null) {
                        r.done().cancel(false);
                    }
                }
            }
        }
        return state.took;
    }

    /** The run for batch {@code r}, which is counted here (a Spark job) so that every job but the listing is here. */
    private static void runFor(State state, Request r) throws Exception {
        try {
            long files = r.files().count();
            state.run(String.format(Locale.ROOT, "batch %d: %d new file%s", r.batch(), files, files == 1 ? "" : "s"));
            r.done().complete(null);
        } catch (Exception e) {
            r.done().completeExceptionally(e);
            throw e;
        }
    }

    /** Rethrows the failure of a stream that ended by itself (a listing error, say). */
    private static void failIfEnded(StreamingQuery query) throws IOException {
        if (query == null || query.isActive()) {
            return;
        }
        StreamingQueryException e = query.exception().isDefined() ? query.exception().get() : null;
        throw new IOException("the watch's file stream ended" + (e == null ? "" : ": " + e.getMessage()), e);
    }

    /** Whether one of {@code waiting} has not been modified for {@code settle} (or is gone: the run says so). */
    static boolean settled(List<String> waiting, Duration settle, Configuration conf) throws IOException {
        long now = System.currentTimeMillis();
        for (String w : waiting) {
            Path p = new Path(w);
            try {
                FileStatus st = p.getFileSystem(conf).getFileStatus(p);
                if (now - st.getModificationTime() >= settle.toMillis()) {
                    return true;
                }
            } catch (FileNotFoundException e) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every visible file below {@code inputs} (globs expanded; names starting with {@code .} or {@code _} skipped, as
     * the analysis skips them) with its length and modification time: what a run about to start will see. The
     * stream reports a path once; this listing is how a file that changes after it was analysed is noticed.
     */
    static Map<String, List<Long>> listing(List<String> inputs, Configuration conf) throws IOException {
        Map<String, List<Long>> files = new HashMap<>();
        for (String in : inputs) {
            Path p = new Path(in);
            FileSystem fs = p.getFileSystem(conf);
            FileStatus[] matched = fs.globStatus(p);
            if (matched == null) {
                continue;   // an input gone: the run says so
            }
            for (FileStatus m : matched) {
                VisibleFiles.walk(fs, m.getPath(), st -> {
                    files.put(st.getPath().toString(), List.of(st.getLen(), st.getModificationTime()));
                    return true;
                });
            }
        }
        return files;
    }

    /**
     * A file of {@code before} (the listing the last run started from) whose length or modification time is no
     * longer what it was and that has been quiet for {@code settle} since, or null: the next incremental run finds
     * it changed (its fingerprint) and analyses again what it must.
     */
    static String changed(Map<String, List<Long>> before, List<String> inputs, Duration settle, Configuration conf)
            throws IOException {
        if (before.isEmpty()) {
            return null;
        }
        long now = System.currentTimeMillis();
        for (Map.Entry<String, List<Long>> e : listing(inputs, conf).entrySet()) {
            List<Long> was = before.get(e.getKey());
            if (was != null && !was.equals(e.getValue()) && now - e.getValue().get(1) >= settle.toMillis()) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The runs so far, what the last one left waiting, and the listing it started from. */
    private static final class State {
        private final Run run;
        private final PrintStream progress;
        private int runs;
        private int took;
        private boolean retry;
        private List<String> waiting = List.of();
        private Map<String, List<Long>> listed = Map.of();
        private final List<String> inputs;
        private final Configuration conf;

        State(Run run, PrintStream progress, List<String> inputs, Configuration conf) {
            this.run = run;
            this.progress = progress;
            this.inputs = inputs;
            this.conf = conf;
        }

        /** One run; a run refused because another process holds the output is retried at the next poll. */
        void run(String trigger) throws Exception {
            runs++;
            long started = System.nanoTime();
            Outcome o;
            Map<String, List<Long>> seen = listing(inputs, conf);
            try {
                o = run.run();
            } catch (OutputDirectory.Refused e) {
                if (e.usage()) {
                    throw e;
                }
                retry = true;
                progress.printf(Locale.ROOT, "watch: run %d (%s): not now, %s; retrying%n", runs, trigger,
                        e.getMessage());
                return;
            }
            retry = false;
            listed = seen;
            waiting = new ArrayList<>(o.waiting());
            if (o.tookNew()) {
                took++;
            }
            progress.printf(Locale.ROOT, "watch: run %d (%s): %s; %d files in the output, %d waiting; %.1f s%n",
                    runs, trigger, o.line(), o.analysed(), waiting.size(), (System.nanoTime() - started) / 1e9);
        }
    }
}
