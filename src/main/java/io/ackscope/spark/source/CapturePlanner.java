package io.ackscope.spark.source;

import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.json.Json;
import com.fasterxml.jackson.core.type.TypeReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Plans a read: lists the captures, splits the large splittable ones, and packs splits into tasks.
 *
 * <p>Sizes follow Spark's file sources ({@code FilePartition.maxSplitBytes}): a split is at most
 * {@code min(spark.sql.files.maxPartitionBytes, max(spark.sql.files.openCostInBytes, totalBytes / minPartitions))}
 * bytes, where totalBytes counts each file plus the open cost and minPartitions is
 * {@code spark.sql.files.minPartitionNum} or the default parallelism; consecutive small splits (in file order) are
 * packed into one task up to that size, each costing the open cost extra. So one large file is read by at least as
 * many tasks as there are cores, and a directory of small files does not become thousands of tasks.
 *
 * <p>One departure: a local file read whole costs {@link #LOCAL_OPEN_COST} when packed, not Spark's 4 MB default
 * (unless {@code spark.sql.files.openCostInBytes} is set, which then holds for every file). Opening a local capture
 * costs about what reading a few tens of kilobytes does (0.1 ms of CPU a file, measured on an archive of 10,008
 * files of 21 KB), and Spark's default, made for remote stores, counted each such file as 4 MB: 313 read tasks of
 * 32 files, whose per-task cost (launch, result, four shuffle files each) made the read stage 2-3 times as long as
 * with 7 tasks. Such files are packed up to Spark's size computed with that cost instead (their bytes and open
 * costs shared among the cores, at most the split size), so a few hundred small files still make a task per core.
 * Splits of a large file and files on other filesystems keep Spark's cost and size, so those plans are Spark's.
 */
public final class CapturePlanner {
    private CapturePlanner() {
    }

    /** The input paths given to {@code load(...)} ({@code path} or the JSON array {@code paths}). */
    static List<String> paths(CaseInsensitiveStringMap options) {
        List<String> out = new ArrayList<>();
        String json = options.get("paths");
        if (json != null) {
            try {
                out.addAll(Json.MAPPER.readValue(json, new TypeReference<List<String>>() { }));
            } catch (IOException e) {
                throw new IllegalArgumentException("option paths is not a JSON array of strings: " + json, e);
            }
        }
        String one = options.get("path");
        if (one != null && !out.contains(one)) {
            out.add(one);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("pcap: no input path; use load(path, ...)");
        }
        return out;
    }

    /** The session's Hadoop configuration with the read options applied (for fs.* settings). */
    public static Configuration hadoopConf(SparkSession spark, Map<String, String> options) {
        Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
        options.forEach((k, v) -> {
            if (!k.equals("path") && !k.equals("paths")) {
                conf.set(k, v);
            }
        });
        return conf;
    }

    /** An archive listing and its files as the planner reads them. */
    record Listed(Archive archive, List<CaptureFile> files) {
    }

    /** Lists paths with the default source rule; see {@link #list(List, Configuration, Archive.SourceRule, List)}. */
    static List<CaptureFile> list(List<String> paths, Configuration conf) throws IOException {
        return list(paths, conf, Archive.SourceRule.DIRECTORY, List.of()).files();
    }

    /**
     * Expands paths (files, directories recursively, globs) into the captures of an archive ({@link Archive}: each
     * file once, in its source, in time order), never reading from {@code excluded} (the output directory). A path
     * that matches nothing is an error.
     */
    static Listed list(List<String> paths, Configuration conf, Archive.SourceRule rule, List<String> excluded)
            throws IOException {
        HadoopArchiveStore store = new HadoopArchiveStore(conf);
        List<String> qualified = new ArrayList<>();
        for (String x : excluded) {
            Path p = new Path(x);
            qualified.add(p.getFileSystem(conf).makeQualified(p).toString());
        }
        return of(Archive.list(store.expand(paths), store, rule, qualified), conf);
    }

