package io.ackscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ackscope.output.OutputMarker;
import io.ackscope.tables.DuckTables;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze --since/--until/--server/--filter} on the bundled captures: the frames kept are tshark's for the
 * same selection (its {@code -Y} display filter), the others are counted in {@code capture_files} under the
 * filter's reason, so {@code frames = tcp_frames + skipped_frames} still holds, and {@code _SUCCESS} records the
 * filters. A bad value is a usage error naming the option.
 */
@Tag("slow")
@Tag("tshark")
class AnalyzeFiltersTest {
    /** Two servers: 10.218.0.2:8080 and 10.218.0.2:8081. */
    static final String TWO_SERVERS = "sample-pcaps/lab-cause-queueing.pcap.gz";
    static final String STALLING = "sample-pcaps/nginx-nodelay-off.pcap.gz";

    @TempDir
    Path tmp;

    /** What analyze wrote about its one file: frames, TCP frames, skipped frames, skipped by reason. */
    record Counted(long frames, long tcpFrames, long skipped, String reasons, JsonNode marker) {
    }

    Counted analyze(String name, String... args) throws Exception {
        Path out = tmp.resolve(name);
        List<String> a = new ArrayList<>(List.of("analyze"));
        a.addAll(List.of(args));
        a.addAll(List.of("--out", out.toString()));
        AnalyzeExitCodesTest.Run r = AnalyzeExitCodesTest.run(a.toArray(new String[0]));
        assertEquals(0, r.exit(), r.err());
        JsonNode marker = OutputMarker.parse(Files.readString(out.resolve(OutputMarker.FILE)), "_SUCCESS").json();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            List<String> row = DuckDbRows.query(st, "SELECT frames, tcp_frames, skipped_frames, "
                    + "CAST(skipped_by_reason AS VARCHAR) FROM " + DuckTables.scan(out, "capture_files"))
                    .get(0);
            return new Counted(Long.parseLong(row.get(0)), Long.parseLong(row.get(1)), Long.parseLong(row.get(2)),
                    row.get(3), marker);
        }
    }

    static long tshark(String capture, String displayFilter) throws Exception {
        Process p = new ProcessBuilder("tshark", "-n", "-r", capture, "-Y", displayFilter, "-T", "fields", "-e",
                "frame.number").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long n = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).lines().count();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "tshark -Y " + displayFilter);
        return n;
    }

    @Test
    void serverKeepsBothDirectionsOfOneEndpointsConnections() throws Exception {
        Counted c = analyze("server", TWO_SERVERS, "--server", "10.218.0.2:8081");
        long tshark = tshark(TWO_SERVERS, "(ip.src == 10.218.0.2 && tcp.srcport == 8081) || "
                + "(ip.dst == 10.218.0.2 && tcp.dstport == 8081)");
        assertEquals(tshark, c.tcpFrames());
        assertEquals(tshark(TWO_SERVERS, "frame"), c.frames());
        assertEquals(c.frames(), c.tcpFrames() + c.skipped());
        assertEquals("{'filtered (--server)'=" + c.skipped() + "}", c.reasons());
        assertEquals("[\"10.218.0.2:8081\"]", c.marker().get("filters").get("server").toString());
        assertEquals(1, c.marker().get("connections").asLong(), "the 8080 connections are gone");
    }

    @Test
    void sinceAndUntilCutTheCaptureAtFrameTimes() throws Exception {
        // the stalling sample runs from 09:51:12.925389 to 09:51:15.833544: from its middle frame to 15.5 s
        Counted c = analyze("window", STALLING, "--since", "2026-12-02 09:51:14.337497", "--until",
                "1796205075.5");
        long kept = tshark(STALLING, "frame.time_epoch >= 1796205074.337497 && frame.time_epoch < 1796205075.5");
        long before = tshark(STALLING, "frame.time_epoch < 1796205074.337497");
        assertEquals(kept, c.tcpFrames());
        assertEquals(c.frames(), c.tcpFrames() + c.skipped());
        assertEquals("{'filtered (--since)'=" + before + ", 'filtered (--until)'=" + (c.skipped() - before) + "}",
                c.reasons());
        assertTrue(before > 3000 && c.skipped() - before > 100, c.reasons());
        assertEquals("2026-12-02T09:51:14.337497Z", c.marker().get("filters").get("since").asText());
        assertEquals("2026-12-02T09:51:15.500Z", c.marker().get("filters").get("until").asText());
    }

    @Test
    void aCaptureFilterInTcpdumpSyntaxKeepsWhatTsharkSelects() throws Exception {
        Counted c = analyze("filter", TWO_SERVERS, "--filter", "tcp dst port 8080 && !less 66", "--packets");
        assertEquals(c.frames(), c.tcpFrames() + c.skipped());
        long tshark = tshark(TWO_SERVERS, "tcp.dstport == 8080 && frame.len > 66");
        assertEquals(tshark, c.tcpFrames());
        assertTrue(tshark > 100 && tshark < tshark(TWO_SERVERS, "tcp.dstport == 8080"), "a filter that cuts");
        assertEquals("{'filtered (--filter)'=" + c.skipped() + "}", c.reasons());
        assertEquals(c.tcpFrames(), c.marker().get("tables").get("packets").asLong(), "the packets table too");
    }

    @Test
    void aBadFilterIsAUsageErrorNamingTheOptionAndPosition() {
        AnalyzeExitCodesTest.Run r = AnalyzeExitCodesTest.run("analyze", TWO_SERVERS, "--out",
                tmp.resolve("bad").toString(), "--filter", "tcp port 80 or");
        assertEquals(2, r.exit());
        assertEquals("ackscope analyze: --filter: capture filter 'tcp port 80 or': at character 15: expected a "
                + "primitive at the end\n", r.err());
        r = AnalyzeExitCodesTest.run("analyze", TWO_SERVERS, "--out", tmp.resolve("bad").toString(), "--since",
                "tomorrow");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("ackscope analyze: --since: not a time: tomorrow"), r.err());
        assertTrue(Files.notExists(tmp.resolve("bad")));
    }
}
