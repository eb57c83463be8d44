package io.ackscope.spark.commit;

import io.ackscope.spark.carry.CarriedState;
import io.ackscope.spark.Analyze;
import io.ackscope.spark.RunSummary;
import io.ackscope.spark.SparkTests;
import io.ackscope.output.OutputMarker;
import io.ackscope.report.Report;
import io.ackscope.report.ReportFilter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code analyze} may do to its output directory: never touch an input, never remove a file it did not write,
 * never let two runs share a directory, and clean up after runs that were interrupted. (Kills at each commit step:
 * {@link io.ackscope.spark.CommitCrashTest}.)
 */
class OutputDirectoryTest {
    static final String A = "zeek__methods.pcap";
    static final String B = "pcpp__four_ipv6_http_streams.pcap";
    static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    static Path tmp;
    static SparkSession spark;
    static Path corpusCopy;

    @BeforeAll
    static void setUp() throws IOException {
        spark = SparkTests.session("OutputDirectoryTest");
        corpusCopy = SparkTests.copyCorpus(tmp.resolve("corpus"), A, B);
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    /** Analyzes {@code inputs} into {@code out}, writing report.html into the staged output as the CLI does. */
    static RunSummary analyze(Path out, boolean overwrite, Path... inputs) throws IOException {
        return Analyze.run(spark, new Analyze.Options(java.util.Arrays.stream(inputs).map(Path::toString).toList(),
                out.toString(), overwrite, false, 2), QUIET, false, (staged, s) -> {
            Path dir = Path.of(java.net.URI.create(staged));
            Report.write(dir, dir.resolve(Report.FILE_NAME), ReportFilter.ALL);
        });
    }

    static Path capture(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        return Files.copy(corpusCopy.resolve(name), dir.resolve(name));
    }

    static List<String> capturedFiles(Path out) {
        return spark.read().parquet(out.resolve("capture_files").toString()).orderBy("file_index")
                .collectAsList().stream().map(r -> Path.of(r.<String>getAs("file").replaceFirst("^file:", ""))
                        .getFileName().toString()).toList();
    }

    static List<String> names(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    // --- data loss -----------------------------------------------------------------------------------------------

    @Test
    void overwriteRefusesAnInputDirectoryInsideTheOutputAndKeepsItAndTheEarlierOutput() throws IOException {
        Path out = tmp.resolve("dir-inside");
        analyze(out, false, corpusCopy.resolve(A));
        Path caps = out.resolve("caps");
        Path cap = capture(caps, B);
        OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class, () -> analyze(out, true, caps));
        assertTrue(e.usage());
        assertTrue(e.getMessage().contains("lies inside the output directory"), e.getMessage());
        assertEquals(Files.size(corpusCopy.resolve(B)), Files.size(cap), "the capture is untouched");
        assertEquals(List.of(A), capturedFiles(out), "the earlier output is untouched");
        assertTrue(Files.exists(out.resolve(OutputMarker.FILE)));
        assertFalse(Files.exists(out.resolve(OutputDirectory.LOCK)), "no lock left behind");
    }

    @Test
    void overwriteRefusesACaptureFileInsideTheOutput() throws IOException {
        Path out = tmp.resolve("out8");
        analyze(out, false, corpusCopy.resolve(A));
        Path trace = Files.copy(corpusCopy.resolve(B), out.resolve("trace.pcap"));
        OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class, () -> analyze(out, true, trace));
        assertTrue(e.getMessage().startsWith("input " + trace + " lies inside"), e.getMessage());
        assertTrue(Files.isRegularFile(trace));
        assertEquals(List.of(A), capturedFiles(out));
    }

