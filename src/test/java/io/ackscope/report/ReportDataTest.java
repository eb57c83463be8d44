package io.ackscope.report;

import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report's data model on the tables that {@code analyze} wrote for the sample captures: golden files (reviewed
 * as a diff; {@code ACKSCOPE_UPDATE_GOLDEN=1} rewrites them), agreement with the {@code latency_summary} table that
 * Spark computed independently, and the filters.
 */
class ReportDataTest {
    static final Path GOLDEN = Path.of("src", "test", "resources", "report");

    /** The model as JSON, with the machine-specific project path replaced, so the golden file is portable. */
    static String portableJson(ReportData d) {
        String project = Path.of("").toAbsolutePath().toString();
        return ReportJson.of(d).replace(project, "<project>");
    }

    static void assertGolden(String name, String actual) throws IOException {
        Path file = GOLDEN.resolve(name);
        if ("1".equals(System.getenv("ACKSCOPE_UPDATE_GOLDEN"))) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual);
        }
        assertTrue(Files.isRegularFile(file), "golden file missing: " + file + " (make it with "
                + "ACKSCOPE_UPDATE_GOLDEN=1 and review it)");
        String expected = Files.readString(file, StandardCharsets.UTF_8);
        if (!expected.equals(actual)) {
            Path got = Path.of("target", "golden-actual", name);
            Files.createDirectories(got.getParent());
            Files.writeString(got, actual);
            List<String> e = expected.lines().toList(), a = actual.lines().toList();
            int line = 0;
            while (line < Math.min(e.size(), a.size()) && e.get(line).equals(a.get(line))) {
                line++;
            }
            throw new AssertionError(name + " differs from the golden file at line " + (line + 1) + ":\n  golden: "
                    + (line < e.size() ? e.get(line) : "(end)") + "\n  actual: " + (line < a.size() ? a.get(line)
                    : "(end)") + "\nwhole output in " + got + "; diff it, and if the change is right rerun with "
                    + "ACKSCOPE_UPDATE_GOLDEN=1");
        }
    }

    @Test
    void latencyCaptureDataMatchesTheGoldenFile() throws IOException {
        ReportData d = Report.data(AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY), ReportFilter.ALL, true);
        assertTrue(d.verdict().found());
        assertGolden("nginx-nodelay-off.json", portableJson(d));
    }

    @Test
    void goodCaptureDataMatchesTheGoldenFile() throws IOException {
        ReportData d = Report.data(AnalyzedCaptures.tables(AnalyzedCaptures.GOOD), ReportFilter.ALL, true);
        assertFalse(d.verdict().found());
        assertGolden("nginx-nodelay-on.json", portableJson(d));
    }

    @Test
    void columnsTheReportReadsMatchTheGoldenList() throws IOException {
        StringBuilder sb = new StringBuilder();
        Tables.all().forEach((table, cols) -> sb.append(table).append(": ").append(String.join(", ", cols))
                .append('\n'));
        assertGolden("columns-read.txt", sb.toString());
    }

    /** Every number the headline shows equals what Spark computed for {@code latency_summary}. */
    @Test
    void headlineNumbersEqualTheLatencySummaryTable() throws IOException {
        for (Path capture : List.of(AnalyzedCaptures.LATENCY, AnalyzedCaptures.GOOD)) {
            Path dir = AnalyzedCaptures.tables(capture);
            ReportData d = Report.data(dir, ReportFilter.ALL, false);
            List<String> metrics = List.of("handshake_rtt", "data_rtt", "ack_delay", "ttfb");
            List<String> cols = new ArrayList<>(List.of("server_ip", "server_port", "connections", "exchanges",
                    "stalls", "stall_us"));
            for (String m : metrics) {
                for (String s : List.of("_count", "_p50_us", "_p90_us", "_p99_us", "_max_us")) {
                    cols.add(m + s);
                }
            }
            Map<String, Map<String, Long>> summary = new HashMap<>();
            TableSchema t = LatencySummaryTable.TABLE;
            TableReader.scan(dir, t, cols.stream().map(t::column).toList(), b -> {
                for (int i = 0; i < b.rows; i++) {
                    Map<String, Long> row = new HashMap<>();
                    for (String c : cols.subList(2, cols.size())) {
                        TableReader.LongColumn l = b.longs(t.column(c));
                        row.put(c, l.present[i] ? l.values[i] : null);
                    }
                    summary.put(b.strings(t.column("server_ip"))[i] + ":"
                            + b.longs(t.column("server_port")).values[i], row);
                }
            });
            assertEquals(summary.size(), d.endpoints().size(), capture.toString());
            for (ReportData.Endpoint e : d.endpoints()) {
                Map<String, Long> row = summary.get(e.server());
                assertEquals(row.get("connections"), e.connections(), e.server());
                assertEquals(row.get("exchanges"), e.requests(), e.server());
                assertEquals(row.get("stalls"), e.serverHeldStalls() + e.clientHeldStalls(), e.server());
                for (String m : metrics) {
                    ReportData.Distribution dist = e.distribution(m);
                    assertEquals(row.get(m + "_count"), dist.count(), m);
                    assertEquals(row.get(m + "_p50_us"), dist.p50Micros(), m + " p50");
                    assertEquals(row.get(m + "_p90_us"), dist.p90Micros(), m + " p90");
                    assertEquals(row.get(m + "_p99_us"), dist.p99Micros(), m + " p99");
                    assertEquals(row.get(m + "_max_us"), dist.maxMicros(), m + " max");
                    long binned = 0;
                    for (long c : dist.bins()) {
                        binned += c;
                    }
                    assertEquals(dist.count(), binned, m + ": every value is in a histogram bin");
                }
            }
        }
    }

    @Test
    void serverFilterKeepsOneEndpointAndAnUnknownOneLeavesNothing() throws IOException {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        ReportData all = Report.data(dir, ReportFilter.ALL, false);
        String server = all.endpoints().get(0).server();
        ReportData one = Report.data(dir, ReportFilter.parse(List.of(server), null, null), false);
        assertEquals(ReportJson.of(all.endpoints()), ReportJson.of(one.endpoints()));
        assertEquals("server " + server, one.filter());

        ReportData none = Report.data(dir, ReportFilter.parse(List.of("192.0.2.1:1"), null, null), false);
        assertEquals(0, none.input().selected());
        assertEquals(all.input().connections(), none.input().connections());
        assertTrue(none.endpoints().isEmpty());
        assertFalse(none.verdict().found());
        assertTrue(none.worstConnections().isEmpty());
        assertTrue(HtmlReport.render(none, "now", null).contains("No TCP connection matches the selection."));
    }

    @Test
    void timeWindowKeepsOnlyMeasurementsInsideIt() throws IOException {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        ReportData all = Report.data(dir, ReportFilter.ALL, false);
        long first = all.input().firstMicros(), last = all.input().lastMicros();
        long since = first + (last - first) / 3, until = first + 2 * (last - first) / 3;
        ReportData part = Report.data(dir, new ReportFilter(List.of(), since, until), false);
        long requests = part.endpoints().get(0).requests();
        assertTrue(requests > 0 && requests < all.endpoints().get(0).requests(), "requests " + requests);
        for (ReportData.Request r : part.slowestRequests()) {
            assertTrue(r.startMicros() >= since && r.startMicros() < until, "request at " + r.startMicros());
        }
        ReportData.Timeline t = part.timeline();
        assertTrue(t.startMicros() <= since && t.startMicros() + t.bucketMicros() > since, "timeline starts there");
        assertTrue(t.startMicros() + t.requests().length * t.bucketMicros() >= until - 1, "and ends there");
        long inTimeline = 0;
        for (long n : t.requests()) {
            inTimeline += n;
        }
        assertEquals(requests, inTimeline, "every request of the window is in the timeline");
    }

    @Test
    void flowGraphOfTheWorstConnectionShowsItsLongestStall() throws IOException {
        ReportData d = Report.data(AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY), ReportFilter.ALL, true);
        ReportData.Connection worst = d.worstConnections().get(0);
        ReportData.Ladder l = worst.ladder();
        assertEquals(null, l.unavailable());
        assertEquals(worst.packets(), l.frames(), "every frame of the connection was found again");
        assertTrue(l.rows().size() <= LadderReader.MAX_ROWS);
        assertEquals("SYN", l.rows().get(0).flags());
        assertTrue(l.rows().get(0).fromClient());
        long held = -1, ack = -1, resumed = -1;
        for (ReportData.LadderRow r : l.rows()) {
            switch (r.mark()) {
                case "HELD" -> held = r.frame();
                case "DELAYED_ACK" -> ack = r.frame();
                case "RESUMED" -> resumed = r.frame();
                default -> {
                }
            }
        }
        assertTrue(held > 0 && held < ack && ack < resumed, "held " + held + ", ack " + ack + ", resumed " + resumed);
        assertTrue(worst.stallEvidence().contains("frame " + held) || l.rows().stream().filter(r ->
                "HELD".equals(r.mark())).count() > 1, "the longest stall is in the window");
    }
}
