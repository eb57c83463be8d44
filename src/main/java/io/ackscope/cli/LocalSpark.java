package io.ackscope.cli;

import io.ackscope.spark.commit.NioLocalFileSystem;
import org.apache.spark.SparkConf;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.SparkSession;

import java.util.List;

/**
 * The Spark configuration of a command that runs Spark: {@code --conf k=v} pairs, {@code --master} or what
 * spark-submit set, else embedded {@code local[*]} bound to the loopback interface with no UI and a reserve that
 * lets a small heap start (see {@link AnalyzeCommand#smallHeap}); {@code file:} is {@link NioLocalFileSystem} unless the
 * configuration names another. And the session started from it ({@link #session}).
 */
final class LocalSpark {

    private LocalSpark() {
    }

    /** The configuration; {@code master} may be null. Throws a usage failure for a malformed {@code --conf}. */
    static SparkConf conf(String appName, String master, List<String> conf) throws CommandFailure {
        SparkConf sc = new SparkConf().setAppName(appName);
        for (String kv : conf) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw CommandFailure.line(Command.EXIT_USAGE, "--conf wants k=v, not " + kv, null);
            }
            sc.set(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        // file: outputs without a chmod process per directory and file (on every master: the class is in the jar)
        sc.setIfMissing("spark.hadoop." + NioLocalFileSystem.KEY, NioLocalFileSystem.class.getName());
        boolean embedded = master != null ? master.startsWith("local") : !sc.contains("spark.master");
        if (master != null) {
            sc.setMaster(master);
        } else if (!sc.contains("spark.master")) {
            sc.setMaster("local[*]");
        }
        if (embedded) {
            AnalyzeCommand.smallHeap(sc, Runtime.getRuntime().maxMemory());
            sc.setIfMissing("spark.ui.enabled", "false");
            // a task out of memory fails its job (the command then says so, exit 1) instead of Spark's handler
            // ending the JVM with status 52, outside the documented exit codes
            sc.setIfMissing("spark.executor.killOnFatalError.depth", "0");
            sc.setIfMissing("spark.driver.host", "127.0.0.1");
            sc.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
            // Spark's shuffle checksum finds no corruption (decompressing a block does); once one is found, it
            // tells whether a disk or the network between hosts caused it. Embedded, the shuffle crosses no
            // network, and computing it over every block written and read cost 0.3-0.7 CPU-s of analyze on a
            // 3.4 M-frame capture (docs/performance.md).
            sc.setIfMissing("spark.shuffle.checksum.enabled", "false");
        }
        return sc;
    }

    /**
     * The classic session for {@code sc} (SparkSession.builder() would first look for its implementation with
     * Scala runtime reflection: 0.6 s of CPU). Embedded, Spark's own temporary directories (the block manager's,
     * the session's and its files') are then deleted in this JVM when Spark stops, instead of by one {@code rm -rf}
     * process each: Spark chooses the native command through {@link JavaUtils#isUnix}, read at that point only
     * (its other users copied it when Spark started), and its Java deletion is the fallback it uses wherever that
     * command fails. A cluster's driver is left as Spark configures it.
     */
    static SparkSession session(SparkConf sc) {
        boolean embedded = sc.get("spark.master", "").startsWith("local");
        if (embedded) {
            withoutPageSizeProcess(sc);
        }
        SparkSession spark = org.apache.spark.sql.classic.SparkSession.builder().config(sc).getOrCreate();
        if (embedded) {
            org.apache.spark.util.Utils.isUnix();   // Spark's own copy is taken first (a no-op once started)
            JavaUtils.isUnix = false;
        }
        return spark;
    }

    /**
     * Makes Spark's process-tree metrics reader ({@code ProcfsMetricsGetter.pTreeInfo}, one per JVM, made at the
     * first executor heartbeat or at Spark's stop) without the {@code getconf PAGESIZE} process its constructor
     * starts, when {@code spark.executor.processTreeMetrics.enabled} is off (the default: the reader then reports
     * zeros and never uses the page size). Spark skips that command when {@code spark.testing} is set, but then
     * turns the reader on; so the reader is made here, before Spark starts any thread, with {@code spark.testing}
     * set for its constructor alone, and turned off again as the configuration has it. If Spark's class is not as
     * expected, it is left for Spark to make (with the process).
     */
    static void withoutPageSizeProcess(SparkConf sc) {
        if (sc.getBoolean("spark.executor.processTreeMetrics.enabled", false)
                || System.getProperty("spark.testing") != null || System.getenv("SPARK_TESTING") != null) {
            return;
        }
        Class<?> getter;
        try {
            getter = Class.forName("org.apache.spark.executor.ProcfsMetricsGetter", false,
                    LocalSpark.class.getClassLoader());
            java.lang.reflect.Field available = getter.getDeclaredField("isAvailable");
            available.setAccessible(true);
            org.apache.spark.util.Utils.isTesting();   // Spark's utilities initialised before the property is set
            System.setProperty("spark.testing", "true");
            Object reader;
            try {
                reader = org.apache.spark.executor.ProcfsMetricsGetter$.MODULE$.pTreeInfo();
            } finally {
                System.clearProperty("spark.testing");
            }
            available.setBoolean(reader, false);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // Spark's reader changed: Spark makes it itself
        }
    }
}
