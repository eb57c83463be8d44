package io.ackscope.spark;

import io.ackscope.spark.carry.CarriedState;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.output.OutputMarker;
import io.ackscope.report.Report;
import io.ackscope.report.ReportFilter;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ackscope analyze} in a child JVM, killed with SIGKILL at each step of its commit (the test hook
 * {@code ackscope.test.killAt} stops it there), for a fresh output and for an overwrite. After each kill the
 * directory is the old complete output, the new complete output, or refused by the readers (the report and the
 * notebooks' loader); the next run then leaves a complete output, with no staging folder, lock or temporary file,
 * and the user's own file kept.
 */
class CommitCrashTest {
    static final String OLD = "zeek__methods.pcap";
    static final String NEW = "pcpp__four_ipv6_http_streams.pcap";
    static final String NO_PYTHON = "no python3";

    @TempDir
    static Path tmp;
    static Path oldCapture, newCapture, template;
    static long oldFrames, newFrames;

    @BeforeAll
    static void earlierOutput() throws Exception {
        Path in = SparkTests.copyCorpus(tmp.resolve("in"), OLD, NEW);
        oldCapture = in.resolve(OLD);
        newCapture = in.resolve(NEW);
        template = tmp.resolve("template");
        AnalyzeProcess.Result r = AnalyzeProcess.run(tmp.resolve("template-run"), Map.of(), "analyze",
                oldCapture.toString(), "--out", template.toString());
        assertEquals(0, r.exit(), r.stderr());
        oldFrames = frames(template);
        assertTrue(oldFrames > 0);
    }

    /** The frames of the complete output in {@code dir} as the report reads them, or null where it refuses it. */
    static Long frames(Path dir) throws IOException {
        long read;
        try {
            read = Report.data(dir, ReportFilter.ALL, false).input().frames();
        } catch (OutputMarker.Invalid e) {
            String t = loaderTables(dir);
            assertTrue(t == null || t.equals(NO_PYTHON), "the notebooks' loader refuses what the report refuses");
            return null;
        }
        OutputMarker m = OutputMarker.requireComplete(dir);
        assertEquals(m.number("frames"), read, "the marker is this output's");
        assertTrue(m.files().contains(Report.FILE_NAME) && Files.isRegularFile(dir.resolve(Report.FILE_NAME)),
                "report.html is committed with the tables");
        assertFalse(Files.readString(dir.resolve(Report.FILE_NAME)).contains(OutputDirectory.STAGING_PREFIX),
                "the report names the output directory, not the staging folder it was made in");
        for (String f : m.files()) {
            assertTrue(Files.exists(dir.resolve(f)), "manifest entry " + f);
        }
        String tables = loaderTables(dir);
        if (!NO_PYTHON.equals(tables)) {
            assertTrue(tables.contains("capture_files " + dir.resolve("capture_files")), tables);
        }
        return read;
    }

    /** What {@code notebooks/ackscope_output.py DIR} prints: the tables, or null when it refuses the output. */
    static String loaderTables(Path dir) throws IOException {
        if (!Files.isExecutable(Path.of("/usr/bin/python3"))) {
            return NO_PYTHON;
        }
        Process p = new ProcessBuilder("python3", "notebooks/ackscope_output.py", dir.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        try {
            return p.waitFor() == 0 ? out : null;
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    static void copy(Path from, Path to) throws IOException {
        try (var s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
    }

    /** Ackscope's own leftovers in {@code dir}: staging folders, the lock, temporary files. */
    static List<String> leftovers(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("_ackscope") && !n.equals(CarriedState.DIR) || n.endsWith(".tmp"))
                    .sorted().toList();
        }
    }

    /** What the next run does first (under its lock, before it reads anything): recovery, then nothing. */
    static void nextRunRecovers(Path out, boolean overwrite) throws IOException {
        try (OutputDirectory o = OutputDirectory.prepare(out.toString(), List.of(newCapture.toString()),
                new Configuration(), overwrite)) {
            o.abort();
        }
    }

    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {"staged", "commit-record", "new-entry-moved", "marker-moved"})
    void aFreshOutputKilledAtEachCommitStepIsRefusedOrCompleteAndTheNextRunCompletesIt(String step)
            throws Exception {
        Path out = tmp.resolve("fresh-" + step);
        AnalyzeProcess.killAt(step, tmp.resolve("run-fresh-" + step), pid -> {
            if (step.equals("staged")) {
                // a second run on the same output while the first holds it
                OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class,
                        () -> nextRunRecovers(out, true));
                assertTrue(e.getMessage().contains("in use by ackscope analyze (pid " + pid + " on "), e.getMessage());
            }
        }, "analyze", newCapture.toString(), "--out", out.toString());
        Long frames = frames(out);
        assertEquals(step.equals("marker-moved") ? (Long) newFrames() : null, frames, "after the kill");
        Path marker = out.resolve(OutputMarker.FILE);
        assertTrue(!Files.exists(marker) || Files.size(marker) > 0, "never an empty marker");

        nextRunRecovers(out, true);
        assertEquals(List.of(), leftovers(out));
        if (step.equals("staged")) {
            assertFalse(Files.exists(out.resolve(OutputMarker.FILE)));
            try (var s = Files.list(out)) {
                assertEquals(List.of(), s.toList(), "the uncommitted run's staging is gone");
            }
        } else {
            assertEquals(newFrames(), frames(out), "rolled forward to the new output");
        }
    }

    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {"staged", "commit-record", "old-marker-moved", "old-entry-moved", "new-entry-moved",
            "marker-moved"})
    void anOverwriteKilledAtEachCommitStepLeavesTheOldOrTheNewOutputOrOneTheNextRunCompletes(String step)
            throws Exception {
        Path out = tmp.resolve("over-" + step);
        copy(template, out);
        Files.writeString(out.resolve("notes.txt"), "mine");
        AnalyzeProcess.killAt(step, tmp.resolve("run-over-" + step), pid -> {
            if (step.equals("staged")) {
                // the report neither reads an output being replaced nor writes into it
                java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
                int exit = io.ackscope.cli.Main.run(new String[]{"report", out.toString()},
                        new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), new java.io.PrintStream(err));
                assertEquals(1, exit);
                assertTrue(err.toString().startsWith("ackscope report: " + out.toRealPath() + " is in use by ackscope "
                        + "analyze (pid " + pid + " on "), err.toString());
            }
        }, "analyze", newCapture.toString(), "--out", out.toString(), "--overwrite");
        Long frames = frames(out);
        Long expected = switch (step) {
            case "staged", "commit-record" -> oldFrames;
            case "marker-moved" -> newFrames();
            default -> null;
        };
        assertEquals(expected, frames, "after the kill");

        nextRunRecovers(out, true);
        assertEquals(List.of(), leftovers(out));
        assertEquals(step.equals("staged") ? oldFrames : newFrames(), frames(out), "after recovery");
        assertEquals("mine", Files.readString(out.resolve("notes.txt")));
    }

    /** {@code ackscope report DIR} completes an interrupted overwrite too, and reports the new output. */
    @Test
    void theReportCompletesAnInterruptedOverwrite() throws Exception {
        Path out = tmp.resolve("report-recovers");
        copy(template, out);
        AnalyzeProcess.killAt("old-entry-moved", tmp.resolve("run-report-recovers"), pid -> { }, "analyze",
                newCapture.toString(), "--out", out.toString(), "--overwrite");
        OutputMarker.Invalid e = assertThrows(OutputMarker.Invalid.class, () -> OutputMarker.requireComplete(out));
        assertTrue(e.getMessage().endsWith("an analyze run on it was interrupted: ackscope report " + out
                + " or the next analyze --out " + out + " completes or removes it)"), e.getMessage());
        if (!NO_PYTHON.equals(loaderTables(tmp))) {
            Process p = new ProcessBuilder("python3", "notebooks/ackscope_output.py", out.toString())
                    .redirectErrorStream(true).start();
            assertEquals(e.getMessage(), new String(p.getInputStream().readAllBytes()).strip(), "the loader says so");
        }
        java.io.ByteArrayOutputStream stdout = new java.io.ByteArrayOutputStream();
        java.io.PrintStream was = System.out;
        int exit;
        System.setOut(new java.io.PrintStream(stdout, true));
        try {
            exit = io.ackscope.cli.Main.run(new String[]{"report", out.toString()}, System.out, System.err);
        } finally {
            System.setOut(was);
        }
        assertEquals(0, exit);
        assertTrue(stdout.toString().startsWith("report: completed or removed what an interrupted analyze run left in "
                + out + "\nreport: " + out.resolve(Report.FILE_NAME)), stdout.toString());
        assertEquals(newFrames(), frames(out));
        assertEquals(List.of(), leftovers(out));
    }

    /** The real next run: it completes the interrupted commit, then (without --overwrite) refuses the output. */
    @Test
    void theNextAnalyzeCompletesAnInterruptedCommitThenRefusesTheCompleteOutputWithoutOverwrite() throws Exception {
        Path out = tmp.resolve("next-run");
        AnalyzeProcess.killAt("new-entry-moved", tmp.resolve("run-next-1"), pid -> { }, "analyze",
                newCapture.toString(), "--out", out.toString());
        assertNull(frames(out));
        AnalyzeProcess.Result r = AnalyzeProcess.run(tmp.resolve("run-next-2"), Map.of(), "analyze",
                oldCapture.toString(), "--out", out.toString());
        assertEquals(2, r.exit(), r.stderr());
        assertEquals("ackscope analyze: " + out.toAbsolutePath() + " is not empty (use --overwrite to replace an "
                + "earlier ackscope output, or --incremental to add to it; files ackscope did not write are kept)",
                r.stderr().strip());
        assertEquals(newFrames(), frames(out));
        assertEquals(List.of(), leftovers(out));
    }

    static synchronized long newFrames() throws Exception {
        if (newFrames == 0) {
            Path ref = tmp.resolve("new-reference");
            AnalyzeProcess.Result r = AnalyzeProcess.run(tmp.resolve("run-new-reference"), Map.of(), "analyze",
                    newCapture.toString(), "--out", ref.toString());
            assertEquals(0, r.exit(), r.stderr());
            newFrames = frames(ref);
            assertTrue(newFrames > 0 && newFrames != oldFrames, "the two captures are told apart: " + newFrames);
        }
        return newFrames;
    }
}
