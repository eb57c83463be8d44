package io.ackscope.cli;

import io.ackscope.capture.Archive;
import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import io.ackscope.report.Format;
import io.ackscope.spark.Analyze;
import io.ackscope.spark.RunSummary;
import io.ackscope.spark.source.EarlyCount;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.tcp.EngineConfig;
import io.ackscope.tcp.FrameFilter;
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

    @Parameter(names = "--incremental", description = "Add to the earlier output in --out: only if a file is new "
            + "or changed (by path, size, time and the checksums of its ends) are the tables redone; with nothing new, "
            + "nothing is touched")
    boolean incremental;

    @Parameter(names = "--settle", description = "With --incremental or --watch: take each source's newest file only once it "
            + "has not been modified for this long (a capture may still be writing it)", converter =
            DurationConverter.class)
    java.time.Duration settle = io.ackscope.spark.carry.Settle.DEFAULT;

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

    @Parameter(names = "--since", description = "Only frames captured at or after this time: ISO-8601 "
            + "(2026-12-03T14:00:00Z, 2026-12-03 14:00:00 = UTC, +01:00 offsets) or epoch seconds (1796205072.5)")
    String since;

    @Parameter(names = "--until", description = "Only frames captured before this time (as --since)")
    String until;

    @Parameter(names = "--server", description = "Only frames from or to HOST[:PORT] (IP literal; IPv6 with a port "
            + "as [::1]:80), both directions of its connections; repeatable")
    List<String> servers = new ArrayList<>();

    @Parameter(names = "--filter", description = "Only frames that pass this capture filter, tcpdump's syntax "
            + "(host, net, port, portrange, src/dst, tcp/udp/ip/ip6, less/greater, and/or/not)")
    String filter;

    @ParametersDelegate
    AnalyzeWatch.Options watch = new AnalyzeWatch.Options();

    private final PrintStream console;

    AnalyzeCommand() {
        this(System.out);
    }

    AnalyzeCommand(PrintStream console) {
        this.console = console;
    }

    @Override
    public int run() throws Exception {
        try {
            return analyze();
        } catch (OutputDirectory.Refused e) {
            throw CommandFailure.line(e.usage() ? EXIT_USAGE : EXIT_FAILURE, e.getMessage(), e);
        } catch (CommandFailure e) {
            throw e;
        } catch (Exception e) {
            throw CommandFailure.line(EXIT_FAILURE, Command.oneLine(e), e);
        }
    }

    private int analyze() throws Exception {
        if (verbose()) {
            URL defaults = SparkConf.class.getClassLoader().getResource("org/apache/spark/log4j2-defaults.properties");
            if (defaults != null) {
                Configurator.reconfigure(defaults.toURI());
            }
        }
        FrameFilter frames;
        try {
            frames = FrameFilter.parse(since, until, servers, filter);
        } catch (IllegalArgumentException e) {
            throw CommandFailure.line(EXIT_USAGE, e.getMessage(), e);
        }
        if (incremental && overwrite) {
            throw CommandFailure.line(EXIT_USAGE, "--incremental adds to --out, --overwrite replaces it: give one", null);
        }
        SparkConf sc = LocalSpark.conf("ackscope analyze", master, conf);
        if (watch.on) {
            return AnalyzeWatch.run(this, sc, frames, console);
        }
        AnalyzeWatch.refuseWithoutWatch(watch);
        // before anything reads an input or Spark starts: overlapping inputs and output are refused, the output is
        // locked for the whole run (a second run is refused at once), an interrupted earlier run is completed
        OutputDirectory prepared = OutputDirectory.prepare(out, inputs,
                org.apache.spark.deploy.SparkHadoopUtil$.MODULE$.newConfiguration(sc), overwrite, incremental);
        try {
            return analyze(sc, prepared, frames);
        } finally {
            prepared.abort(); // nothing once Analyze.run has committed or aborted it
            prepared.close();
        }
    }

    private int analyze(SparkConf sc, OutputDirectory prepared, FrameFilter frames) throws Exception {
        // the listing and split counting start while Spark starts (local masters only; see EarlyCount)
        Archive.SourceRule rule = Archive.SourceRule.parse(sourceBy);
        EarlyCount.start(inputs, rule, List.of(out), sc);
        Analyze.Options options = new Analyze.Options(inputs, out, overwrite, packets, partitions, rule, frames);
        if (incremental) {
            options = options.incremental(settle);
        }
        // an incremental run with nothing new ends here, before Spark starts (cron runs it every few minutes); a
        // one-shot run lists its inputs while Spark starts
        long started = System.nanoTime();
        io.ackscope.spark.carry.ArchiveInputs decided = !incremental ? null : Analyze.decide(prepared, options,
                org.apache.spark.deploy.SparkHadoopUtil$.MODULE$.newConfiguration(sc));
        if (decided != null && decided.kept() != null) {
            System.err.println(TerminalText.escape("ackscope analyze: " + decided.kept()));
        }
        if (decided != null && decided.nothingNew()) {
            EarlyCount.clear();
            RunSummary s = Analyze.nothingNew(prepared, decided, (System.nanoTime() - started) / 1e9);
            skippedLine(s.notRead(), System.err);
            heldBackLine(s.heldBack(), settle, System.err);
            console.println(TerminalText.escape(prepared.previous() == null
                    ? "ackscope analyze: nothing to analyse yet (every file is held back); no output written to " + out
                    : "ackscope analyze: nothing new in " + Format.plural(s.files(), "file", "files") + "; " + out
                    + " is unchanged"));
            return 0;
        }
        if (decided != null && decided.plan() != null) {
            System.err.println(TerminalText.escape("ackscope analyze: " + decided.plan()));
        }
        SparkSession spark = LocalSpark.session(sc);
        try {
            shufflePartitions(spark, sc);
            // the report is made from the staged tables and committed with them (before _SUCCESS); its line is
            // printed after the commit, below the summary
            java.io.ByteArrayOutputStream reportLine = new java.io.ByteArrayOutputStream();
            RunSummary s = Analyze.run(spark, prepared, options, decided, System.err,
                    System.console() != null, (staged, summary) -> ReportCommand.afterAnalyze(staged, summary.out(),
                            new PrintStream(reportLine, true, java.nio.charset.StandardCharsets.UTF_8)));
            skippedLine(s.notRead(), System.err);
            heldBackLine(s.heldBack(), settle, System.err);
            printSummary(s, elapsedSeconds());
            console.print(reportLine.toString(java.nio.charset.StandardCharsets.UTF_8));
            return strict && !s.damaged().isEmpty() ? EXIT_DAMAGED : 0;
        } finally {
            EarlyCount.clear();
            spark.stop();
        }
    }

    /** Spark's fixed reserve of heap for itself (UnifiedMemoryManager.RESERVED_SYSTEM_MEMORY_BYTES). */
    static final long SPARK_RESERVED_BYTES = 300L * 1024 * 1024;

    /**
     * Lets embedded Spark start in a heap below 1.5 x its 300 MiB reserve (Spark 4.1's UnifiedMemoryManager refuses
     * to start there unless {@code spark.testing.reservedMemory} is set): with such a heap, the reserve becomes a third
     * of it. analyze sorts and caches nothing in Spark's memory pools, so the engine and the Parquet writers use the
     * rest. A value given with --conf wins.
     */
    /**
     * Sets the session's {@code spark.sql.shuffle.partitions}, the engine's partitions unless {@code --partitions}
     * is given, to twice Spark's default parallelism, unless {@code sc} (a {@code --conf}) sets it.
     */
    static void shufflePartitions(SparkSession spark, SparkConf sc) {
        if (!sc.contains("spark.sql.shuffle.partitions")) {
            spark.conf().set("spark.sql.shuffle.partitions", 2 * spark.sparkContext().defaultParallelism());
        }
    }

    static void smallHeap(SparkConf sc, long maxHeap) {
        if (maxHeap < SPARK_RESERVED_BYTES * 3 / 2) {
            sc.setIfMissing("spark.testing.reservedMemory", Long.toString(maxHeap / 3));
        }
    }

    /**
     * The inputs not read (files in directories that are not captures, copies, outputs), as one line on standard
     * error: they are not damage, but nothing found in an input is left out silently.
     */
    static void skippedLine(List<Archive.Skipped> notRead, PrintStream err) {
        if (notRead.isEmpty()) {
            return;
        }
        List<String> paths = new ArrayList<>();
        for (Archive.Skipped p : notRead) {
            paths.add(p.path());
        }
        err.println(TerminalText.escape("ackscope analyze: not read (not captures, copies or outputs; reasons in "
                + "_SUCCESS skipped_inputs): " + String.join(", ", paths)));
    }

    /**
     * The files held back by --settle, as one line on standard error; those modified in the future (a clock off on
     * this host or on the writer's) on a line of their own that says so and gives the time.
     */
    static void heldBackLine(List<String> heldBack, java.time.Duration settle, PrintStream err) {
        List<String> recent = new java.util.ArrayList<>(), future = new java.util.ArrayList<>();
        long now = System.currentTimeMillis();
        for (String p : heldBack) {
            long mtime = mtimeMillis(p);
            if (mtime > now) {
                future.add(p + " (" + java.time.Instant.ofEpochMilli(mtime) + ")");
            } else {
                recent.add(p);
            }
        }
        if (!recent.isEmpty()) {
            err.println(TerminalText.escape("ackscope analyze: held back (modified less than " + settle.toMillis() / 1000.0
                    + " s ago; the next run takes them): " + String.join(", ", recent)));
        }
        if (!future.isEmpty()) {
            err.println(TerminalText.escape("ackscope analyze: held back (modified in the future: this host's clock "
                    + "or the writer's is off; taken " + settle.toMillis() / 1000.0 + " s after that time, or "
                    + "once touched): " + String.join(", ", future)));
        }
    }

    /** A listed input's modification time, {@link Long#MIN_VALUE} when it cannot be read. */
    private static long mtimeMillis(String path) {
        try {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
            return p.getFileSystem(new org.apache.hadoop.conf.Configuration()).getFileStatus(p).getModificationTime();
        } catch (java.io.IOException | RuntimeException e) {
            return Long.MIN_VALUE;
        }
    }

    /**
     * The summary: what was read and written, in {@code seconds} of the whole command; how the time went (read
     * tasks, phases, task time) only with {@code --verbose}.
     */
    private void printSummary(RunSummary s, double seconds) {
        console.printf(Locale.ROOT, "ackscope analyze: %s, %s, %s (%,d TCP), %s in %.1f s (%s/s)%n",
                Format.plural(s.files(), "file", "files"), Format.bytes(s.bytes()),
                Format.plural(s.frames(), "frame", "frames"), s.tcpFrames(),
                Format.plural(s.connections(), "connection", "connections"), seconds,
                Format.bytes(Math.round(s.bytes() / Math.max(seconds, 1e-3))));
        if (s.attemptsEvicted() > 0) {
            console.printf(Locale.ROOT, "%,d unanswered connection attempts were emitted before the end of their "
                    + "capture, after %d s without a packet (rows as at the end)%n", s.attemptsEvicted(),
                    EngineConfig.DEFAULTS.attemptTimeoutNanos() / 1_000_000_000L);
        }
        if (s.filteredFrames() > 0 || !s.filter().isNone()) {
            console.printf(Locale.ROOT, "%s left out by %s (counted in capture_files as skipped)%n",
                    Format.plural(s.filteredFrames(), "frame", "frames"),
                    TerminalText.escape(String.join(", ", s.filter().describe().keySet().stream()
                            .map(k -> "--" + k).toList())));
        }
        if (verbose()) {
            console.printf(Locale.ROOT, "read in %s (%s split)%n", Format.plural(s.readTasks(), "task", "tasks"),
                    Format.plural(s.splitFiles(), "file", "files"));
        }
        console.printf(Locale.ROOT, "tables in %s:%n", s.out());
        for (Map.Entry<String, Long> e : s.tableRows().entrySet()) {
            console.printf(Locale.ROOT, "  %-17s %s%n", e.getKey(), Format.plural(e.getValue(), "row", "rows"));
        }
        if (s.sources() > 1) {
            console.printf(Locale.ROOT, "%d capture sources (each read as one capture; see the sources table)%n",
                    s.sources());
        }
        if (!s.notRead().isEmpty()) {
            console.printf(Locale.ROOT, "%s not read:%n", Format.plural(s.notRead().size(), "path", "paths"));
            for (Archive.Skipped p : s.notRead()) {
                console.println("  " + TerminalText.escape(p.path() + ": " + p.reason()));
            }
        }
        if (!s.damaged().isEmpty()) {
            console.printf(Locale.ROOT, "%s (analysed up to the damage; see capture_files):%n",
                    Format.plural(s.damaged().size(), "damaged file", "damaged files"));
            for (String d : s.damaged()) {
                console.println("  " + TerminalText.escape(d));
            }
        }
        if (verbose()) {
            console.print("wall time:");
            s.phaseSeconds().forEach((k, v) -> console.printf(Locale.ROOT, " %s %.1f s;", k, v));
            console.println();
            s.taskTime().forEach((k, v) -> console.printf(Locale.ROOT, "task time, %s: %s%n", k, v));
        }
    }
}
