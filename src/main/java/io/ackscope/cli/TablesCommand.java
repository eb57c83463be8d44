package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A command that reads analyze outputs with Spark ({@code sql}, {@code export}): its Spark options, where its
 * result and its messages go, and the session, embedded unless {@code --master} or spark-submit says otherwise.
 * Timestamps come back as {@link java.time.Instant}s and are shown in UTC.
 */
abstract class TablesCommand extends Command {

    @Parameter(names = "--master", description = "Spark master (default: local[*])")
    String master;

    @Parameter(names = "--conf", description = "Spark setting k=v (repeatable)")
    List<String> conf = new ArrayList<>();

    /** Where the result goes when it is not written to a file. */
    final PrintStream stdout;
    /** Where messages go. */
    final PrintStream console;

    TablesCommand(PrintStream stdout, PrintStream console) {
        this.stdout = stdout;
        this.console = console;
    }

    /** A new session; the caller stops it. */
    final SparkSession session(String appName) throws CommandFailure {
        SparkConf sc = LocalSpark.conf(appName, master, conf);
        sc.setIfMissing("spark.sql.datetime.java8API.enabled", "true");
        sc.setIfMissing("spark.sql.session.timeZone", "UTC");
        // a query over one machine's tables: Spark's 200 shuffle partitions are 200 tasks per aggregation or sort
        // (analyze uses twice its parallelism too)
        if (!sc.contains("spark.sql.shuffle.partitions")) {
            int cores = Runtime.getRuntime().availableProcessors();
            sc.set("spark.sql.shuffle.partitions", Integer.toString(Math.max(2, 2 * cores)));
        }
        // adaptive execution runs each shuffle's stage as a job of its own and plans the rest again after it: with
        // that handful of partitions it has little to adapt, and a short query pays for the planning (`sql OUT
        // "select count(*) from connections"` on the bundled sample, 2-core VM, 6 interleaved pairs: 3.15 s median
        // without it, 3.34 s with it; a group-by over 217 k connections and export --zeek-conn: no difference)
        sc.setIfMissing("spark.sql.adaptive.enabled", "false");
        return LocalSpark.session(sc);
    }
}
