package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import io.ackscope.capture.Archive;
import io.ackscope.report.Format;
import io.ackscope.spark.Analyze;
import io.ackscope.spark.RunSummary;
import io.ackscope.spark.watch.WatchLoop;
import io.ackscope.tcp.FrameFilter;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code analyze --watch}: the options, and the one Spark session in which {@link WatchLoop} runs an incremental
 * {@code analyze} each time captures arrive. Apart from {@link AnalyzeCommand} so that the one-shot command stays
 * as it is; the watch is that command's incremental run, repeated.
 *
 * <p>SIGINT and SIGTERM are routed to {@link WatchLoop#stop} (not to JVM shutdown): the run in progress commits,
 * the stream stops, the locks are released and the command exits 0. A second signal exits at once (status 130 or
 * 143); the commit protocol leaves the output readable and the next run completes it.
 */
final class AnalyzeWatch {

    /** The watch's options, delegated from {@link AnalyzeCommand}. */
    static final class Options {
        @Parameter(names = "--watch", description = "Keep running: analyse the captures that arrive in the input "
                + "directories (Spark Structured Streaming file source), each once closed (see --settle), until "
                + "SIGINT/SIGTERM, --stop-after or --max-runs")
        boolean on;

        @Parameter(names = "--checkpoint", description = "With --watch: the stream's checkpoint directory "
                + "(default: DIR/_ackscope_checkpoint inside --out; not inside an input)")
        String checkpoint;

        @Parameter(names = "--stop-after", description = "With --watch: stop after this long (after the run in "
                + "progress), e.g. 1h", converter = DurationConverter.class)
        Duration stopAfter;

        @Parameter(names = "--max-runs", description = "With --watch: stop after this many runs that analysed new "
                + "files (0: no limit)")
        int maxRuns;
    }

    private AnalyzeWatch() {
    }

    /** Refuses the watch's own options without {@code --watch} (a usage error). */
    static void refuseWithoutWatch(Options o) throws CommandFailure {
        String given = o.checkpoint != null ? "--checkpoint" : o.stopAfter != null ? "--stop-after"
                : o.maxRuns != 0 ? "--max-runs" : null;
        if (given != null) {
            throw CommandFailure.line(Command.EXIT_USAGE, given + " goes with --watch", null);
        }
    }

    /** Runs the watch of {@code c}'s inputs into {@code c.out} until stopped; the exit status. */
    static int run(AnalyzeCommand c, SparkConf sc, FrameFilter frames, PrintStream console) throws Exception {
        Options o = c.watch;
        if (c.overwrite) {
            throw CommandFailure.line(Command.EXIT_USAGE, "--watch adds to --out incrementally; it does not take "
                    + "--overwrite", null);
        }
        if (o.maxRuns < 0) {
            throw CommandFailure.line(Command.EXIT_USAGE, "--max-runs must be >= 0, got " + o.maxRuns, null);
        }
        WatchLoop.Settings s = new WatchLoop.Settings(c.inputs, c.out, WatchLoop.checkpoint(o.checkpoint, c.out),
                c.settle, o.maxRuns, o.stopAfter);
        Configuration conf = org.apache.spark.deploy.SparkHadoopUtil$.MODULE$.newConfiguration(sc);
        WatchLoop.check(s, conf); // usage errors before Spark starts
        Archive.SourceRule rule = Archive.SourceRule.parse(c.sourceBy);
        WatchLoop loop = new WatchLoop();
        TerminationSignals.install(() -> {
            if (loop.stopping()) {
                System.exit(130); // a second signal: do not wait for the run in progress
            }
            loop.stop();
        });
        SparkSession spark = LocalSpark.session(sc);
        try {
            AnalyzeCommand.shufflePartitions(spark, sc);
            console.printf(Locale.ROOT, "watch: %s into %s, checkpoint %s, settle %s s%n",
                    TerminalText.escape(String.join(", ", c.inputs)), TerminalText.escape(c.out),
                    TerminalText.escape(s.checkpoint()),
                    java.math.BigDecimal.valueOf(c.settle.toMillis(), 3).stripTrailingZeros().toPlainString());
            int took = loop.watch(spark, s, new IncrementalRun(c, spark, rule, frames), console);
            console.printf(Locale.ROOT, "watch: stopped after %s that took files%n", Format.plural(took, "run",
                    "runs"));
            return 0;
        } finally {
            spark.stop();
        }
    }

    /**
     * One {@code analyze --incremental} run over all the inputs, in the watch's session: it takes the output's lock
     * for the run, skips the files its manifest lists unchanged, holds back files that have not settled, commits all
     * or nothing and rebuilds the report.
     */
    private static final class IncrementalRun implements WatchLoop.Run {
        private final Analyze.Options options;
        private final SparkSession spark;

        IncrementalRun(AnalyzeCommand c, SparkSession spark, Archive.SourceRule rule, FrameFilter frames) {
            this.options = new Analyze.Options(c.inputs, c.out, false, c.packets, c.partitions, rule, frames)
                    .incremental(c.settle);
            this.spark = spark;
        }

        @Override
        public WatchLoop.Outcome run() throws Exception {
            ByteArrayOutputStream report = new ByteArrayOutputStream();
            RunSummary s = Analyze.run(spark, options, System.err, false, (staged, summary) ->
                    ReportCommand.afterAnalyze(staged, summary.out(), new PrintStream(report, true,
                            StandardCharsets.UTF_8)));
            AnalyzeCommand.skippedLine(s.notRead(), System.err);
            String reportLine = report.toString(StandardCharsets.UTF_8);
            if (reportLine.startsWith("report: not written")) {
                System.err.print(TerminalText.escape(reportLine.strip()) + System.lineSeparator());
            }
            String line = s.nothingNew() ? "nothing new" : String.format(Locale.ROOT, "analysed %s, %s, %s",
                    Format.plural(s.files(), "file", "files"), Format.plural(s.frames(), "frame", "frames"),
                    Format.plural(s.connections(), "connection", "connections"));
            if (!s.damaged().isEmpty()) {
                line += ", " + Format.plural(s.damaged().size(), "damaged file", "damaged files")
                        + " (analysed up to the damage; see capture_files)";
            }
            return new WatchLoop.Outcome(!s.nothingNew(), s.outputFiles(), s.heldBack(), line);
        }
    }
}
