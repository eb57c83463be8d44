package io.ackscope.spark.watch;

import io.ackscope.spark.commit.CreatedLock;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.commit.OutputOverlap;
import io.ackscope.output.OutputLock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * The input directories of {@code analyze --watch} as a Spark Structured Streaming file source, and its checkpoint.
 *
 * <p>The source is Spark's {@code binaryFile} format with only {@code path}, {@code modificationTime} and
 * {@code length} selected: its reader opens a file only when {@code content} is asked for, so nothing is read through
 * the stream (a 3 GB file, beyond the format's 2 GB limit, lists without error); the captures are read by the
 * incremental run, which lists the inputs itself. The stream is what says that files arrived, and its checkpoint
 * (the file source's log of the files it has handed over, and the batches committed) is what a restart resumes from.
 * Nested source directories ({@code archive/hostA/...}) are found with {@code recursiveFileLookup}; names starting
 * with {@code _} or {@code .} are skipped by Spark as by {@code analyze}'s own listing. A file arriving with an old
 * modification time (copied with {@code rsync -t} from a sensor) is new too: the source's {@code maxFileAge}, beyond
 * which Spark ignores files older than the newest it has seen, is set to {@value #MAX_FILE_AGE}; its log of seen
 * files then keeps one entry per file (Spark compacts it every ten batches).
 *
 * <p><b>Checkpoint.</b> By default {@code DIR/_ackscope_checkpoint}, beside the tables and hidden from every reader
 * of them by its leading {@code _}, so that it moves and is deleted with the output it belongs to. One given with
 * {@code --checkpoint} may lie anywhere but inside an input (the stream would list it as captures) or inside the
 * output other than as such a hidden entry of its own (a table directory, or ackscope's state, is replaced by
 * commits). The checkpoint belongs to one list of inputs: Spark numbers the sources of the query in order.
 *
 * <p><b>Lock.</b> The watch holds {@code CHECKPOINT/_ackscope.lock} ({@link OutputLock}; {@link CreatedLock} on
 * Hadoop filesystems) for its whole life, so a second watch on the same checkpoint is refused at start instead of
 * corrupting Spark's logs. The output's own lock is taken by each run, as by any {@code analyze}.
 */
public final class WatchedInputs {
    /** Default checkpoint directory, inside the output directory. */
    public static final String DEFAULT_CHECKPOINT = OutputDirectory.CHECKPOINT;

    /** The file source's {@code maxFileAge}: in effect none (see the class comment). */
    static final String MAX_FILE_AGE = "36500d";

    /** Spark's schema of the {@code binaryFile} format (a streaming source needs it given). */
    private static final String BINARY_FILE_SCHEMA =
            "path STRING, modificationTime TIMESTAMP, length BIGINT, content BINARY";

    private WatchedInputs() {
    }

    /** The checkpoint directory: {@code given}, or the default inside {@code out}. */
    static String checkpoint(String given, String out) {
        return given != null ? given : new Path(out, DEFAULT_CHECKPOINT).toString();
    }

    /**
     * Refuses an input that is a file (nothing arrives in a file: watch its directory), a checkpoint inside an input
     * or an input inside it, and a checkpoint inside {@code out} other than as a direct child named {@code _...}
     * that is not one of ackscope's own entries. Usage errors ({@link OutputDirectory.Refused}).
     */
    static void check(List<String> inputs, String out, String checkpoint, Configuration conf) throws IOException {
        Path ck = new Path(checkpoint);
        FileSystem cfs = ck.getFileSystem(conf);
        String ckKey = OutputOverlap.key(cfs, cfs.makeQualified(ck));
        for (String in : inputs) {
            Path p = new Path(in);
            FileSystem fs = p.getFileSystem(conf);
            FileStatus[] matched = fs.globStatus(p);
            if (matched != null && matched.length == 1 && matched[0].isFile() && !isGlob(in)) {
                throw new OutputDirectory.Refused("--watch: input " + in + " is a file; new captures arrive in a "
                        + "directory: watch the directory it is in", true);
            }
            if (matched == null || !fs.getUri().equals(cfs.getUri())) {
                continue;
            }
            for (FileStatus s : matched) {
                String k = OutputOverlap.key(fs, s.getPath());
                if (OutputOverlap.within(ckKey, k) || OutputOverlap.within(k, ckKey)) {
                    throw new OutputDirectory.Refused("--checkpoint " + checkpoint + " and input " + in
                            + " overlap: the stream would list its own checkpoint as captures", true);
                }
            }
        }
        Path o = new Path(out);
        FileSystem ofs = o.getFileSystem(conf);
        if (!ofs.getUri().equals(cfs.getUri())) {
            return;
        }
        String outKey = OutputOverlap.key(ofs, ofs.makeQualified(o));
        if (!OutputOverlap.within(ckKey, outKey)) {
            return;
        }
        String rest = ckKey.substring(Math.min(ckKey.length(), outKey.length() + 1));
        if (rest.isEmpty() || rest.contains("/") || !rest.startsWith("_") || ownEntry(rest)) {
            throw new OutputDirectory.Refused("--checkpoint " + checkpoint + " lies inside the output " + out
                    + " where commits replace what they find; inside it, use a direct child named _something, "
                    + "such as the default " + DEFAULT_CHECKPOINT, true);
        }
    }

    private static boolean isGlob(String path) {
        return path.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }

    /** ackscope's own entries of an output directory, which a checkpoint must not take the place of. */
    private static boolean ownEntry(String name) {
        return !name.equals(DEFAULT_CHECKPOINT) && name.startsWith("_ackscope") || name.equals(OutputDirectory.SUCCESS);
    }

    /** Creates the checkpoint directory if need be and takes its lock (see the class comment). */
    static AutoCloseable lock(String checkpoint, Configuration conf) throws IOException {
        Path ck = new Path(checkpoint);
        FileSystem fs = ck.getFileSystem(conf);
        ck = fs.makeQualified(ck);
        if (!fs.mkdirs(ck)) {
            throw new IOException("cannot create the checkpoint directory " + OutputDirectory.show(ck));
        }
        try {
            return "file".equals(fs.getScheme())
                    ? OutputLock.acquire(java.nio.file.Path.of(ck.toUri()), "analyze --watch")
                    : CreatedLock.acquire(fs, new Path(ck, OutputLock.FILE));
        } catch (OutputLock.Busy e) {
            throw new OutputDirectory.Refused("--checkpoint " + checkpoint + " is in use by another watch: "
                    + e.getMessage(), false);
        }
    }

    /**
     * Starts the stream over {@code inputs}: every micro-batch (at most one per {@code poll}) hands its count of new
     * files to {@code batches}, on the stream's thread; the batch is committed to the checkpoint when that returns.
     */
    static StreamingQuery start(SparkSession spark, List<String> inputs, String checkpoint, Duration poll,
                                VoidFunction2<Dataset<Row>, Long> batches) throws TimeoutException {
        Dataset<Row> files = null;
        for (String in : inputs) {
            Dataset<Row> one = spark.readStream().format("binaryFile").schema(BINARY_FILE_SCHEMA)
                    .option("recursiveFileLookup", "true").option("maxFileAge", MAX_FILE_AGE).load(in)
                    .select("path", "modificationTime", "length");
            files = files == null ? one : files.union(one);
        }
        return files.writeStream().queryName("ackscope-watch").option("checkpointLocation", checkpoint)
                .trigger(Trigger.ProcessingTime(poll.toMillis())).foreachBatch(batches).start();
    }
}
