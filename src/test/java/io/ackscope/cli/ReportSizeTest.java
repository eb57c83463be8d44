package io.ackscope.cli;

import io.ackscope.report.Chromium;
import io.ackscope.report.Report;
import io.ackscope.report.ReportData;
import io.ackscope.report.ReportFilter;
import io.ackscope.spark.SyntheticTables;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report of 100,000 connections (synthetic tables in the real schema, {@link SyntheticTables}) stays small,
 * because the page summarises and samples: pre-binned histograms, a bucketed timeline, the worst few connections,
 * bounded tables. Prints how long it took to make and to open in Chromium (figures, not assertions).
 */
@Tag("browser")
class ReportSizeTest {
    static final int CONNECTIONS = 100_000;
    static final long MAX_BYTES = 3_000_000;

    @Test
    void reportOfAHundredThousandConnectionsStaysUnderThreeMegabytesAndOpensCleanly() throws Exception {
        Path dir = Path.of("target", "report-tests", "synthetic-100k").toAbsolutePath();
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        long t0 = System.nanoTime();
        SyntheticTables.write(dir, CONNECTIONS);
        long t1 = System.nanoTime();
        Path html = dir.resolve(Report.FILE_NAME);
        ReportData d = Report.write(dir, html, ReportFilter.ALL);
        long t2 = System.nanoTime();
        long size = Files.size(html);

        assertEquals(CONNECTIONS, d.input().selected());
        assertEquals((long) CONNECTIONS * SyntheticTables.REQUESTS_PER_CONNECTION, d.input().requests());
        assertTrue(d.verdict().found(), "2% of connections stall");
        assertEquals(SyntheticTables.ENDPOINTS, d.endpoints().size() + d.endpointsNotShown());
        assertEquals(d.limits().worstConnections(), d.worstConnections().size());
        assertEquals(d.limits().slowestRequests(), d.slowestRequests().size());
        assertEquals(d.limits().files(), d.input().fileList().size());
        assertEquals(SyntheticTables.FILES - d.limits().files(), d.input().filesNotListed());
        assertEquals(3, d.input().fileList().stream().filter(f -> f.errorOffset() != null).count(),
                "damaged files are always listed");
        assertTrue(d.timeline().requests().length <= d.limits().timelineBuckets() + 1);
        for (ReportData.Connection c : d.worstConnections()) {
            assertTrue(c.ladder().unavailable().contains("not found"), "no capture here: " + c.ladder());
        }
        assertTrue(size < MAX_BYTES, "report of " + CONNECTIONS + " connections is " + size + " bytes");
        assertEquals(Map.of("UDP", 900_000L, "ICMP", 100_000L), d.input().skippedByReason());
        String page = Files.readString(html);
        assertTrue(page.contains("damaged at byte 123463: pcapng block length 7 below the minimum 12"),
                "damaged files are named with the offset of the damage");

        double loadMs;
        int charts;
        try (Chromium chrome = Chromium.start(dir)) {
            Chromium.Page p = chrome.newPage();
            p.viewport(1280, 900);
            loadMs = p.load(html);
            assertEquals(List.of(html.toUri().toString()), List.copyOf(p.requests));
            assertEquals(List.of(), List.copyOf(p.errors));
            charts = (int) p.number("[...document.querySelectorAll('svg.chart')].filter(e => "
                    + "e.getBoundingClientRect().width > 50).length");
            Path shots = Path.of("target", "report-screenshots").toAbsolutePath();
            p.screenshot(shots.resolve("synthetic-100k-top.png"), 0, 1800);
            p.screenshot(shots.resolve("synthetic-100k-over-time.png"), p.number("document.getElementById("
                    + "'over-time').getBoundingClientRect().top + window.scrollY"), 600);
        }
        assertEquals(d.limits().chartedEndpoints() * 5 + 1, charts, "distributions of the charted endpoints and "
                + "the timeline");
        System.out.printf(Locale.ROOT, "report size: %,d connections, %,d requests: tables written in %.1f s; "
                        + "report made in %.1f s, %,d bytes; loaded in Chromium in %.0f ms%n", CONNECTIONS,
                d.input().requests(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, size, loadMs);
    }
}
