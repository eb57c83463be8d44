package io.ackscope.spark;

import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.watch.WatchedInputs;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.output.OutputLock;
import io.ackscope.tables.SameRows;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze --watch} in a child JVM over a directory that receives, one at a time, the rotated pieces of a real
 * capture ({@code nginx-nodelay-off.pcap.gz} cut every {@value #FRAMES_PER_FILE} frames, so connections span files):
 * the last piece, held back while it is still being modified, is taken by the settle timer once it is left alone;
 * once every piece is taken, the tables equal a one-shot {@code analyze} of the same files row for row; a watch
 * killed with SIGKILL and started again adds no row twice; SIGINT and SIGTERM stop it with status 0 and its locks
 * released.
 */
@Tag("slow")
class WatchAnalyzeTest {
    static final int FRAMES_PER_FILE = 900;
    /** Bounds every watch a test starts, should the test fail to stop it. */
    static final String STOP_AFTER = "240s";

    @TempDir
    static Path tmp;
    static List<Path> pieces;

    @BeforeAll
    static void cut() throws Exception {
        pieces = cut(SparkTests.sample("nginx-nodelay-off.pcap.gz"), tmp.resolve("pieces"), FRAMES_PER_FILE);
        assertEquals(8, pieces.size(), "6,826 frames in pieces of " + FRAMES_PER_FILE);
    }

    /**
     * {@code capture} cut into nanosecond pcap files of {@code frames} records each, named as tcpdump -G names them
     * (the time of the first record), as editcap -c cuts it.
     */
    static List<Path> cut(Path capture, Path dir, int frames) throws Exception {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        try (CaptureReader r = Captures.open(capture)) {
            OutputStream out = null;
            int n = 0;
            while (r.next()) {
                if (n++ % frames == 0) {
                    if (out != null) {
                        out.close();
                    }
                    Path f = dir.resolve(String.format("%020d.pcap", r.timestampNanos()));
                    files.add(f);
                    out = Files.newOutputStream(f);
                    ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
                    // magic (nanoseconds), version 2.4, zone, sigfigs, snaplen, link type
                    h.putInt(0xa1b23c4d).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65_535)
                            .putInt(r.linkType());
                    out.write(h.array());
                }
                ByteBuffer rec = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                // seconds, nanoseconds, captured length, original length
                long t = r.timestampNanos();
                rec.putInt((int) (t / 1_000_000_000L)).putInt((int) (t % 1_000_000_000L))
                        .putInt(r.capturedLength()).putInt((int) r.originalLength());
                out.write(rec.array());
                out.write(r.data(), r.dataOffset(), r.capturedLength());
            }
            if (out != null) {
                out.close();
            }
        }
        return files;
    }

    /** A watch in a child JVM; its standard output in {@code stdout}. */
    record Watch(Process process, Path stdout, Path stderr) {
        static Watch start(Path work, String... args) throws IOException {
            Files.createDirectories(work);
            List<String> all = new ArrayList<>(List.of("analyze"));
            all.addAll(List.of(args));
            all.addAll(List.of("--watch", "--settle", "1s", "--stop-after", STOP_AFTER, "--master", "local[2]",
                    "--partitions", "3"));
            Path out = work.resolve("stdout.txt"), err = work.resolve("stderr.txt");
            Process p = AnalyzeProcess.builder(Map.of(), all).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            return new Watch(p, out, err);
        }

        /** Waits (at most 3 minutes) for a run line saying that the output holds {@code files} files, none waiting. */
        void awaitAnalysed(int files) throws Exception {
            awaitLine("; " + files + " files in the output, 0 waiting;", () -> { });
        }

        /** Waits (at most 3 minutes) for a run line containing {@code text}, running {@code meanwhile} meanwhile. */
        String awaitLine(String text, Meanwhile meanwhile) throws Exception {
            List<String> lines = await(runs -> runs.stream().anyMatch(l -> l.contains(text)), meanwhile);
            return lines.stream().filter(l -> l.contains(text)).findFirst().orElseThrow();
        }

        /** Waits (at most 3 minutes) until the run lines satisfy {@code done}; {@code meanwhile} every 200 ms. */
        List<String> await(Predicate<List<String>> done, Meanwhile meanwhile) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (System.nanoTime() < deadline) {
                List<String> runs = Files.readAllLines(stdout).stream().filter(l -> l.startsWith("watch: run "))
                        .toList();
                if (!runs.isEmpty() && done.test(runs)) {
                    return runs;
                }
                assertTrue(process.isAlive(), "the watch ended: " + Files.readString(stdout)
                        + Files.readString(stderr));
                meanwhile.run();
                Thread.sleep(200);
            }
            throw new AssertionError("the watch's runs did not get there: " + Files.readString(stdout));
        }

        /** Sends {@code signal} and returns the exit status (at most 2 minutes). */
        int signal(String signal) throws Exception {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the watch did not stop on SIG" + signal);
            return process.exitValue();
        }
    }

    /** The files the stream has handed over: the sum of the run lines' "batch N: K new files". */
    static int batchFiles(List<String> runLines) {
        int n = 0;
        for (String l : runLines) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(batch \\d+: (\\d+) new files?\\)")
                    .matcher(l);
            if (m.find()) {
                n += Integer.parseInt(m.group(1));
            }
        }
        return n;
    }

    /** What a test does while it waits. */
    interface Meanwhile {
        void run() throws IOException;
    }

    /** Puts a piece into the watched directory whole, under its final name; returns its path there. */
    static Path arrive(Path piece, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path hidden = dir.resolve("." + piece.getFileName());
        Files.copy(piece, hidden, StandardCopyOption.REPLACE_EXISTING);
        return Files.move(hidden, dir.resolve(piece.getFileName()), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Whether a run is staging its tables in {@code out}. */
    static boolean staging(Path out) throws IOException {
        try (var s = Files.list(out)) {
            return s.anyMatch(f -> f.getFileName().toString().startsWith(OutputDirectory.STAGING_PREFIX));
        }
    }

    static void assertSameRowsAsOneShot(Path watched, Path out, Path work) throws Exception {
        String oneShot = work.resolve("one-shot").toString();
        SparkTests.analyzeCommand(watched.toString(), "--out", oneShot, "--master", "local[2]", "--partitions", "3");
        assertEquals(List.of(), SameRows.differences(out, Path.of(oneShot)));
        try (var files = Files.walk(out.resolve("connections"))) {
            assertTrue(files.anyMatch(f -> f.toString().endsWith(".parquet")), "the comparison has tables to see");
        }
    }

    static void assertUnlocked(Path out, Path checkpoint) throws IOException {
        assertFalse(Files.exists(out.resolve(OutputLock.FILE)), "output lock file left behind");
        assertFalse(Files.exists(checkpoint.resolve(OutputLock.FILE)), "checkpoint lock file left behind");
        try (OutputLock l = OutputLock.acquire(out, "test")) {
            assertTrue(Files.exists(out.resolve(OutputLock.FILE)));
        }
    }

    @Test
    void filesArrivingOneAtATimeGiveTheTablesOfOneRunTheLastTakenOnceQuietAndSigintStopsCleanly() throws Exception {
        Path work = tmp.resolve("one-at-a-time");
        Path watched = work.resolve("captures"), out = work.resolve("out");
        arrive(pieces.get(0), watched.resolve("sensor1"));
        Watch w = Watch.start(work.resolve("watch"), watched.toString(), "--out", out.toString());
        w.awaitAnalysed(1); // the first piece is taken once it has settled (no newer file arrives)
        int last = pieces.size() - 1;
        for (int i = 1; i < last; i++) {
            arrive(pieces.get(i), watched.resolve("sensor1"));
            Thread.sleep(700);
        }
        // the last file as tcpdump leaves it while it still writes: modified again and again. A run holds it back
        // (its source's newest file, not quiet for --settle); once it is left alone, nothing new arrives to raise
        // a batch, and only the settle timer can take it
        // a batch (the stream has handed over every file) and the last run holds it back
        Path writing = arrive(pieces.get(last), watched.resolve("sensor1"));
        w.await(lines -> batchFiles(lines) == pieces.size()
                        && lines.get(lines.size() - 1).contains("; " + last + " files in the output, 1 waiting;"),
                () -> Files.setLastModifiedTime(writing, FileTime.fromMillis(System.currentTimeMillis())));
        String taken = w.awaitLine("; " + pieces.size() + " files in the output, 0 waiting;", () -> { });
        // the run appends: it reads the settled file alone, the earlier runs' open connections carried into it
        assertTrue(taken.contains("(quiet: waiting files settled): analysed 1 file,"), taken);
        assertEquals(0, w.signal("INT"), Files.readString(w.stderr()));
        assertTrue(Files.readString(w.stdout()).contains("watch: stopped after"), Files.readString(w.stdout()));
        assertUnlocked(out, out.resolve(WatchedInputs.DEFAULT_CHECKPOINT));
        assertSameRowsAsOneShot(watched, out, work);
    }

    @Test
    void aSettledFileThatChangesIsAnalysedAgainOnceQuiet() throws Exception {
        Path work = tmp.resolve("changed");
        Path watched = work.resolve("captures"), out = work.resolve("out");
        arrive(pieces.get(0), watched.resolve("sensor1"));
        Path second = arrive(pieces.get(1), watched.resolve("sensor1"));
        Watch w = Watch.start(work.resolve("watch"), watched.toString(), "--out", out.toString());
        w.awaitAnalysed(2);
        w.awaitLine("(batch 0: 2 new files)", () -> { }); // the stream's own run, which the rewrite must follow
        // the second file rewritten in place after it was taken (the stream never reports its path again): its
        // frames are now the third piece's, and it is left quiet
        Path rewritten = second.resolveSibling("." + second.getFileName());
        Files.copy(pieces.get(2), rewritten);
        Files.move(rewritten, second, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.setLastModifiedTime(second, FileTime.fromMillis(System.currentTimeMillis() - 5_000));
        String line = w.awaitLine("(changed and quiet: ", () -> { }); // printed when that run has committed
        assertTrue(line.contains(second.getFileName().toString()), line);
        assertTrue(line.contains("analysed 2 files") && line.contains("; 2 files in the output, 0 waiting;"), line);
        assertEquals(0, w.signal("INT"), Files.readString(w.stderr()));
        assertSameRowsAsOneShot(watched, out, work);
    }

    @Test
    void watchKilledAndStartedAgainAddsNoRowTwice() throws Exception {
        Path work = tmp.resolve("killed");
        Path watched = work.resolve("captures"), out = work.resolve("out"), checkpoint = work.resolve("ck");
        String[] args = {watched.toString(), "--out", out.toString(), "--checkpoint", checkpoint.toString()};
        for (int i = 0; i < 4; i++) {
            arrive(pieces.get(i), watched.resolve("sensor1"));
        }
        Watch first = Watch.start(work.resolve("first"), args);
        first.awaitAnalysed(4);
        arrive(pieces.get(4), watched.resolve("sensor1"));
        arrive(pieces.get(5), watched.resolve("sensor1"));
        // killed in the run these start (its staging directory exists): the batch is not committed to the checkpoint
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!staging(out) && first.process().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(first.process().isAlive(), Files.readString(first.stdout()) + Files.readString(first.stderr()));
        first.process().destroyForcibly().waitFor();
        for (int i = 6; i < pieces.size(); i++) {
            arrive(pieces.get(i), watched.resolve("sensor1"));
        }
        Watch second = Watch.start(work.resolve("second"), args);
        second.awaitAnalysed(pieces.size());
        assertEquals(0, second.signal("TERM"), Files.readString(second.stderr()));
        assertUnlocked(out, checkpoint);
        assertSameRowsAsOneShot(watched, out, work);
    }
}
