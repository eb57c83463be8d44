package io.ackscope.spark;

import io.ackscope.spark.carry.CarriedState;
import io.ackscope.spark.carry.InputsState;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.output.OutputMarker;
import io.ackscope.tables.SameRows;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze --incremental} over rotated captures (two samples cut by {@code editcap -c} into pieces, two
 * sources): fed one file at a time it gives the tables of one run over all the files, row for row (connections
 * span the pieces); a run with nothing new touches nothing; a changed file is analysed again once; a second run on
 * the output is refused; the settle rule holds back a fresh newest file; a run killed at each commit step leaves the
 * earlier or the new dataset, or one the readers refuse, and the next run completes it.
 */
class IncrementalAnalyzeTest {
    @TempDir
    static Path tmp;
    static SparkSession spark;
    /** The pieces of each source, in time order. */
    static List<Path> nginx, loss;

    @BeforeAll
    static void pieces() throws Exception {
        spark = SparkTests.session("IncrementalAnalyzeTest");
        nginx = cut("nginx-nodelay-off.pcap.gz", 1800, tmp.resolve("pieces/a"));
        loss = cut("lab-cause-loss.pcap.gz", 500, tmp.resolve("pieces/b"));
        assertEquals(4, nginx.size());
        assertEquals(4, loss.size());
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** The sample {@code name} cut into files of {@code frames} frames by editcap, in time order. */
    static List<Path> cut(String name, int frames, Path dir) throws Exception {
        Path whole = SparkTests.gunzippedSample(name, dir.getParent().resolve("whole"));
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("editcap", "-c", Integer.toString(frames), whole.toString(),
                dir.resolve("cap.pcap").toString()).inheritIO().start();
        assertEquals(0, p.waitFor());
        try (var s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    /** Copies {@code piece} into {@code archive/<its source directory>/}, modified {@code age} ago. */
    static void add(Path archive, Path piece, Duration age) throws IOException {
        Path to = archive.resolve(piece.getParent().getFileName().toString()).resolve(piece.getFileName().toString());
        Files.createDirectories(to.getParent());
        Files.copy(piece, to);
        Files.setLastModifiedTime(to, FileTime.fromMillis(System.currentTimeMillis() - age.toMillis()));
    }

    static RunSummary run(Path archive, Path out, boolean incremental, Duration settle) throws IOException {
        return run(archive, out, incremental, settle, false);
    }

    static RunSummary run(Path archive, Path out, boolean incremental, Duration settle, boolean packets)
            throws IOException {
        Analyze.Options o = new Analyze.Options(List.of(archive.toString()), out.toString(), false, packets, 3);
        return Analyze.run(spark, incremental ? o.incremental(settle) : o,
                new PrintStream(OutputStream.nullOutputStream()), false);
    }

    static RunSummary incremental(Path archive, Path out) throws IOException {
        return run(archive, out, true, Duration.ZERO);
    }

    /** One run over everything in {@code archive}, into a new directory. */
    static Path oneShot(Path archive, String name) throws IOException {
        Path ref = tmp.resolve(name);
        run(archive, ref, false, Duration.ZERO);
        return ref;
    }

    /** Every file of {@code dir} with its size and modification time. */
    static Map<String, String> listing(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (var s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(p).toString(), Files.size(p) + " " + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return out;
    }

    static long query(Path out, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (String t : List.of("connections", "capture_files", "packets")) {
                if (!Files.isDirectory(out.resolve(t))) {
                    continue;
                }
                st.execute("CREATE VIEW " + t + " AS SELECT * FROM read_parquet('" + out.resolve(t)
                        + "/**/*.parquet', hive_partitioning = false)");
            }
            try (ResultSet r = st.executeQuery(sql)) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Test
    void filesFedOneAtATimeGiveTheTablesOfOneRunOverAllOfThemAndNothingNewTouchesNothing() throws Exception {
        Path archive = tmp.resolve("fed");
        Path out = tmp.resolve("fed-out");
        for (int i = 0; i < nginx.size(); i++) {
            add(archive, nginx.get(i), Duration.ofMinutes(5));
            assertFalse(run(archive, out, true, Duration.ZERO, true).nothingNew());
            add(archive, loss.get(i), Duration.ofMinutes(5));
            RunSummary s = run(archive, out, true, Duration.ZERO, true);
            assertEquals(2 * i + 2, s.outputFiles());
            // the first run with both sources reads all (the run over one source kept no 4-tuples); then each adds
            // its one file, unless a loss piece starts before the earlier one ends (then it reads all again)
            assertTrue(i == 0 ? s.files() == 2 : s.files() == 1 || s.files() == 2 * i + 2, "run " + i + ": "
                    + s.files());
        }
        Path ref = tmp.resolve("fed-ref");
        run(archive, ref, false, Duration.ZERO, true);
        assertEquals(List.of(), SameRows.differences(ref, out));
        assertEquals(6826 + 1965, query(out, "SELECT count(*) FROM packets"));
        assertEquals(3, query(out, "SELECT max(file_index) FROM packets WHERE source = 'b'"));
        // connections span the pieces: their last frame is after the end of the file of their first
        assertTrue(query(ref, "SELECT count(*) FROM connections c JOIN capture_files f ON f.source = c.source "
                + "AND f.file_index = c.first_file_index WHERE c.last_time > f.last_time") > 10);
        assertEquals(4, query(out, "SELECT max(file_index) + 1 FROM capture_files WHERE source = 'a'"));
        try (var dirs = Files.list(out.resolve("connections/source=a"))) {
            assertTrue(dirs.allMatch(d -> d.getFileName().toString().matches("date=\\d{4}-\\d{2}-\\d{2}")),
                    "partitioned by source and date");
        }

        Map<String, String> before = listing(out);
        RunSummary again = run(archive, out, true, Duration.ZERO, true);
        assertTrue(again.nothingNew());
        assertEquals(8, again.files());
        assertEquals(before, listing(out), "nothing new: the output is untouched");
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        PrintStream was = System.out;
        System.setOut(new PrintStream(said, true));
        try {
            assertEquals(0, io.ackscope.cli.Main.run(new String[]{"analyze", archive.toString(), "--out",
                    out.toString(), "--incremental", "--packets"}, System.out, System.err));
        } finally {
            System.setOut(was);
        }
        assertEquals("ackscope analyze: nothing new in 8 files; " + out + " is unchanged\n", said.toString(),
                "the command ends before Spark starts");
        assertEquals(before, listing(out));
        assertEquals(2, io.ackscope.cli.Main.run(new String[]{"analyze", archive.toString(), "--out", out.toString(),
                "--incremental", "--overwrite"}, new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(OutputStream.nullOutputStream())));
        assertEquals(before.keySet().stream().filter(f -> !f.equals(OutputMarker.FILE)
                        && !Path.of(f).getFileName().toString().startsWith(".")).toList(),
                OutputMarker.requireComplete(out).files(), "the manifest lists every file of the dataset");
    }

    @Test
    void aChangedFileIsAnalysedAgainOnceAndTheRowsAreThoseOfTheNewFiles() throws Exception {
        Path archive = tmp.resolve("changed");
        Path out = tmp.resolve("changed-out");
        for (int i = 0; i < 3; i++) {
            add(archive, nginx.get(i), Duration.ofMinutes(5));
            add(archive, loss.get(i), Duration.ofMinutes(5));
        }
        incremental(archive, out);
        // the middle file of b rewritten: the first 300 frames of another piece under its name
        Path middle = archive.resolve("b").resolve(loss.get(1).getFileName().toString());
        Process p = new ProcessBuilder("editcap", "-r", loss.get(3).toString(), middle + ".new", "1-300")
                .inheritIO().start();
        assertEquals(0, p.waitFor());
        Files.move(Path.of(middle + ".new"), middle, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertFalse(incremental(archive, out).nothingNew());
        assertEquals(List.of(), SameRows.differences(oneShot(archive, "changed-ref"), out));
        assertTrue(incremental(archive, out).nothingNew(), "analysed once");

        assertFalse(run(archive, out, true, Duration.ZERO, true).nothingNew(), "other options: analysed again");
        assertEquals(query(out, "SELECT sum(frames) FROM capture_files"),
                query(out, "SELECT count(*) FROM packets"));
        assertTrue(run(archive, out, true, Duration.ZERO, true).nothingNew());
        Files.writeString(out.resolve(CarriedState.INPUTS), "{\"version\": 1, \"files\": [");
        assertFalse(run(archive, out, true, Duration.ZERO, true).nothingNew(), "a state that does not parse");
        assertEquals(List.of(), SameRows.differences(oneShot(archive, "changed-ref-2"), out, java.util.Set.of(
                "packets")));
    }

    @Test
    void aFileRewrittenWithTheSameSizeAndTimeIsToldApartByTheChecksumsOfItsEnds() throws Exception {
        Path f = tmp.resolve("fingerprint/" + loss.get(0).getFileName());
        Files.createDirectories(f.getParent());
        Files.copy(loss.get(0), f);
        org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(new Configuration());
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(f.toUri());
        InputsState.Fingerprint before = InputsState.fingerprint(fs, p);
        FileTime time = Files.getLastModifiedTime(f);
        assertEquals(Files.size(f), before.size());
        assertEquals(time.toMillis(), before.mtimeMillis());
        byte[] b = Files.readAllBytes(f);
        b[b.length - 1] ^= 1; // the last byte of the last frame
        Files.write(f, b);
        Files.setLastModifiedTime(f, time);
        InputsState.Fingerprint after = InputsState.fingerprint(fs, p);
        assertEquals(before.size(), after.size());
        assertEquals(before.mtimeMillis(), after.mtimeMillis());
        assertEquals(before.crcFirst(), after.crcFirst());
        assertTrue(before.crcLast() != after.crcLast(), "the last block's checksum tells the files apart");
    }

    @Test
    void aSecondRunOnTheOutputIsRefused() throws Exception {
        Path archive = tmp.resolve("busy");
        Path out = tmp.resolve("busy-out");
        add(archive, nginx.get(0), Duration.ofMinutes(5));
        add(archive, loss.get(0), Duration.ofMinutes(5));
        incremental(archive, out);
        add(archive, nginx.get(1), Duration.ofMinutes(5));
        Map<String, String> before = listing(out);
        try (OutputDirectory first = OutputDirectory.prepare(out.toString(), List.of(archive.toString()),
                new Configuration(), false, true)) {
            OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class, () -> incremental(archive, out));
            assertTrue(e.getMessage().contains("in use by ackscope analyze (pid " + ProcessHandle.current().pid()),
                    e.getMessage());
            assertFalse(e.usage());
            first.abort();
        }
        assertEquals(before, listing(out));
    }

    @Test
    void theSettleRuleHoldsBackAFreshNewestFileUntilItIsQuiet() throws Exception {
        Path archive = tmp.resolve("settle");
        Path out = tmp.resolve("settle-out");
        add(archive, nginx.get(0), Duration.ofMinutes(5));
        add(archive, loss.get(0), Duration.ofMinutes(5));
        add(archive, nginx.get(1), Duration.ZERO);
        RunSummary first = run(archive, out, true, Duration.ofSeconds(60));
        assertEquals(1, first.heldBack().size(), first.heldBack().toString());
        assertTrue(first.heldBack().get(0).endsWith("/a/" + nginx.get(1).getFileName()), first.heldBack().toString());
        assertEquals(2, first.files());
        assertEquals(2, query(out, "SELECT count(*) FROM capture_files"));
        assertTrue(OutputMarker.requireComplete(out).json().path("held_back").toString()
                .contains(nginx.get(1).getFileName().toString()), "listed in _SUCCESS");

        assertTrue(run(archive, out, true, Duration.ofSeconds(60)).nothingNew(), "still fresh: nothing new");
        Files.setLastModifiedTime(archive.resolve("a").resolve(nginx.get(1).getFileName().toString()),
                FileTime.fromMillis(System.currentTimeMillis() - 61_000));
        RunSummary later = run(archive, out, true, Duration.ofSeconds(60));
        assertEquals(List.of(), later.heldBack());
        assertEquals(3, query(out, "SELECT count(*) FROM capture_files"));
        // the newer file is always taken, however fresh: only the newest file of a source may still be written
        add(archive, nginx.get(2), Duration.ZERO);
        add(archive, nginx.get(3), Duration.ZERO);
        assertEquals(1, run(archive, out, true, Duration.ofSeconds(60)).heldBack().size());
        assertEquals(4, query(out, "SELECT count(*) FROM capture_files"));
    }

    static Path killArchive;
    static Path killTemplate;
    static Path killRef;

    /** An output of three files of one source, and the one-shot tables of those and a fourth. */
    static synchronized void killFixtures() throws Exception {
        if (killTemplate != null) {
            return;
        }
        killArchive = tmp.resolve("kill-in");
        for (int i = 0; i < 3; i++) {
            add(killArchive, loss.get(i), Duration.ofMinutes(5));
        }
        killTemplate = tmp.resolve("kill-template");
        incremental(killArchive, killTemplate);
        add(killArchive, loss.get(3), Duration.ofMinutes(5));
        killRef = oneShot(killArchive, "kill-ref");
    }

    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {"staged", "commit-record", "old-marker-moved", "old-entry-moved", "new-entry-moved",
            "marker-moved"})
    void aRunKilledAtEachCommitStepLeavesAReadableOrRefusedOutputAndTheNextRunCompletesIt(String step)
            throws Exception {
        killFixtures();
        Path out = tmp.resolve("kill-out-" + step);
        CommitCrashTest.copy(killTemplate, out);
        AnalyzeProcess.killAt(step, tmp.resolve("run-kill-" + step), pid -> { }, "analyze",
                killArchive.toString(), "--out", out.toString(), "--incremental", "--settle", "0",
                "--partitions", "3");
        List<String> old = SameRows.differences(killTemplate, out, java.util.Set.of());
        boolean complete;
        try {
            OutputMarker.requireComplete(out);
            complete = true;
        } catch (OutputMarker.Invalid e) {
            complete = false;
        }
        switch (step) {
            case "staged", "commit-record" -> assertTrue(complete && old.isEmpty(), "the earlier dataset: " + old);
            case "marker-moved" -> assertEquals(List.of(), SameRows.differences(killRef, out), "the new dataset");
            default -> assertFalse(complete, "refused while the commit is half done");
        }
        RunSummary next = incremental(killArchive, out);
        assertEquals(step.equals("staged"), !next.nothingNew(),
                "a run killed before its commit record is redone; after it, its commit is completed by the next "
                        + "run's recovery, which then has nothing new");
        assertEquals(List.of(), SameRows.differences(killRef, out));
        assertEquals(List.of(), CommitCrashTest.leftovers(out));
        for (String f : OutputMarker.requireComplete(out).files()) {
            assertTrue(Files.exists(out.resolve(f)), f);
        }
    }
}