    /** The capture files of a listing, with the hosts of their first blocks. */
    static Listed of(Archive archive, Configuration conf) throws IOException {
        List<CaptureFile> out = new ArrayList<>(archive.files().size());
        for (Archive.Member m : archive.files()) {
            out.add(new CaptureFile(m.index(), m.path(), m.length(), hosts(new Path(m.path()), m.length(), conf),
                    m.source(), archive.sources().get(m.source())));
        }
        return new Listed(archive, out);
    }

    /**
     * The archive {@link #plan(SparkSession, List, Archive.SourceRule, List, Configuration, Broadcast)} would read
     * (the early listing of {@link EarlyCount} when it made one for the same arguments), for a caller that decides
     * what to read before planning ({@code analyze --incremental}).
     */
    public static Archive listing(List<String> paths, Archive.SourceRule rule, List<String> excluded,
                                  Configuration conf) throws IOException {
        Listed early = EarlyCount.listing(paths, rule, excluded);
        return (early != null ? early : list(paths, conf, rule, excluded)).archive();
    }

    private static String[] hosts(Path path, long length, Configuration conf) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        if (fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem) {
            return new String[0];
        }
        BlockLocation[] blocks = fs.getFileBlockLocations(fs.getFileStatus(path), 0, Math.min(1, length));
        if (blocks != null && blocks.length > 0) {
            String[] h = blocks[0].getHosts();
            if (h.length > 0 && !(h.length == 1 && h[0].equals("localhost"))) {
                return h;
            }
        }
        return new String[0];
    }

    /**
     * Split size limits from the session's settings.
     *
     * @param parallelism when above 0, splits are also cut by frame count (see {@link #plan}); 0 cuts by bytes only
     */
    record Sizing(long maxSplitBytes, long openCostInBytes, int parallelism, long localOpenCost,
                  long localTaskBytes) {
        Sizing(long maxSplitBytes, long openCostInBytes, int parallelism) {
            this(maxSplitBytes, openCostInBytes, parallelism, openCostInBytes, maxSplitBytes);
        }

        Sizing(long maxSplitBytes, long openCostInBytes) {
            this(maxSplitBytes, openCostInBytes, 0);
        }

        /** A split's open cost when packed: {@link #localOpenCost} for a local file read whole, else Spark's. */
        long openCost(CaptureSplit s) {
            return localWhole(s) ? localOpenCost : openCostInBytes;
        }

        /**
         * The most a task holding {@code s} may weigh: {@link #localTaskBytes} for a local file read whole (Spark's
         * rule with the local open cost: the local files are shared among at least as many tasks as there are
         * cores), else the split size.
         */
        long taskBytes(CaptureSplit s) {
            return localWhole(s) ? localTaskBytes : maxSplitBytes;
        }

        private static boolean localWhole(CaptureSplit s) {
            return s.whole() && s.file().path().startsWith("file:");
        }

        static Sizing of(SparkSession spark, List<CaptureFile> files) {
            return of(key -> spark.conf().contains(key) ? spark.conf().get(key) : null,
                    spark.sparkContext().defaultParallelism(), files);
        }

        /**
         * @param setting     a setting's value, or null when not set
         * @param parallelism the default parallelism (cores of a local master)
         */
        static Sizing of(Function<String, String> setting, int parallelism, List<CaptureFile> files) {
            long maxPartition = bytes(setting, "spark.sql.files.maxPartitionBytes", "128m");
            long openCost = bytes(setting, "spark.sql.files.openCostInBytes", "4m");
            String min = setting.apply("spark.sql.files.minPartitionNum");
            int minPartitions = min != null ? Integer.parseInt(min) : parallelism;
            long total = 0;
            for (CaptureFile f : files) {
                total += f.length() + openCost;
            }
            long perCore = total / Math.max(1, minPartitions);
            long localOpenCost = setting.apply("spark.sql.files.openCostInBytes") != null ? openCost
                    : Math.min(openCost, LOCAL_OPEN_COST);
            long max = Math.max(1, Math.min(maxPartition, Math.max(openCost, perCore)));
            long localTotal = 0;
            for (CaptureFile f : files) {
                boolean localWhole = f.path().startsWith("file:") && f.length() <= max;
                localTotal += f.length() + (localWhole ? localOpenCost : openCost);
            }
            long localTask = Math.max(1, Math.min(max, Math.max(localOpenCost,
                    localTotal / Math.max(1, minPartitions))));
            return new Sizing(max, openCost, Math.max(1, minPartitions), localOpenCost, localTask);
        }

        private static long bytes(Function<String, String> setting, String key, String dflt) {
            String v = setting.apply(key);
            return JavaUtils.byteStringAsBytes(v != null ? v : dflt);
        }
    }

    /** The packing cost of opening a local file read whole, unless {@code spark.sql.files.openCostInBytes} is set. */
    static final long LOCAL_OPEN_COST = 64 * 1024;

    /** Each candidate split may be cut into up to this many pieces where its frames are dense. */
    static final int PIECES_PER_SPLIT = 8;
    /** Frame-count target: the split files' frames shared among at most this many splits per core. */
    static final int SPLITS_PER_CORE = 4;

    /** Lists, splits and packs; see the class comment. */
    public static ReadPlan plan(SparkSession spark, List<String> paths, Configuration conf,
                                Broadcast<SerializableConfiguration> confBroadcast) throws IOException {
        return plan(spark, paths, Archive.SourceRule.DIRECTORY, List.of(), conf, confBroadcast);
    }

    /** As {@link #plan(SparkSession, List, Configuration, Broadcast)}, with a source rule and excluded paths. */
    public static ReadPlan plan(SparkSession spark, List<String> paths, Archive.SourceRule rule, List<String> excluded,
                                Configuration conf, Broadcast<SerializableConfiguration> confBroadcast)
            throws IOException {
        Listed earlyListing = EarlyCount.listing(paths, rule, excluded);
        return plan(spark, earlyListing != null ? earlyListing : list(paths, conf, rule, excluded), confBroadcast);
    }

    /** Splits and packs the files of {@code archive} (a listing, perhaps with files left out: Archive#without). */
    public static ReadPlan plan(SparkSession spark, Archive archive, Configuration conf,
                                Broadcast<SerializableConfiguration> confBroadcast) throws IOException {
        return plan(spark, of(archive, conf), confBroadcast);
    }

    private static ReadPlan plan(SparkSession spark, Listed listed, Broadcast<SerializableConfiguration> confBroadcast) {
        List<CaptureFile> files = listed.files();
        Sizing sizing = Sizing.of(spark, files);
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        // one Spark task per core, each walking a run of consecutive candidates: a candidate takes tens of
        // milliseconds, about what launching a task costs
        ReadPlan plan = plan(files, sizing, tasks -> {
            if (tasks.isEmpty()) {
                return List.of();
            }
            List<SplitCounter.Result> early = EarlyCount.take(tasks);
            return early != null ? early : jsc.parallelize(tasks, Math.min(tasks.size(), sizing.parallelism()))
                    .map(t -> SplitCounter.count(t, confBroadcast.value().value())).collect();
        });
        return new ReadPlan(plan.files(), plan.filePlans(), plan.partitions(), listed.archive());
    }

    /**
     * Splits the files larger than one split into candidate ranges, walks them with {@code counter} (a Spark job,
     * or a loop in tests), and turns the results into splits with exact first frame numbers, or whole-file reads.
     */
    static ReadPlan plan(List<CaptureFile> files, Sizing sizing,
                         Function<List<SplitCounter.Task>, List<SplitCounter.Result>> counter) {
        long max = sizing.maxSplitBytes();
        List<SplitCounter.Task> tasks = countingTasks(files, sizing);
        List<SplitCounter.Result> results = counter.apply(tasks);
        long framesPerSplit = Long.MAX_VALUE;
        if (sizing.parallelism() > 0) {
            long counted = 0;
            for (SplitCounter.Result r : results) {
                counted += r.frames();
            }
            // at most SPLITS_PER_CORE splits' worth of frames per core, and only candidates holding more than
            // twice the average are cut (a file of even density keeps its byte-sized splits: more tasks cost more)
            framesPerSplit = Math.max(1, Math.max(counted / ((long) SPLITS_PER_CORE * sizing.parallelism()),
                    2 * counted / Math.max(1, results.size())));
        }
        List<CaptureSplit> splits = new ArrayList<>();
        Map<CaptureSplit, Long> weights = new java.util.IdentityHashMap<>();
        List<FilePlan> filePlans = new ArrayList<>();
        int t = 0;
        for (CaptureFile f : files) {
            if (f.length() <= max) {
                splits.add(new CaptureSplit(f, 0, 0, Long.MAX_VALUE, 1, true, true));
                filePlans.add(new FilePlan(1, streamOnly(f) ? "not a regular file (a FIFO or device): read once, "
                        + "whole" : "fits in one split (" + max + " bytes)"));
                continue;
            }
            int n = (int) ((f.length() + max - 1) / max);
            List<SplitCounter.Task> ft = tasks.subList(t, t + n);
            List<SplitCounter.Result> fr = results.subList(t, t + n);
            t += n;
            String whole = null;
            int keep = n;
            for (int i = 0; i < n && whole == null; i++) {
                whole = fr.get(i).needsWhole();
                if (whole == null && fr.get(i).errorOffset() >= 0 && keep == n) {
                    keep = i + 1; // a whole-file read stops at the first damage: later splits are not read
                }
            }
            if (whole != null) {
                splits.add(new CaptureSplit(f, 0, 0, Long.MAX_VALUE, 1, true, true));
                filePlans.add(new FilePlan(1, whole));
                continue;
            }
            int before = splits.size();
            long firstFrame = 1;
            for (int i = 0; i < keep; i++) {
                SplitCounter.Task task = ft.get(i);
                SplitCounter.Result res = fr.get(i);
                // Cut the candidate where its frames since the last cut reach the target, at cuts whose frame count
                // the counter could establish; the last piece (to the candidate's end) is what remains.
                long start = task.start(), startFrames = 0;
                for (int c = 0; c < task.cuts().length; c++) {
                    long framesBefore = res.framesBefore()[c];
                    if (framesBefore >= 0 && framesBefore - startFrames >= framesPerSplit) {
                        addSplit(splits, weights, f, splits.size() - before, start, task.cuts()[c],
                                firstFrame + startFrames, framesBefore - startFrames, false, max, framesPerSplit);
                        start = task.cuts()[c];
                        startFrames = framesBefore;
                    }
                }
                addSplit(splits, weights, f, splits.size() - before, start, task.end(), firstFrame + startFrames,
                        res.frames() - startFrames, i == keep - 1, max, framesPerSplit);
                firstFrame += res.frames();
            }
            filePlans.add(new FilePlan(splits.size() - before, null));
        }
        return new ReadPlan(files, filePlans, pack(splits, sizing, s -> weights.getOrDefault(s, s.byteLength())));
    }

    /**
     * A local capture that is not a regular file (a FIFO, {@code /dev/stdin}): it lists with length 0, so it is read
     * whole, once, and never walked for splits; this only names why.
     */
    private static boolean streamOnly(CaptureFile f) {
        return streamOnly(f.path());
    }

    /**
     * Whether the capture at {@code path} (as listed) is a local FIFO or device, readable once only: the one test
     * the planner and the incremental run's fingerprints ({@code spark/InputsState}) use.
     */
    public static boolean streamOnly(String path) {
        try {
            java.net.URI uri = new Path(path).toUri();
            java.nio.file.Path local = "file".equals(uri.getScheme()) ? java.nio.file.Path.of(uri)
                    : uri.getScheme() == null ? java.nio.file.Path.of(uri.getPath()) : null;
            return local != null && ArchiveStore.isStream(local);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The candidate splits of the files larger than one split, for the counting pass. */
    static List<SplitCounter.Task> countingTasks(List<CaptureFile> files, Sizing sizing) {
        long max = sizing.maxSplitBytes();
        List<SplitCounter.Task> tasks = new ArrayList<>();
        for (CaptureFile f : files) {
            if (f.length() > max) {
                for (long start = 0, k = 0; start < f.length(); start += max, k++) {
                    long end = Math.min(f.length(), start + max);
                    tasks.add(new SplitCounter.Task(f.path(), (int) k, start, end,
                            sizing.parallelism() > 0 ? cuts(start, end) : new long[0]));
                }
            }
        }
        return tasks;
    }

    /** Offsets that cut {@code [start, end)} into {@link #PIECES_PER_SPLIT} equal pieces. */
    static long[] cuts(long start, long end) {
        long piece = Math.max(1, (end - start) / PIECES_PER_SPLIT);
        List<Long> out = new ArrayList<>();
        for (long c = start + piece; c < end && out.size() < PIECES_PER_SPLIT - 1; c += piece) {
            out.add(c);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Adds a split of a file read in splits; its packing weight is its bytes or, if larger, its share of the frame
     * target in bytes (a split with the target's frames weighs a whole split), so dense splits are not packed
     * together into one task again.
     */
    private static void addSplit(List<CaptureSplit> splits, Map<CaptureSplit, Long> weights, CaptureFile f,
                                 int index, long start, long end, long firstFrame, long frames, boolean last,
                                 long max, long framesPerSplit) {
        CaptureSplit s = new CaptureSplit(f, index, start, end, firstFrame, false, last);
        splits.add(s);
        if (framesPerSplit != Long.MAX_VALUE) {
            double share = (double) frames / framesPerSplit;
            weights.put(s, Math.max(s.byteLength(), (long) Math.min(max, share * max)));
        }
    }

    /**
     * Packs splits into tasks with Spark's sizes ({@code FilePartition.getFilePartitions}: a task takes splits until
     * the next would take it past the split size, each split costing its bytes plus the open cost), but in file
     * order instead of largest first: each task reads a run of consecutive splits, so the read tasks, in order,
     * read the input in file order, which is what lets {@code analyze}'s shuffle hand each engine task its frames in
     * file order without sorting them.
     */
    static List<CapturePartition> pack(List<CaptureSplit> splits, Sizing sizing) {
        return pack(splits, sizing, CaptureSplit::byteLength);
    }

    /** As {@link #pack(List, Sizing)}, with each split weighing {@code weight} instead of its bytes. */
    static List<CapturePartition> pack(List<CaptureSplit> splits, Sizing sizing,
                                       java.util.function.ToLongFunction<CaptureSplit> weight) {
        List<CaptureSplit> inOrder = new ArrayList<>(splits);
        inOrder.sort(Comparator.comparingInt((CaptureSplit s) -> s.file().index())
                .thenComparingInt(CaptureSplit::splitIndex));
        List<CapturePartition> out = new ArrayList<>();
        List<CaptureSplit> current = new ArrayList<>();
        long size = 0;
        for (CaptureSplit s : inOrder) {
            if (!current.isEmpty() && size + weight.applyAsLong(s) > sizing.taskBytes(s)) {
                out.add(new CapturePartition(List.copyOf(current)));
                current.clear();
                size = 0;
            }
            current.add(s);
            size += weight.applyAsLong(s) + sizing.openCost(s);
        }
        if (!current.isEmpty()) {
            out.add(new CapturePartition(List.copyOf(current)));
        }
        return out;
    }
}
