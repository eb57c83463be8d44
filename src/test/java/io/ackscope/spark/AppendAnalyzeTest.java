package io.ackscope.spark;

import io.ackscope.spark.carry.CarriedState;
import io.ackscope.spark.carry.ArchiveInputs;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.tables.SameRows;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cheap path of {@code analyze --incremental}: a source's files fed one at a time are each read alone (the run
 * before held its open connections), and after every file the output equals one run over the files so far, row for
 * row, in every table ({@link SameRows}: connections spanning files, provisional rows replaced, {@code packets},
 * {@code latency_summary} and {@code findings} exact).
 */
class AppendAnalyzeTest {
    @TempDir
    static Path tmp;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTests.session("AppendAnalyzeTest");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static RunSummary run(Path archive, Path out, boolean incremental) throws Exception {
        Analyze.Options o = new Analyze.Options(List.of(archive.toString()), out.toString(), false, true, 3);
        return Analyze.run(spark, incremental ? o.incremental(Duration.ZERO) : o,
                new PrintStream(OutputStream.nullOutputStream()), false);
    }

    /** Files of {@code table} in {@code out} whose name starts with {@code prefix}. */
    private static long files(Path out, String table, String prefix) throws Exception {
        try (Stream<Path> s = Files.walk(out.resolve(table))) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
        }
    }

    private void feedOneAtATime(String sample, int frames, int checkEvery) throws Exception {
        List<Path> pieces = IncrementalAnalyzeTest.cut(sample, frames, tmp.resolve("pieces-" + sample + "/src"));
        assertTrue(pieces.size() >= 4, sample + ": " + pieces.size() + " pieces");
        Path archive = tmp.resolve("archive-" + sample);
        Path out = tmp.resolve("out-" + sample);
        boolean carriedSome = false;
        int appended = 0;
        for (int i = 0; i < pieces.size(); i++) {
            IncrementalAnalyzeTest.add(archive, pieces.get(i), Duration.ofMinutes(5));
            ArchiveInputs decided = decide(archive, out);
            RunSummary s = run(archive, out, true);
            if (i > 0 && decided.append == null) {
                // a file whose first record is not after the analysed files' last (capture times ran backwards
                // across the rotation) may hold duplicates of theirs: every file is read again
                assertTrue(decided.whole.contains("does not start after"), decided.whole);
                assertEquals(i + 1, s.files());
            } else {
                assertEquals(1, s.files(), sample + " file " + i + ": only the new file is read");
                appended += i > 0 ? 1 : 0;
            }
            long open = files(out, "connections", "open-");
            carriedSome |= open > 0 && i + 1 < pieces.size();
            try (Stream<Path> held = Files.list(out.resolve(CarriedState.DIR))) {
                assertEquals(1, held.filter(p -> p.getFileName().toString().startsWith("held-")).count(),
                        "the earlier runs' carried state is retired");
            }
            if (i % checkEvery == checkEvery - 1 || i + 1 == pieces.size()) {
                Path ref = tmp.resolve("ref-" + sample + "-" + i);
                run(archive, ref, false);
                assertEquals(List.of(), SameRows.differences(ref, out), sample + " after file " + i);
            }
        }
        assertTrue(carriedSome, sample + ": some connection was open at the end of a file and carried");
        assertTrue(appended >= pieces.size() / 2, sample + ": " + appended + " of " + pieces.size() + " appended");
    }

    @Test
    void aSourceFedOneFileAtATimeEqualsOneRunAfterEveryFile() throws Exception {
        feedOneAtATime("nginx-nodelay-off.pcap.gz", 900, 1);
    }

    @Test
    void lossAndRetransmissionsAcrossFilesEqualOneRun() throws Exception {
        feedOneAtATime("lab-cause-loss.pcap.gz", 400, 2);
    }

    @Test
    void aFileThatStartsBeforeTheAnalysedOnesEndIsAnalysedWithAllTheOthers() throws Exception {
        List<Path> pieces = IncrementalAnalyzeTest.cut("nginx-nodelay-off.pcap.gz", 2000,
                tmp.resolve("pieces-late/src"));
        Path archive = tmp.resolve("archive-late");
        Path out = tmp.resolve("out-late");
        IncrementalAnalyzeTest.add(archive, pieces.get(0), Duration.ofMinutes(5));
        IncrementalAnalyzeTest.add(archive, pieces.get(2), Duration.ofMinutes(5));
        run(archive, out, true);
        IncrementalAnalyzeTest.add(archive, pieces.get(1), Duration.ofMinutes(5));   // a late upload
        ArchiveInputs d = decide(archive, out);
        assertNull(d.append);
        assertTrue(d.whole.contains("sorts before"), d.whole);
        assertEquals(3, run(archive, out, true).files(), "every file read again");
        Path ref = tmp.resolve("ref-late");
        run(archive, ref, false);
        assertEquals(List.of(), SameRows.differences(ref, out));
    }

    /** Decides a run of {@code archive} into {@code out} without running it. */
    private static ArchiveInputs decide(Path archive, Path out) throws Exception {
        try (OutputDirectory od = OutputDirectory.prepare(out.toString(), List.of(archive.toString()),
                spark.sparkContext().hadoopConfiguration(), false, true)) {
            ArchiveInputs d = Analyze.decide(od, new Analyze.Options(List.of(archive.toString()), out.toString(),
                    false, true, 3).incremental(Duration.ZERO), spark.sparkContext().hadoopConfiguration());
            od.abort();
            return d;
        }
    }

    @Test
    void twoSourcesThatShareNoConnectionAreAppendedEachAlone() throws Exception {
        List<Path> a = IncrementalAnalyzeTest.cut("nginx-nodelay-off.pcap.gz", 2000, tmp.resolve("two-a/a"));
        List<Path> b = IncrementalAnalyzeTest.cut("lab-cause-churn.pcap.gz", 150, tmp.resolve("two-b/b"));
        Path archive = tmp.resolve("archive-two");
        Path out = tmp.resolve("out-two");
        IncrementalAnalyzeTest.add(archive, a.get(0), Duration.ofMinutes(5));
        IncrementalAnalyzeTest.add(archive, b.get(0), Duration.ofMinutes(5));
        assertEquals(2, run(archive, out, true).files());
        for (int i = 1; i < Math.min(a.size(), b.size()); i++) {
            IncrementalAnalyzeTest.add(archive, a.get(i), Duration.ofMinutes(5));
            assertNull(decide(archive, out).whole, "source a alone");
            assertEquals(1, run(archive, out, true).files(), "only a's new file is read");
            IncrementalAnalyzeTest.add(archive, b.get(i), Duration.ofMinutes(5));
            ArchiveInputs d = decide(archive, out);
            assertNull(d.whole, "source b alone");
            java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
            Analyze.Options o = new Analyze.Options(List.of(archive.toString()), out.toString(), false, true, 3);
            assertEquals(1, Analyze.run(spark, o.incremental(Duration.ZERO), new PrintStream(said, true), false)
                    .files(), "only b's new file is read: " + said);
        }
        Path ref = tmp.resolve("ref-two");
        run(archive, ref, false);
        assertEquals(List.of(), SameRows.differences(ref, out));
    }

    @Test
    void aNewConnectionSeenFromTwoCapturePointsMakesTheRunReadEveryFileAndPair() throws Exception {
        List<Path> client = IncrementalAnalyzeTest.cut("lab-two-points-client.pcap.gz", 600,
                tmp.resolve("points-c/client"));
        List<Path> server = IncrementalAnalyzeTest.cut("lab-two-points-server.pcap.gz", 600,
                tmp.resolve("points-s/server"));
        Path archive = tmp.resolve("archive-points");
        Path out = tmp.resolve("out-points");
        IncrementalAnalyzeTest.add(archive, client.get(0), Duration.ofMinutes(5));
        run(archive, out, true);
        IncrementalAnalyzeTest.add(archive, server.get(0), Duration.ofMinutes(5));
        ArchiveInputs d = decide(archive, out);
        assertTrue(d.whole.contains("kept no 4-tuples of source client"), "a run over one source keeps none: "
                + d.whole);
        RunSummary s = run(archive, out, true);
        assertEquals(2, s.files(), "every file read, and paired");
        IncrementalAnalyzeTest.add(archive, client.get(1), Duration.ofMinutes(5));
        assertTrue(decide(archive, out).whole.contains("paired"), "paired sources are analysed whole");
        run(archive, out, true);
        Path ref = tmp.resolve("ref-points");
        run(archive, ref, false);
        assertEquals(List.of(), SameRows.differences(ref, out));
        assertTrue(IncrementalAnalyzeTest.query(out, "SELECT count(*) FROM connections WHERE peer_stream IS NOT NULL")
                > 0, "connections paired between the points");
    }

    @Test
    void damagedCarriedStateMakesTheRunReadEveryFileInsteadOfFailing() throws Exception {
        List<Path> pieces = IncrementalAnalyzeTest.cut("nginx-nodelay-off.pcap.gz", 2000,
                tmp.resolve("pieces-damage/src"));
        Path archive = tmp.resolve("archive-damage");
        Path out = tmp.resolve("out-damage");
        IncrementalAnalyzeTest.add(archive, pieces.get(0), Duration.ofMinutes(5));
        IncrementalAnalyzeTest.add(archive, pieces.get(1), Duration.ofMinutes(5));
        run(archive, out, true);
        List<Path> held;
        try (Stream<Path> s = Files.walk(out.resolve(CarriedState.DIR))) {
            held = s.filter(p -> p.toString().endsWith(".held") || p.toString().endsWith(".agg")).toList();
        }
        assertTrue(held.size() >= 2, held.toString());
        for (Path p : held) {       // cut every state file short, its checksum side file with it
            Files.write(p, java.util.Arrays.copyOf(Files.readAllBytes(p), 10));
            Files.deleteIfExists(p.resolveSibling("." + p.getFileName() + ".crc"));
        }
        IncrementalAnalyzeTest.add(archive, pieces.get(2), Duration.ofMinutes(5));
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        Analyze.Options o = new Analyze.Options(List.of(archive.toString()), out.toString(), false, true, 3);
        RunSummary s = Analyze.run(spark, o.incremental(Duration.ZERO), new PrintStream(said, true), false);
        assertTrue(said.toString().contains("cannot be read"), said.toString());
        assertEquals(3, s.files(), "every file read again");
        Path ref = tmp.resolve("ref-damage");
        run(archive, ref, false);
        assertEquals(List.of(), SameRows.differences(ref, out));
    }
}
