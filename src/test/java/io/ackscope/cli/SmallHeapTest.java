package io.ackscope.cli;

import io.ackscope.tcp.SynScanCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory README promises, in child JVMs with a 256 MB heap: {@code conv} over a 500,000-connection SYN scan
 * (generated here by {@link SynScanCapture}, 47 MB, not kept), and {@code analyze} over the bundled sample capture.
 */
class SmallHeapTest {
    private static final int ATTEMPTS = 500_000;

    @TempDir
    Path tmp;

    /** Runs {@code ackscope ARGS} in a child JVM with {@code -Xmx256m}; returns exit code, stdout, stderr. */
    private static String[] ackscope(Path dir, String... args) throws IOException, InterruptedException {
        return ChildAckscope.run(dir, List.of("-Xmx256m"), args);
    }

    /**
     * Attempts the engine emits before the end: the S0 ones (no answer) whose last SYN came more than the attempt
     * timeout (60 s) before the horizon of the last sweep. Sweeps run each time the capture clock passed the previous
     * one by a second; the last runs at the first frame at or after 250 s (a retransmitted SYN at 250.0025 s: the
     * first SYNs end at 249.9995 s), with the horizon 10 s (the slack) earlier, 240.0025 s: the attempts whose last
     * SYN is before 180.0025 s.
     */
    private static long expectedEvictions() {
        long n = 0;
        for (int i = 0; i < ATTEMPTS; i++) {
            if (i % 10 == 1 || i % 10 == 2) {
                continue;                       // answered: RSTO and REJ close, and linger like other closed ones
            }
            long lastSyn = SynScanCapture.synMicros(i, SynScanCapture.DEFAULT_RATE) + (i % 20 == 5 ? 1_000_000 : 0);
            if (lastSyn < 180_002_500) {
                n++;
            }
        }
        return n;
    }

    @Test
    void convOfHalfAMillionSynsCompletesIn256MbAndCountsTheEvictedAttempts() throws Exception {
        Path scan = tmp.resolve("scan.pcap");
        long frames = SynScanCapture.write(scan, ATTEMPTS, SynScanCapture.DEFAULT_RATE);
        assertEquals(675_000, frames);
        String[] r = ackscope(tmp, "conv", "-r", scan.toString());
        assertEquals("0", r[0], r[2]);
        String[] lines = r[1].split("\n");
        assertEquals(ConvCommand.HEADER, lines[0]);
        assertEquals(ATTEMPTS + 1, lines.length);
        Map<String, Integer> states = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            states.merge(lines[i].split("\t")[13], 1, Integer::sum);
        }
        assertEquals(Map.of("S0", 400_000, "RSTO", 50_000, "REJ", 50_000), states);
        // tshark's order: the 3-frame RSTO rows first, then the 2-frame ones, by stream
        assertTrue(lines[1].startsWith("10.0.0.1\t10001\t192.0.2.10\t80\t1\t54\t2\t108\t3\t162\t"), lines[1]);
        long evicted = expectedEvictions();
        assertEquals(287_903, evicted);
        assertEquals("ackscope conv: 500000 connections; " + evicted + " unanswered connection attempts were emitted "
                + "before the end of the capture, after 60 s without a packet\n", r[2]);
    }

    @Test
    void analyzeOfTheSampleCaptureCompletesIn256Mb() throws Exception {
        Path out = tmp.resolve("out");
        String[] r = ackscope(tmp, "analyze", "sample-pcaps/nginx-nodelay-off.pcap.gz", "--out", out.toString());
        assertEquals("0", r[0], r[1] + r[2]);
        assertTrue(r[1].contains("  connections       21 rows"), r[1]);
        assertTrue(r[1].contains("  stalls            1,320 rows"), r[1]);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertTrue(Files.exists(out.resolve("report.html")));
    }
}
