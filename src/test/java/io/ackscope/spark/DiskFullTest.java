package io.ackscope.spark;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze} into a real filesystem that fills up (a 512 KB tmpfs; mounting one needs root): one line naming
 * the output, the filesystem and how much was staged, exit status 1, and nothing left behind, run after run; the
 * stack trace only with {@code --verbose}.
 */
class DiskFullTest {
    static final Pattern LINE = Pattern.compile("ackscope analyze: no space left on device writing (\\S+) "
            + "\\(filesystem (\\S+) \\(tmpfs\\), 524,288 bytes\\): the run had staged ([0-9,]+) bytes when it filled "
            + "up; nothing was committed, and with the staged files removed ([0-9,]+) bytes are free");

    @TempDir
    Path tmp;
    Path mount;

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            new ProcessBuilder("umount", mount.toString()).inheritIO().start().waitFor();
        }
    }

    @Test
    void aFullFilesystemGivesOneLineExitOneAndLeavesNothingBehind() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "DiskFullTest mounts a tmpfs and needs root; skipped as " + System.getProperty("user.name"));
        Path dir = Files.createDirectories(tmp.resolve("small"));
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        String said = new String(m.getInputStream().readAllBytes());
        Assumptions.assumeTrue(m.waitFor() == 0, "cannot mount a tmpfs here: " + said);
        mount = dir;
        Path out = dir.resolve("out");
        // the tables of this 20,000-frame capture take about 800 KB
        String capture = SparkTests.sample("lab-nginx-nodelay-on.pcap.gz").toString();
        for (int run = 1; run <= 2; run++) {
            AnalyzeProcess.Result r = AnalyzeProcess.run(tmp.resolve("run-" + run), Map.of(), "analyze", capture,
                    "--out", out.toString());
            assertEquals(1, r.exit(), r.stderr());
            List<String> lines = r.stderr().lines().filter(l -> !l.startsWith("ackscope: read ")).toList();
            assertEquals(1, lines.size(), "one line, no stack trace:\n" + r.stderr());
            Matcher x = LINE.matcher(lines.get(0));
            assertTrue(x.matches(), lines.get(0));
            assertEquals(out.toString(), x.group(1));
            assertEquals(dir.toString(), x.group(2));
            long staged = Long.parseLong(x.group(3).replace(",", ""));
            assertTrue(staged > 100_000 && staged <= 524_288, "staged " + staged);
            try (var s = Files.list(dir)) {
                assertEquals(List.of(), s.toList(), "run " + run + " left nothing behind");
            }
        }
        // --verbose: the same failure with its stack trace
        AnalyzeProcess.Result r = AnalyzeProcess.run(tmp.resolve("run-verbose"), Map.of(), "analyze", capture,
                "--out", out.toString(), "--verbose");
        assertEquals(1, r.exit(), r.stderr());
        assertTrue(r.stderr().contains("io.ackscope.spark.commit.NoSpace: no space left on device "
                + "writing " + out) && r.stderr().contains("\tat io.ackscope.spark.Analyze.run("), r.stderr());
        try (var s = Files.list(dir)) {
            assertEquals(List.of(), s.toList(), "the verbose run left nothing behind");
        }
    }
}