    @Test
    void refusesAnOutputInsideOrEqualToAnInputDirectoryAlsoThroughASymlink() throws IOException {
        Path in = tmp.resolve("captures");
        capture(in, A);
        Path link = Files.createSymbolicLink(tmp.resolve("captures-link"), in);
        for (Path out : List.of(in.resolve("out"), link.resolve("out"), link)) {
            OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class, () -> analyze(out, false, in),
                    out.toString());
            assertTrue(e.getMessage().contains("inside the input directory") || e.getMessage().contains(" is the "
                    + "output directory"), e.getMessage());
        }
        assertEquals(List.of(A), names(in), "nothing created among the captures");
        // a glob that matches the output directory itself
        Path out = tmp.resolve("globbed");
        analyze(out, false, corpusCopy.resolve(A));
        assertThrows(OutputDirectory.Refused.class, () -> analyze(out, true, tmp.resolve("glob*")));
        assertEquals(List.of(A), capturedFiles(out));
    }

    @Test
    void overwriteRemovesOnlyWhatAckscopeWroteAndKeepsTheUsersFiles() throws IOException {
        Path out = tmp.resolve("shared");
        analyze(out, false, corpusCopy.resolve(A));
        Files.writeString(out.resolve("notes.txt"), "what I found");
        Files.createDirectories(out.resolve("plots")).resolve("rtt.png").toFile().createNewFile();
        Report.write(out, out.resolve("filtered.html"), ReportFilter.ALL);
        String filtered = Files.readString(out.resolve("filtered.html"));
        String oldReport = Files.readString(out.resolve(Report.FILE_NAME));

        analyze(out, true, corpusCopy.resolve(B));
        assertEquals(List.of(B), capturedFiles(out));
        assertEquals("what I found", Files.readString(out.resolve("notes.txt")));
        assertTrue(Files.exists(out.resolve("plots").resolve("rtt.png")));
        assertEquals(filtered, Files.readString(out.resolve("filtered.html")));
        String newReport = Files.readString(out.resolve(Report.FILE_NAME));
        assertTrue(newReport.contains(B) && !oldReport.contains(B), "report.html is the new run's");
        OutputMarker m = OutputMarker.requireComplete(out);
        assertTrue(m.files().contains(Report.FILE_NAME) && m.files().contains("connections/_SUCCESS"), m.files()
                .toString());
        assertFalse(m.files().contains("notes.txt"));
        List<String> left = names(out);
        assertTrue(left.stream().noneMatch(n -> n.startsWith("_ackscope") && !n.equals(CarriedState.DIR)),
                left.toString());
    }

    @Test
    void overwriteRefusesWhenATableDirectoryHoldsAFileAckscopeDidNotWrite() throws IOException {
        Path out = tmp.resolve("table-notes");
        analyze(out, false, corpusCopy.resolve(A));
        Path mine = Files.writeString(out.resolve("connections").resolve("mine.txt"), "keep me");
        OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class,
                () -> analyze(out, true, corpusCopy.resolve(B)));
        assertTrue(e.getMessage().contains("mine.txt was not written by ackscope"), e.getMessage());
        assertEquals("keep me", Files.readString(mine));
        assertEquals(List.of(A), capturedFiles(out));
    }

    @Test
    void overwriteDoesNotReplaceAUserFolderNamedLikeANewTable() throws IOException {
        Path out = tmp.resolve("packets-in-the-way");
        analyze(out, false, corpusCopy.resolve(A));
        Path mine = Files.writeString(Files.createDirectories(out.resolve("packets")).resolve("mine.txt"), "keep");
        OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class, () -> Analyze.run(spark,
                new Analyze.Options(List.of(corpusCopy.resolve(B).toString()), out.toString(), true, true, 2), QUIET,
                false));
        assertEquals(out.resolve("packets") + " was not written by ackscope and is in the way of the new output; "
                + "move it away and run again", e.getMessage());
        assertEquals("keep", Files.readString(mine));
        assertEquals(List.of(A), capturedFiles(out), "the earlier output is untouched");
        assertTrue(names(out).stream().noneMatch(n -> n.startsWith("_ackscope") && !n.equals(CarriedState.DIR)),
                names(out).toString());
    }

    @Test
    void refusesToOverwriteAnOutputWhoseMarkerDoesNotParse() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("empty-marker"));
        Files.createDirectories(out.resolve("connections"));
        Files.writeString(out.resolve(OutputMarker.FILE), "");
        OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class,
                () -> analyze(out, true, corpusCopy.resolve(A)));
        assertTrue(e.getMessage().contains("is empty"), e.getMessage());
        assertTrue(Files.isDirectory(out.resolve("connections")));
    }

    // --- interrupted runs and concurrent runs --------------------------------------------------------------------

    @Test
    void theNextRunRemovesStagingThatNeverStartedToCommit() throws IOException {
        Path out = tmp.resolve("stale");
        analyze(out, false, corpusCopy.resolve(A));
        Path stale = Files.createDirectories(out.resolve(OutputDirectory.STAGING_PREFIX + "dead")
                .resolve("connections"));
        Files.writeString(stale.resolve("part-0.parquet"), "half a table");
        assertEquals(List.of(A), capturedFiles(out), "readers ignore the hidden staging folder");
        analyze(out, true, corpusCopy.resolve(B));
        assertFalse(Files.exists(stale.getParent()));
        assertEquals(List.of(B), capturedFiles(out));
    }

    @Test
    void aSecondRunOnTheSameOutputIsRefusedNamingTheHolder() throws IOException {
        Path out = tmp.resolve("busy");
        Configuration conf = new Configuration();
        try (OutputDirectory first = OutputDirectory.prepare(out.toString(), List.of(corpusCopy.resolve(A)
                .toString()), conf, false)) {
            OutputDirectory.Refused e = assertThrows(OutputDirectory.Refused.class,
                    () -> analyze(out, true, corpusCopy.resolve(B)));
            assertFalse(e.usage());
            assertTrue(e.getMessage().contains("in use by ackscope analyze (pid " + ProcessHandle.current().pid()),
                    e.getMessage());
            assertTrue(Files.isDirectory(Path.of(first.staging().toUri())), "the holder's staging is untouched");
            first.abort();
        }
        assertFalse(Files.exists(out), "the directory the holder created and left empty is removed");
    }

    @Test
    void lockByExclusiveCreateRefusesAHolderAndReplacesOneThatDiedOnThisHost() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("hadoop-lock"));
        FileSystem fs = FileSystem.getLocal(new Configuration());
        org.apache.hadoop.fs.Path lockPath = new org.apache.hadoop.fs.Path(dir.resolve("_ackscope.lock").toUri());
        CreatedLock held = CreatedLock.acquire(fs, lockPath);
        IOException e = assertThrows(io.ackscope.output.OutputLock.Busy.class, () -> CreatedLock.acquire(fs, lockPath));
        assertTrue(e.getMessage().startsWith(dir + " is in use by ackscope analyze (pid " + ProcessHandle.current()
                .pid() + " on " + io.ackscope.output.OutputLock.host() + ", since "), e.getMessage());
        held.close();
        assertFalse(Files.exists(dir.resolve("_ackscope.lock")));

        // a lock file left by a process of this host that is gone: stale, replaced
        Process gone = new ProcessBuilder("true").start();
        gone.onExit().join();
        Files.writeString(dir.resolve("_ackscope.lock"), "pid=" + gone.pid() + " host="
                + io.ackscope.output.OutputLock.host() + " since=2026-01-01T00:00:00Z command=analyze\n");
        CreatedLock.acquire(fs, lockPath).close();
        // one left on another host: refused, naming it and the file to remove
        Files.writeString(dir.resolve("_ackscope.lock"), "pid=1 host=elsewhere.example since=2026-01-01T00:00:00Z\n");
        e = assertThrows(io.ackscope.output.OutputLock.Busy.class, () -> CreatedLock.acquire(fs, lockPath));
        assertEquals(dir + " is in use by ackscope analyze (pid 1 on elsewhere.example, since 2026-01-01T00:00:00Z); "
                + "try again when it has ended (if it is gone, remove " + lockPath + ")", e.getMessage());
    }

    @Test
    void aFailedRunLeavesNothingBehind() throws IOException {
        Path out = tmp.resolve("failed");
        assertThrows(Exception.class, () -> analyze(out, false, tmp.resolve("no-such-capture.pcap")));
        assertFalse(Files.exists(out), "the output directory it created is gone");
        Path existing = Files.createDirectories(tmp.resolve("failed-existing"));
        assertThrows(Exception.class, () -> analyze(existing, false, tmp.resolve("no-such-capture.pcap")));
        assertEquals(List.of(), names(existing));
    }

    @Test
    void readersRefuseOutputsThatAreNotComplete() throws IOException {
        Path out = tmp.resolve("readers");
        analyze(out, false, corpusCopy.resolve(A));
        Path marker = out.resolve(OutputMarker.FILE);
        String text = Files.readString(marker);
        List<Row> before = spark.read().parquet(out.resolve("capture_files").toString()).collectAsList();
        assertEquals(1, before.size());
        for (String bad : List.of("", "{\"tool\":\"ackscope\"", "{\"tool\":\"other\",\"tables\":{\"x\":1}}",
                "{\"tool\":\"ackscope\",\"tables\":{}}")) {
            Files.writeString(marker, bad);
            IOException e = assertThrows(IOException.class, () -> Report.data(out, ReportFilter.ALL, false), bad);
            assertTrue(e.getMessage().startsWith(out + " is not a complete ackscope analyze output"), e.getMessage());
        }
        Files.writeString(marker, text);
        Files.move(out.resolve("stalls"), tmp.resolve("stalls-moved"));
        IOException e = assertThrows(IOException.class, () -> Report.data(out, ReportFilter.ALL, false));
        assertTrue(e.getMessage().endsWith("table stalls is missing"), e.getMessage());
        Files.move(tmp.resolve("stalls-moved"), out.resolve("stalls"));
        assertEquals(OutputMarker.requireComplete(out).number("frames"),
                Report.data(out, ReportFilter.ALL, false).input().frames());
    }
}
