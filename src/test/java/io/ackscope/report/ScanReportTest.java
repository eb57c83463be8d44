package io.ackscope.report;

import io.ackscope.tcp.SynScanCapture;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report of a SYN scan ({@link SynScanCapture}: every count is known exactly), where the page's numbers come
 * from aggregates streamed over many connections rather than from one object per connection: the worst connections
 * ranked in the second pass over {@code connections}, with and without a time window (both passes must select the
 * same rows), and the per-endpoint counts.
 */
class ScanReportTest {
    /** 30,000 attempts at 2,000 a second: 15 s, no eviction (the attempt timeout is 60 s). */
    private static final int ATTEMPTS = 30_000;

    private static Path tables() throws IOException {
        Path capture = AnalyzedCaptures.WORK.resolve("scan-" + ATTEMPTS + ".pcap");
        if (!Files.exists(capture)) {
            Files.createDirectories(capture.getParent());
            SynScanCapture.write(capture, ATTEMPTS, SynScanCapture.DEFAULT_RATE);
        }
        return AnalyzedCaptures.tables(capture);
    }

    @Test
    void worstConnectionsOfAScanAreItsFirstRetransmittedAttempts() throws IOException {
        ReportData d = Report.data(tables(), ReportFilter.ALL, false);
        assertEquals(ATTEMPTS, d.input().connections());
        assertEquals(ATTEMPTS, d.input().selected());
        assertEquals(0, d.input().requests());
        assertEquals(1, d.endpoints().size());
        ReportData.Endpoint e = d.endpoints().get(0);
        assertEquals("192.0.2.10:80", e.server());
        assertEquals(ATTEMPTS, e.connections());
        // nothing stalled or answered with data: retransmissions rank first (attempts i % 20 == 5 retransmit their
        // SYN once, 1 s later), ties go to the longer connection (all 1 s), then to the lower stream, which is i
        assertEquals(List.of(5L, 25L, 45L, 65L, 85L, 105L), streams(d));
        // the scan's one cause is the SYN retransmissions; its evidence, the first retransmitted attempt, leads
        assertEquals("SYN_RETRANSMISSION", d.causes().get(0).cause());
        assertEquals("stream-5", d.causes().get(0).evidence());
        for (ReportData.Connection c : d.worstConnections()) {
            assertEquals(c.stream() == 5 ? "evidence (frame " + d.causes().get(0).evidenceFrame()
                    + "); 1 retransmission" : "1 retransmission", c.why(), "stream " + c.stream());
            assertEquals("S0", c.connState());
            assertEquals("ST", c.history());
            assertEquals(2, c.packets());
            assertEquals(1_000_000, c.durationMicros());
            assertEquals("192.0.2.10:80", c.server());
            assertEquals(null, c.stallEvidence());
        }
        assertEquals("10.0.0.1:10005", d.worstConnections().get(0).client());
    }

    @Test
    void timeWindowSelectsTheSameConnectionsInBothPasses() throws IOException {
        // [5 s, 6 s) after the first SYN: attempts 10,000-11,999 start in it, and the 100 retransmitting attempts
        // of 8,000-9,999 (one second long) reach into it
        long start = 1_700_000_000L;
        ReportFilter f = ReportFilter.parse(List.of(), java.time.Instant.ofEpochSecond(start + 5).toString(),
                java.time.Instant.ofEpochSecond(start + 6).toString());
        ReportData d = Report.data(tables(), f, false);
        assertEquals(ATTEMPTS, d.input().connections());
        assertEquals(2_100, d.input().selected());
        assertEquals(2_100, d.endpoints().get(0).connections());
        assertEquals(List.of(8_005L, 8_025L, 8_045L, 8_065L, 8_085L, 8_105L), streams(d));
        assertTrue(d.worstConnections().stream().allMatch(c -> c.why().equals("1 retransmission")));
    }

    private static List<Long> streams(ReportData d) {
        return d.worstConnections().stream().map(ReportData.Connection::stream).toList();
    }
}
