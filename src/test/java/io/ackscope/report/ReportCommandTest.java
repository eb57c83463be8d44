package io.ackscope.report;

import io.ackscope.cli.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ackscope report DIR}: the command line around {@link Report}. */
class ReportCommandTest {

    private static int run(ByteArrayOutputStream err, String... args) {
        return Main.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void writesAFilteredReportWhereToldWithoutTouchingTheOneAnalyzeWrote() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        String analyzed = Files.readString(dir.resolve(Report.FILE_NAME));
        ReportData all = Report.data(dir, ReportFilter.ALL, false);
        String server = all.endpoints().get(0).server();
        long mid = (all.input().firstMicros() + all.input().lastMicros()) / 2;
        String since = String.format(java.util.Locale.ROOT, "%d.%06d", mid / 1_000_000, mid % 1_000_000);
        Path out = AnalyzedCaptures.WORK.resolve("filtered.html").toAbsolutePath();
        Files.deleteIfExists(out);
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        assertEquals(0, run(err, "report", dir.toString(), "--out", out.toString(), "--server", server,
                "--since", since), err.toString(StandardCharsets.UTF_8));
        String page = Files.readString(out);
        assertTrue(page.contains("server " + server + "; from " + Format.time(mid)), "the page names its filter");
        assertEquals(analyzed, Files.readString(dir.resolve(Report.FILE_NAME)), "DIR/report.html is left alone");
    }

    @Test
    void badArgumentsAreReportedNotThrown() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(1, run(err, "report", dir.toString(), "--since", "last tuesday"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not a time: last tuesday"), err.toString());

        err.reset();
        assertEquals(1, run(err, "report", AnalyzedCaptures.WORK.resolve("no-such-dir").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not a complete ackscope analyze output"),
                err.toString());
    }
}
