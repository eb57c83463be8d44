package io.ackscope.report;

import io.ackscope.cli.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void aFilteredReportWithoutOutGoesBesideTheFullOne() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        String analyzed = Files.readString(dir.resolve(Report.FILE_NAME));
        Path beside = dir.resolve("report-127.0.0.1_18781.html");
        Files.deleteIfExists(beside);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            assertEquals(0, run(err, "report", dir.toString(), "--server", "127.0.0.1:18781"),
                    err.toString(StandardCharsets.UTF_8));
            assertTrue(Files.readString(beside).contains("server 127.0.0.1:18781"), "the page names its filter");
            assertEquals(analyzed, Files.readString(dir.resolve(Report.FILE_NAME)), "DIR/report.html is left alone");
        } finally {
            Files.deleteIfExists(beside);
        }
    }

    @Test
    void aServerThatMatchesNothingFailsNamingTheFilterAndTheServersThere() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        String analyzed = Files.readString(dir.resolve(Report.FILE_NAME));
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        assertEquals(1, run(err, "report", dir.toString(), "--server", "10.9.9.9:80"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.startsWith("ackscope report: nothing in " + dir + " matched server 10.9.9.9:80 (the tables "
                + "hold 21 connections, captured from "), e);
        assertTrue(e.contains("; server endpoints there, busiest first: 127.0.0.1:18781 (21 connections); "
                + "no report written"), e);
        assertFalse(e.contains("all clear"), e);
        assertFalse(Files.exists(dir.resolve("report-10.9.9.9_80.html")), "no empty page");
        assertEquals(analyzed, Files.readString(dir.resolve(Report.FILE_NAME)), "DIR/report.html is left alone");
    }

    @Test
    void aTimeWindowThatMatchesNothingFailsSayingWhenTheCaptureWas() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        assertEquals(1, run(err, "report", dir.toString(), "--until", "2000-01-01T00:00:00Z"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("matched until 2000-01-01 00:00:00.000000 UTC (the tables hold 21 connections, "
                + "captured from 2026-"), e);
        assertFalse(e.contains("server endpoints there"), "no server filter, no list of servers: " + e);
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
