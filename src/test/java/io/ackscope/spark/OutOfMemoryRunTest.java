package io.ackscope.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.tcp.OpenConnectionsCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A heap too small for the run fails it fast and clearly: an appending run given a capture of many connections that
 * are all still open, in a child JVM with a small heap (as {@code JAVA_OPTS=-Xmx...} gives one), exits 1 within a
 * bounded time with one line naming the heap, what it held and how to raise it, and the output of the run before is
 * byte-for-byte as it was. {@code jobs/lab-memory} is the same at full size (1,000,000 connections).
 */
class OutOfMemoryRunTest {
    static final int CONNECTIONS = 400_000;
    static final String HEAP = "256m";

    @TempDir
    static Path tmp;

    @Test
    void anAppendingRunThatOverflowsTheHeapExitsOneWithTheLineAndLeavesTheOutput() throws Exception {
        Path cap = Files.createDirectories(tmp.resolve("cap")), out = tmp.resolve("out");
        Path small = cap.resolve("a-small.pcap");
        OpenConnectionsCapture.write(small, 300, OpenConnectionsCapture.DEFAULT_RATE,
                OpenConnectionsCapture.START_SECONDS - 3600);
        settled(small);
        AnalyzeProcess.Result first = AnalyzeProcess.run(tmp.resolve("first"), Map.of(), "analyze", cap.toString(),
                "--out", out.toString(), "--incremental");
        assertEquals(0, first.exit(), first.stderr());
        Map<String, String> before = SignalStopTest.digests(out);
        assertTrue(before.containsKey("_SUCCESS"), before.keySet().toString());

        Path big = cap.resolve("b-open.pcap");
        OpenConnectionsCapture.write(big, CONNECTIONS, OpenConnectionsCapture.DEFAULT_RATE,
                OpenConnectionsCapture.START_SECONDS);
        settled(big);
        Path err = tmp.resolve("second-stderr.txt");
        Process p = AnalyzeProcess.builder(HEAP, Map.of(), List.of("analyze", cap.toString(), "--out", out.toString(),
                "--incremental")).redirectOutput(tmp.resolve("second-stdout.txt").toFile())
                .redirectError(err.toFile()).start();
        long started = System.nanoTime();
        try {
            assertTrue(p.waitFor(3, TimeUnit.MINUTES), "the run did not end: " + Files.readString(err));
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor();
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        String stderr = Files.readString(err);
        assertEquals(1, p.exitValue(), stderr);
        List<String> lines = stderr.lines().filter(l -> l.contains("out of memory")).toList();
        assertEquals(1, lines.size(), stderr);
        String line = lines.get(0);
        assertTrue(line.startsWith("ackscope analyze: out of memory: the Java heap (-Xmx, 256 MB) filled up ("), line);
        assertTrue(line.contains(") holding 300 open connections carried from the last run, reading 1 file ("), line);
        assertTrue(line.contains("raise it, e.g. JAVA_OPTS=-Xmx1g jobs/ackscope ..."), line);
        assertTrue(line.endsWith("nothing was committed, the output is as it was"), line);
        assertTrue(seconds < 120, "failed after " + seconds + " s");

        Map<String, String> after = SignalStopTest.digests(out);
        List<String> leftovers = CommitCrashTest.leftovers(out);
        after.keySet().removeIf(f -> leftovers.contains(f.split("/", 2)[0]));
        assertEquals(before, after);
    }

    /** Dates {@code f} ten minutes back, so that the run takes it (not held back as still being written). */
    private static void settled(Path f) throws Exception {
        Files.setLastModifiedTime(f, FileTime.from(Instant.now().minusSeconds(600)));
    }
}
