package io.ackscope.cli;

import io.ackscope.capture.Archive;
import io.ackscope.capture.CaptureText;
import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.spark.Analyze;
import io.ackscope.spark.EarlyCount;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code ackscope analyze INPUT... --out DIR}: the Spark job from captures to Parquet tables. */
@Parameters(commandDescription = "Analyse captures with Spark (embedded local[*] unless --master or spark-submit "
        + "says otherwise) and write Parquet tables to --out")
final class AnalyzeCommand extends Command {

    /** Exit code when the tables were written but --strict was given and some capture was damaged. */
    static final int EXIT_DAMAGED = 3;

    @Parameter(description = "INPUT... (capture files, directories or globs; any Hadoop filesystem URI)",
            required = true)
    List<String> inputs = new ArrayList<>();

    @Parameter(names = "--out", description = "Output directory for the tables", required = true)
    String out;

    @Parameter(names = "--master", description = "Spark master (default: local[*], or what spark-submit set)")
    String master;

    @Parameter(names = "--conf", description = "Spark setting k=v (repeatable)")
    List<String> conf = new ArrayList<>();

    @Parameter(names = "--overwrite", description = "Replace an earlier ackscope output in --out")
    boolean overwrite;

    @Parameter(names = "--strict", description = "Exit with status 3 if any capture is damaged")
    boolean strict;

    @Parameter(names = "--packets", description = "Also write the packets table (one row per frame)")
    boolean packets;

    @Parameter(names = "--partitions", description = "Shuffle partitions for the engine (default: "
            + "spark.sql.shuffle.partitions, which analyze sets to 2 x the cores unless given)")
    int partitions;

    @Parameter(names = "--source-by", description = "Capture source of each file: dir (default: its directory "
            + "relative to the input), file (each file its own source), or a regular expression whose first group, "
            + "found in the file's path, names it")
    String sourceBy;

    @Parameter(names = "--verbose", description = "Spark's own logging instead of ackscope's quiet setting")
    boolean verbose;

    private final PrintStream console;

    AnalyzeCommand() {
        this(System.out);
    }

    AnalyzeCommand(PrintStream console) {
        this.console = console;
    }

    @Override
    public int run() throws Exception {
        if (verbose) {
            URL defaults = SparkConf.class.getClassLoader().getResource("org/apache/spark/log4j2-defaults.properties");
            if (defaults != null) {
                Configurator.reconfigure(defaults.toURI());
            }
        }
        SparkConf sc = new SparkConf().setAppName("ackscope analyze");
        for (String kv : conf) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--conf wants k=v, not " + kv);
            }
            sc.set(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        boolean embedded = master != null ? master.startsWith("local") : !sc.contains("spark.master");
        if (master != null) {
            sc.setMaster(master);
        } else if (!sc.contains("spark.master")) {
            sc.setMaster("local[*]");
        }
        if (embedded) {
            sc.setIfMissing("spark.ui.enabled", "false");
            sc.setIfMissing("spark.driver.host", "127.0.0.1");
            sc.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
        }
        // the split counting starts while Spark starts (local masters only; see EarlyCount)
        EarlyCount.start(inputs, sc);
        // the classic session's own builder: SparkSession.builder() first looks for its implementation with Scala
        // runtime reflection (0.6 s of CPU before anything else starts), and analyze only ever runs classic Spark
        SparkSession spark = org.apache.spark.sql.classic.SparkSession.builder().config(sc).getOrCreate();
        try {
            if (!sc.contains("spark.sql.shuffle.partitions")) {
                spark.conf().set("spark.sql.shuffle.partitions", 2 * spark.sparkContext().defaultParallelism());
            }
            long started = System.nanoTime();
            Analyze.Summary s = Analyze.run(spark,
                    new Analyze.Options(inputs, out, overwrite, packets, partitions,
                            Archive.SourceRule.parse(sourceBy)), System.err,
                    System.console() != null);
            printSummary(s, (System.nanoTime() - started) / 1e9);
            ReportCommand.afterAnalyze(s.out(), console);
            return strict && !s.damaged().isEmpty() ? EXIT_DAMAGED : 0;
        } finally {
            EarlyCount.clear();
            spark.stop();
        }
    }

    private void printSummary(Analyze.Summary s, double seconds) {
        console.printf(Locale.ROOT, "ackscope analyze: %d file%s, %s, %,d frames (%,d TCP), %,d connections in %.1f s"
                        + " (%.0f MB/s)%n", s.files(), s.files() == 1 ? "" : "s", human(s.bytes()), s.frames(),
                s.tcpFrames(), s.connections(), seconds, s.bytes() / 1e6 / Math.max(seconds, 1e-3));
        console.printf(Locale.ROOT, "read in %d task%s (%d file%s split)%n", s.readTasks(),
                s.readTasks() == 1 ? "" : "s", s.splitFiles(), s.splitFiles() == 1 ? "" : "s");
        console.printf(Locale.ROOT, "tables in %s:%n", s.out());
        for (Map.Entry<String, Long> e : s.tableRows().entrySet()) {
            console.printf(Locale.ROOT, "  %-16s %,d rows%n", e.getKey(), e.getValue());
        }
        if (s.sources() > 1) {
            console.printf(Locale.ROOT, "%d capture sources (each read as one capture; see the sources table)%n",
                    s.sources());
        }
        if (!s.notRead().isEmpty()) {
            console.printf(Locale.ROOT, "%d path%s not read:%n", s.notRead().size(),
                    s.notRead().size() == 1 ? "" : "s");
            for (String p : s.notRead()) {
                console.println("  " + CaptureText.terminal(p));
            }
        }
        if (!s.damaged().isEmpty()) {
            console.printf(Locale.ROOT, "%d damaged file%s (analysed up to the damage; see capture_files):%n",
                    s.damaged().size(), s.damaged().size() == 1 ? "" : "s");
            for (String d : s.damaged()) {
                console.println("  " + d);
            }
        }
        console.print("wall time:");
        s.phaseSeconds().forEach((k, v) -> console.printf(Locale.ROOT, " %s %.1f s;", k, v));
        console.println();
        s.taskTime().forEach((k, v) -> console.printf(Locale.ROOT, "task time, %s: %s%n", k, v));
    }

    private static String human(long bytes) {
        return bytes >= 1 << 30 ? String.format(Locale.ROOT, "%.2f GB", bytes / (double) (1 << 30))
                : String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1 << 20));
    }
}
