package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.output.OutputLock;
import io.ackscope.report.Report;
import io.ackscope.report.ReportData;
import io.ackscope.report.ReportFilter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ackscope report DIR}: the HTML summary page of an {@code analyze} output directory, from its tables
 * (no Spark, no re-analysis), optionally for some servers or a time window. A filtered page goes beside the full
 * {@code report.html} unless {@code --out} says where; a filter that matches nothing is an error (exit 1) that
 * names the filter and some server endpoints the tables do have.
 */
@Parameters(commandDescription = "Write the HTML report of an analyze output directory (default DIR/report.html), "
        + "optionally for some servers or a time window")
final class ReportCommand extends Command {

    @Parameter(description = "DIR (an ackscope analyze output directory)", required = true)
    List<String> dirs = new ArrayList<>();

    @Parameter(names = "--out", description = "Report file (default: DIR/report.html; filtered: beside it, "
            + "DIR/report-FILTER.html, so the full report stays)")
    String out;

    @Parameter(names = "--server", description = "Only this server endpoint, HOST[:PORT] ([v6]:PORT; a host alone: "
            + "all its ports), as analyze --server; repeatable")
    List<String> servers = new ArrayList<>();

    @Parameter(names = "--source", description = "Only this capture source (the tables' source column); repeatable")
    List<String> sources = new ArrayList<>();

    @Parameter(names = "--since", description = "Only measurements from this time on (ISO-8601, UTC unless an "
            + "offset is given, 2026-12-03 14:00:00 too, or epoch seconds), as analyze --since")
    String since;

    @Parameter(names = "--until", description = "Only measurements before this time")
    String until;

    private final PrintStream console;

    ReportCommand() {
        this(System.out);
    }

    ReportCommand(PrintStream console) {
        this.console = console;
    }

    @Override
    public int run() throws IOException, CommandFailure {
        if (dirs.size() != 1) {
            throw CommandFailure.line(EXIT_USAGE, "give one analyze output directory, not " + dirs.size(), null);
        }
        Path dir = Path.of(dirs.get(0));
        ReportFilter filter = ReportFilter.parse(servers, since, until).withSources(sources);
        Path file = out != null ? Path.of(out) : dir.resolve(filter.fileName());
        if (out != null) {
            ResultTarget.refuse("--out", out, dirs, true);
        }
        long start = System.nanoTime();
        try (OutputLock lock = lock(dir)) {
            if (lock != null && io.ackscope.spark.commit.OutputDirectory.recoverLocal(dir)) {
                console.println("report: completed or removed what an interrupted analyze run left in " + dir);
            }
            ReportData d = Report.data(dir, filter, true);
            String nothing = Report.nothingMatched(dir, d, filter, EXAMPLE_SERVERS);
            if (nothing != null) {
                // not an empty page that reads "all clear": the filter is wrong, say so and fail
                throw new IllegalArgumentException(nothing + "; no report written");
            }
            Report.write(d, file);
            summary(console, file, d, start);
        }
        return 0;
    }

    /** Server endpoints named when a filter matches nothing. */
    private static final int EXAMPLE_SERVERS = 5;

    /**
     * The output's lock, so that the report neither reads an output that {@code analyze} is replacing nor writes
     * {@code report.html} into it, and may complete an interrupted commit ({@code analyze}'s recovery); null where there is nothing to lock (no such directory) or no right to (a
     * read-only output is read without it).
     */
    private static OutputLock lock(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try {
            return OutputLock.acquire(dir, "report");
        } catch (java.nio.file.AccessDeniedException | java.nio.file.ReadOnlyFileSystemException e) {
            return null;
        } catch (java.nio.file.FileSystemException e) {
            if (e.getMessage() != null && e.getMessage().contains("Read-only file system")) {
                return null;
            }
            throw e;
        }
    }

    private static void summary(PrintStream console, Path file, ReportData d, long startNanos) {
        console.printf(java.util.Locale.ROOT, "report: %s (%s; %d connection%s; %.1f s)%n", file,
                d.verdict().headline(), d.input().selected(), d.input().selected() == 1 ? "" : "s",
                (System.nanoTime() - startNanos) / 1e9);
        List<ReportData.Source> sources = d.input().sources();
        for (ReportData.Source s : sources) {
            if (s.followOnWarning() != null) {
                console.println(TerminalText.escape("warning: " + s.followOnWarning()));
            }
        }
        if (sources.size() > 1 || sources.stream().anyMatch(s -> s.notFollowing() != null)) {
            for (ReportData.Source s : sources) {
                if (s.verdict() != null) {
                    console.println(TerminalText.escape("  source " + s.name() + ": " + s.verdict()));
                }
            }
        }
    }

    /**
     * While {@code analyze} commits: writes {@code staged/report.html} from the staged tables (Hadoop paths) when
     * the output is on the local filesystem, so that it is committed with them; otherwise says how to make it. The
     * tables are the job's result: a report that cannot be written is reported on the console and does not change
     * the exit status, except when the disk is full (the run fails then and nothing is committed).
     */
    static void afterAnalyze(String staged, String out, PrintStream console) throws IOException {
        try {
            writeAfterAnalyze(staged, out, console);
        } catch (IOException | RuntimeException e) {
            if (io.ackscope.spark.commit.NoSpace.is(e)) {
                throw e;
            }
            console.println("report: not written (" + e + "); the tables are complete: run ackscope report " + out);
        }
    }

    private static void writeAfterAnalyze(String staged, String out, PrintStream console) throws IOException {
        Path dir = local(staged), finalDir = local(out);
        if (dir == null || finalDir == null) {
            console.println("report: not written (" + out + " is not a local directory); copy the tables and run "
                    + "ackscope report DIR");
            return;
        }
        long start = System.nanoTime();
        ReportData d = Report.write(dir, finalDir.toString(), dir.resolve(Report.FILE_NAME), ReportFilter.ALL);
        summary(console, finalDir.resolve(Report.FILE_NAME), d, start);
    }

    /** The local path of a Hadoop path ({@code file:/x} or a plain path), null for another filesystem. */
    private static Path local(String hadoopPath) {
        if (hadoopPath.startsWith("file:")) {
            return Path.of(hadoopPath.substring("file:".length()).replaceFirst("^/+", "/"));
        }
        return hadoopPath.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") ? null : Path.of(hadoopPath);
    }
}
