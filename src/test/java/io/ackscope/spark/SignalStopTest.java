package io.ackscope.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.spark.commit.OutputDirectory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM ends a run of {@code analyze} wherever it is, even one that never returns to its main loop (held at a step
 * by the test hook), with the status of a signal (128 + 15, as the README documents) and the output as it was.
 */
class SignalStopTest {

    @TempDir
    static Path tmp;

    @Test
    void sigtermEndsARunHeldBeforeItsCommitAndLeavesTheEarlierOutputByteForByte() throws Exception {
        Path out = tmp.resolve("out");
        AnalyzeProcess.Result first = AnalyzeProcess.run(tmp.resolve("first"), Map.of(), "analyze",
                "sample-pcaps/nginx-nodelay-off.pcap.gz", "--out", out.toString());
        assertEquals(0, first.exit(), first.stderr());
        Map<String, String> before = digests(out);
        assertTrue(before.containsKey("_SUCCESS"), before.keySet().toString());

        Process p = AnalyzeProcess.builder(Map.of(OutputDirectory.KILL_AT, "staged"), List.of("analyze",
                        "sample-pcaps/lab-cause-loss.pcap.gz", "--out", out.toString(), "--overwrite"))
                .redirectOutput(tmp.resolve("second-stdout.txt").toFile()).start();
        CountDownLatch held = new CountDownLatch(1);
        StringBuilder stderr = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null) {
                    synchronized (stderr) {
                        stderr.append(line).append('\n');
                    }
                    if (line.equals("ackscope.test.step staged")) {
                        held.countDown();
                    }
                }
            } catch (IOException e) {
                // the stream closes when the process ends
            }
        });
        reader.start();
        try {
            assertTrue(held.await(3, TimeUnit.MINUTES), "the run never reached its commit: " + stderr);
            long signalled = System.nanoTime();
            p.destroy(); // SIGTERM on Linux
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "SIGTERM did not end the run");
            double seconds = (System.nanoTime() - signalled) / 1e9;
            assertEquals(128 + 15, p.exitValue(), "status of SIGTERM; stderr:\n" + stderr);
            assertTrue(seconds < 30, "ended " + seconds + " s after SIGTERM");
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor();
            }
            reader.join(10_000);
        }
        // the earlier output, every file of it, as it was; what the stopped run left (its staging, its lock) is not
        // part of the output, and the next run clears it (CommitCrashTest)
        Map<String, String> after = digests(out);
        List<String> leftovers = CommitCrashTest.leftovers(out);
        after.keySet().removeIf(f -> leftovers.contains(f.split("/", 2)[0]));
        assertEquals(before, after);
    }

    /** Every regular file below {@code dir}, by relative path, with its SHA-256. */
    static Map<String, String> digests(Path dir) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (var s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f));
                out.put(dir.relativize(f).toString(), HexFormat.of().formatHex(d));
            }
        }
        return out;
    }
}
