package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.report.Report;
import io.ackscope.report.ReportData;
import io.ackscope.report.ReportFilter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ackscope report DIR}: the HTML summary page of an {@code analyze} output directory, from its tables
 * (no Spark, no re-analysis), optionally for some servers or a time window.
 */
@Parameters(commandDescription = "Write the HTML report of an analyze output directory (default DIR/report.html), "
        + "optionally for some servers or a time window")
final class ReportCommand extends Command {

    @Parameter(description = "DIR (an ackscope analyze output directory)", required = true)
    List<String> dirs = new ArrayList<>();

    @Parameter(names = "--out", description = "Report file (default: DIR/report.html)")
    String out;

    @Parameter(names = "--server", description = "Only this server endpoint, HOST:PORT ([v6]:PORT); repeatable")
    List<String> servers = new ArrayList<>();

    @Parameter(names = "--source", description = "Only this capture source (the tables' source column); repeatable")
    List<String> sources = new ArrayList<>();

    @Parameter(names = "--since", description = "Only measurements from this time on (ISO-8601, UTC unless an "
            + "offset is given, or epoch seconds)")
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
    public int run() throws IOException {
        if (dirs.size() != 1) {
            throw new IllegalArgumentException("give one analyze output directory, not " + dirs.size());
        }
        Path dir = Path.of(dirs.get(0));
        Path file = out != null ? Path.of(out) : dir.resolve(Report.FILE_NAME);
        long start = System.nanoTime();
        ReportData d = Report.write(dir, file, ReportFilter.parse(servers, since, until).withSources(sources));
        summary(console, file, d, start);
        return 0;
    }

    private static void summary(PrintStream console, Path file, ReportData d, long startNanos) {
        console.printf(java.util.Locale.ROOT, "report: %s (%s; %d connection%s; %.1f s)%n", file,
                d.verdict().headline(), d.input().selected(), d.input().selected() == 1 ? "" : "s",
                (System.nanoTime() - startNanos) / 1e9);
    }

    /**
     * After {@code analyze} committed its tables in {@code out} (a Hadoop path): writes {@code out/report.html}
     * when {@code out} is on the local filesystem; otherwise says how to make it. The tables are the job's result:
     * a report that cannot be written is reported on the console and does not change the exit status.
     */
    static void afterAnalyze(String out, PrintStream console) {
        try {
            writeAfterAnalyze(out, console);
        } catch (IOException | RuntimeException e) {
            console.println("report: not written (" + e + "); the tables are complete: run ackscope report " + out);
        }
    }

    private static void writeAfterAnalyze(String out, PrintStream console) throws IOException {
        String local = out.startsWith("file:") ? out.substring("file:".length()).replaceFirst("^/+", "/")
                : out.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") ? null : out;
        if (local == null) {
            console.println("report: not written (" + out + " is not a local directory); copy the tables and run "
                    + "ackscope report DIR");
            return;
        }
        Path dir = Path.of(local);
        long start = System.nanoTime();
        Path file = dir.resolve(Report.FILE_NAME);
        summary(console, file, Report.write(dir, file, ReportFilter.ALL), start);
    }
}
