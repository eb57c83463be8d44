package io.ackscope.spark.source;

import io.ackscope.capture.Archive;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The split-counting pass of {@link CapturePlanner}, started before Spark is up in an embedded run.
 *
 * <p>An embedded {@code analyze} spends its first seconds starting Spark on one thread while the other cores wait;
 * then the planner's first job walks the record headers of every candidate split. Here that walk starts at once, on
 * one thread per core of the local master, from the settings Spark will see ({@link #start}); when the planner
 * then asks for the same candidate splits ({@link #take}, the same files, sizes and settings) it takes these results
 * instead of running its job, waiting for them if they are not done. If anything differs (a setting changed
 * after the start, files changed, another master) the key does not match and the planner runs its job as usual, so
 * the plan is the same either way. The listing it starts from is the planner's own too ({@link #listing}): listing an
 * archive opens every file for its first records, and an archive of 10,008 small files was listed and probed twice,
 * once here and once by the planner, before this. Only for local masters: on a cluster the executors walk the splits where the data
 * is, and the driver must not read the whole archive itself.
 */
public final class EarlyCount {
    private EarlyCount() {
    }

    /**
     * The count under way: what it lists ({@link #listingKey}) and the listing, its key once the files are listed,
     * then its results.
     */
    private record Pending(String listingKey, CompletableFuture<CapturePlanner.Listed> listed,
                           java.util.concurrent.atomic.AtomicBoolean listingTaken, CompletableFuture<String> key,
                           CompletableFuture<List<SplitCounter.Result>> results) {
    }

    private static volatile Pending pending;
    private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:,\\s*\\d+)?])?");

    /**
     * Starts counting the candidate splits of {@code inputs} as the planner would under {@code conf}; does nothing
     * unless {@code conf}'s master is local. Failures are left to the planner's own job.
     */
    public static void start(List<String> inputs, SparkConf conf) {
        start(inputs, Archive.SourceRule.DIRECTORY, List.of(), conf);
    }

    /**
     * As {@link #start(List, SparkConf)}, listing {@code inputs} as the planner will for {@code analyze} (its source
     * rule and excluded output directory), so that the planner can take the listing too.
     */
    public static void start(List<String> inputs, Archive.SourceRule rule, List<String> excluded, SparkConf conf) {
        int cores = localCores(conf);
        if (cores <= 0) {
            return;
        }
        Pending p = new Pending(listingKey(inputs, rule, excluded), new CompletableFuture<>(),
                new java.util.concurrent.atomic.AtomicBoolean(), new CompletableFuture<>(), new CompletableFuture<>());
        pending = p;
        Thread t = new Thread(() -> {
            try {
                Configuration hadoop = org.apache.spark.deploy.SparkHadoopUtil$.MODULE$.newConfiguration(conf);
                CapturePlanner.Listed listed = CapturePlanner.list(inputs, hadoop, rule, excluded);
                p.listed().complete(listed);
                List<CaptureFile> files = listed.files();
                CapturePlanner.Sizing sizing = CapturePlanner.Sizing.of(
                        key -> conf.contains(key) ? conf.get(key) : null, parallelism(conf, cores), files);
                List<SplitCounter.Task> tasks = CapturePlanner.countingTasks(files, sizing);
                p.key().complete(key(tasks));
                p.results().complete(tasks.isEmpty() ? List.of()
                        : count(tasks, hadoop, Math.min(tasks.size(), sizing.parallelism())));
            } catch (Exception | LinkageError e) {
                // the planner lists and counts itself (and reports what is wrong)
                p.listed().complete(null);
                p.key().completeExceptionally(e);
                p.results().completeExceptionally(e);
            }
        }, "ackscope-early-count");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The results for exactly {@code tasks}, if an early count of them is under way (waiting for it); else null
     * (none started, or one for other candidate splits). Each early count is taken at most once.
     */
    static List<SplitCounter.Result> take(List<SplitCounter.Task> tasks) {
        Pending p = pending;
        if (p == null) {
            return null;
        }
        String key = await(p.key());
        if (key == null || !key.equals(key(tasks))) {
            return null;
        }
        pending = null;
        return await(p.results());
    }

    /**
     * The listing of exactly {@code inputs} under {@code rule} without {@code excluded}, if an early count of them is
     * under way (waiting for its listing); else null (none started, one of other inputs, or its listing failed: the
     * planner lists itself and reports why). Each listing is taken at most once.
     */
    static CapturePlanner.Listed listing(List<String> inputs, Archive.SourceRule rule, List<String> excluded) {
        Pending p = pending;
        if (p == null || !p.listingKey().equals(listingKey(inputs, rule, excluded))
                || p.listingTaken().getAndSet(true)) {
            return null;
        }
        return await(p.listed());
    }

    /** A future's value, or null if it failed or the wait was interrupted. */
    private static <T> T await(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return null;
        }
    }

    private static String listingKey(List<String> inputs, Archive.SourceRule rule, List<String> excluded) {
        return String.join("\0", inputs) + "\n" + rule + "\n" + String.join("\0", excluded);
    }

    /** Forgets a count nobody took. */
    public static void clear() {
        pending = null;
    }

    /** Runs of consecutive tasks on {@code threads} threads, as the planner's job runs them on its tasks. */
    private static List<SplitCounter.Result> count(List<SplitCounter.Task> tasks, Configuration conf, int threads)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "ackscope-early-count");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<SplitCounter.Result>>> runs = new ArrayList<>();
            int per = (tasks.size() + threads - 1) / threads;
            for (int from = 0; from < tasks.size(); from += per) {
                List<SplitCounter.Task> run = tasks.subList(from, Math.min(tasks.size(), from + per));
                runs.add(pool.submit(() -> {
                    List<SplitCounter.Result> out = new ArrayList<>(run.size());
                    for (SplitCounter.Task t : run) {
                        out.add(SplitCounter.count(t, conf));
                    }
                    return out;
                }));
            }
            List<SplitCounter.Result> all = new ArrayList<>(tasks.size());
            for (Future<List<SplitCounter.Result>> r : runs) {
                all.addAll(r.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Cores of a local master ({@code local}, {@code local[N]}, {@code local[*]}, {@code local[N,F]}); else 0. */
    public static int localCores(SparkConf conf) {
        Matcher m = LOCAL.matcher(conf.get("spark.master", ""));
        if (!m.matches()) {
            return 0;
        }
        String n = m.group(1);
        return n == null ? 1 : n.equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(n);
    }

    /** Spark's default parallelism of a local master with {@code cores}. */
    private static int parallelism(SparkConf conf, int cores) {
        return conf.contains("spark.default.parallelism")
                ? Integer.parseInt(conf.get("spark.default.parallelism")) : cores;
    }

    /** The candidate splits, exactly (path, range and cuts of each). */
    private static String key(List<SplitCounter.Task> tasks) {
        StringBuilder sb = new StringBuilder();
        for (SplitCounter.Task t : tasks) {
            sb.append(t.path()).append('\0').append(t.splitIndex()).append('\0').append(t.start()).append('\0')
                    .append(t.end()).append('\0').append(java.util.Arrays.toString(t.cuts())).append('\n');
        }
        return sb.toString();
    }
}
