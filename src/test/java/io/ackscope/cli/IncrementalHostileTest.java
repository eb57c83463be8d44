package io.ackscope.cli;

import io.ackscope.spark.SparkTests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze --incremental} when inputs vanish, as a cron job sees them: an unmounted share (an empty or
 * missing directory), rotation that deletes the oldest file, and a vanished file together with a reason to read
 * everything again. No case removes a row: the output is byte for byte the old one (exit 1, the reason said) or
 * the old rows plus the new file's (exit 0, the kept files named).
 */
class IncrementalHostileTest {

    @TempDir
    Path tmp;
    Path cap;
    Path out;
    List<Path> pieces;

    private record Run(int exit, String err) {
    }

    private static Run ackscope(String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        PrintStream err = System.err;
        System.setErr(ps);
        try {
            return new Run(Main.run(args, ps, ps), buf.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
    }

    /** The stalling sample cut by editcap into files of 1,800 frames, all modified an hour ago. */
    @BeforeEach
    void pieces() throws Exception {
        Path whole = SparkTests.gunzippedSample("nginx-nodelay-off.pcap.gz", tmp.resolve("whole"));
        Path dir = Files.createDirectories(tmp.resolve("pieces"));
        Process p = new ProcessBuilder("editcap", "-c", "1800", whole.toString(), dir.resolve("cap.pcap").toString())
                .inheritIO().start();
        assertEquals(0, p.waitFor());
        try (Stream<Path> s = Files.list(dir)) {
            pieces = s.sorted().toList();
        }
        assertTrue(pieces.size() >= 3, pieces.toString());
        cap = Files.createDirectories(tmp.resolve("cap"));
        out = tmp.resolve("o");
        add(pieces.get(0));
        add(pieces.get(1));
        Run first = incremental();
        assertEquals(0, first.exit(), first.err());
    }

    private void add(Path piece) throws Exception {
        Path to = Files.copy(piece, cap.resolve(piece.getFileName()));
        Files.setLastModifiedTime(to, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    }

    private Run incremental(String... extra) {
        String[] args = Stream.concat(Stream.of("analyze", cap.toString(), "--out", out.toString(), "--incremental"),
                Stream.of(extra)).toArray(String[]::new);
        return ackscope(args);
    }

    private void refusedIntact(String message, String... extra) {
        Map<String, String> before = OutputBytes.of(out);
        long connections = OutputBytes.rows(out, "connections");
        Run r = incremental(extra);
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertEquals(before, OutputBytes.of(out));
        assertEquals(connections, OutputBytes.rows(out, "connections"));
    }

    @Test
    void anEmptyInputDirectoryIsRefusedNotAnEmptyOutput() throws Exception {
        Files.move(cap, tmp.resolve("unmounted"));
        Files.createDirectory(cap);
        refusedIntact("none of the 2 files analysed before is listed");
    }

    @Test
    void aMissingInputDirectoryLeavesTheOutputAlone() throws Exception {
        try (Stream<Path> s = Files.walk(cap)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        Map<String, String> before = OutputBytes.of(out);
        Run r = incremental();
        assertEquals(1, r.exit(), r.err());
        assertEquals(before, OutputBytes.of(out));
    }

    @Test
    void aRotatedAwayFileKeepsItsRowsAndTheNewFileIsAdded() throws Exception {
        long connections = OutputBytes.rows(out, "connections");
        Files.delete(cap.resolve(pieces.get(0).getFileName()));
        add(pieces.get(2));
        Run r = incremental();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("1 file analysed before is no longer listed ("), r.err());
        assertTrue(r.err().contains(pieces.get(0).getFileName() + "): its rows are kept"), r.err());
        assertTrue(r.err().contains("adding 1 new"), r.err());
        assertEquals(3, OutputBytes.rows(out, "capture_files"));
        assertTrue(OutputBytes.rows(out, "connections") >= connections);
    }

    @Test
    void aVanishedFileWithNothingNewChangesNothing() throws Exception {
        Files.delete(cap.resolve(pieces.get(0).getFileName()));
        Map<String, String> before = OutputBytes.of(out);
        Run r = incremental();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("its rows are kept"), r.err());
        assertEquals(before, OutputBytes.of(out));
    }

    /** Edits the output's carried state as a hostile user would (its checksum side file removed with it). */
    private void editState(java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> edit)
            throws Exception {
        Path state = out.resolve("_ackscope_state/inputs.json");
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var root = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(state.toFile());
        edit.accept(root);
        Files.writeString(state, json.writeValueAsString(root));
        Files.deleteIfExists(state.resolveSibling(".inputs.json.crc"));
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode first(
            com.fasterxml.jackson.databind.node.ObjectNode root, String array) {
        return (com.fasterxml.jackson.databind.node.ObjectNode) root.path(array).get(0);
    }

    /**
     * A carried value out of range: the run says which and why, reads every file again and gives the rows of one
     * run over all of them (counted against a run without state), exit 0.
     */
    private void carriedValueIsRefused(String reason,
                                       java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> edit)
            throws Exception {
        editState(edit);
        add(pieces.get(2));
        Run r = incremental();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("reading all 3 files again: the state _ackscope_state/inputs.json "), r.err());
        assertTrue(r.err().contains(reason), r.err());
        assertTrue(!r.err().contains("options differ"), r.err());
        Path fresh = tmp.resolve("fresh");
        Run whole = ackscope("analyze", cap.toString(), "--out", fresh.toString());
        assertEquals(0, whole.exit(), whole.err());
        for (String table : List.of("connections", "capture_files", "sources")) {
            assertEquals(OutputBytes.rows(fresh, table), OutputBytes.rows(out, table), table);
        }
    }

    @Test
    void aStateThatDoesNotParseIsSaidSoNotOptionsDiffer() throws Exception {
        Path state = out.resolve("_ackscope_state/inputs.json");
        Files.writeString(state, "{\"version\": 2, \"files\": [");
        Files.deleteIfExists(state.resolveSibling(".inputs.json.crc"));
        add(pieces.get(2));
        Run r = incremental();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("the state _ackscope_state/inputs.json does not parse"), r.err());
        assertTrue(!r.err().contains("options differ"), r.err());
        assertEquals(3, OutputBytes.rows(out, "capture_files"));
    }

    @Test
    void aNegativeStreamCounterIsRefused() throws Exception {
        carriedValueIsRefused("counts -7 connections", root -> first(root, "sources").put("connections", -7));
    }

    @Test
    void aStreamCounterBeyondTheFramesIsRefused() throws Exception {
        carriedValueIsRefused("counts 1000000000000000 connections",
                root -> first(root, "sources").put("connections", 1_000_000_000_000_000L));
    }

    @Test
    void aLastTimeInTheFutureIsRefused() throws Exception {
        carriedValueIsRefused("a time in the future (2100-01-01", root -> {
            first(root, "files").put("last_time_ns", 4_102_444_800_000_000_000L);
        });
    }

    @Test
    void aHeldPathOutsideTheOutputIsRefused() throws Exception {
        carriedValueIsRefused("is not a directory of the output's state",
                root -> first(root, "sources").put("held", "../../elsewhere"));
    }

    @Test
    void anotherRunsHeldStateIsRefused() throws Exception {
        carriedValueIsRefused("is not that of the run that analysed its last file",
                root -> first(root, "sources").put("held", "_ackscope_state/held-00000000-older-run"));
    }

    /**
     * An older run's carried files put back under the name the state expects (the directory renamed, every file and
     * checksum side file intact): each file is stamped with its run, so the run says whose they are, reads every
     * file again and gives the rows of one run over all of them.
     */
    @Test
    void anOlderRunsHeldFilesUnderTheLatestNameAreNotResumed() throws Exception {
        assertTrue(pieces.size() >= 4, pieces.toString());
        Path state = out.resolve("_ackscope_state");
        Path older = heldDirs(state).get(0);
        Path saved = tmp.resolve("saved");
        copyTree(older, saved);
        add(pieces.get(2));
        Run second = incremental();
        assertEquals(0, second.exit(), second.err());
        List<Path> now = heldDirs(state);
        Path latest = now.stream().filter(p -> !p.equals(older)).findFirst().orElseThrow();
        deleteTree(latest);
        copyTree(saved, latest);
        add(pieces.get(3));
        Run r = incremental();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("the carried state of source cap cannot be read ("), r.err());
        assertTrue(r.err().contains("reading all files again"), r.err());
        assertTrue(r.err().contains("written by run " + older.getFileName() + ", not " + latest.getFileName()),
                r.err());
        Path fresh = tmp.resolve("fresh");
        Run whole = ackscope("analyze", cap.toString(), "--out", fresh.toString());
        assertEquals(0, whole.exit(), whole.err());
        for (String table : List.of("connections", "rtt_samples", "ack_delays", "stalls", "findings")) {
            assertEquals(OutputBytes.rows(fresh, table), OutputBytes.rows(out, table), table);
        }
    }

    /** The {@code held-*} directories of the state. */
    private static List<Path> heldDirs(Path state) throws Exception {
        try (Stream<Path> s = Files.list(state)) {
            return s.filter(p -> p.getFileName().toString().startsWith("held-")).toList();
        }
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
    }

    private static void deleteTree(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void aFileModifiedInTheFutureIsReportedAsSuch() throws Exception {
        Path next = Files.copy(pieces.get(2), cap.resolve(pieces.get(2).getFileName()));
        java.time.Instant future = java.time.Instant.parse("2031-01-01T00:00:00Z");
        Files.setLastModifiedTime(next, FileTime.from(future));
        Map<String, String> before = OutputBytes.of(out);
        Run r = incremental();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("held back (modified in the future: "), r.err());
        assertTrue(r.err().contains(pieces.get(2).getFileName() + " (2031-01-01T00:00:00Z)"), r.err());
        assertTrue(!r.err().contains("modified less than"), r.err());
        assertEquals(before, OutputBytes.of(out));
    }

    @Test
    void aVanishedFileIsNotDroppedByAWholeRun() throws Exception {
        Files.delete(cap.resolve(pieces.get(0).getFileName()));
        refusedIntact("drop the rows of 1 analysed file", "--server", "127.0.0.1");
    }

    @Test
    void aFirstRunWhoseEveryFileIsStillBeingWrittenWritesNoOutput() throws Exception {
        Path fresh = Files.createDirectories(tmp.resolve("fresh"));
        Files.copy(pieces.get(0), fresh.resolve(pieces.get(0).getFileName()));    // modified now: held back
        Path none = tmp.resolve("first");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        Run r;
        try {
            r = ackscope("analyze", fresh.toString(), "--out", none.toString(), "--incremental");
        } finally {
            System.setOut(stdout);
        }
        assertEquals(0, r.exit(), r.err());
        assertTrue(console.toString(StandardCharsets.UTF_8).contains(
                "nothing to analyse yet (every file is held back); no output written to "), console.toString());
        assertTrue(r.err().contains("held back (modified less than 60.0 s ago"), r.err());
        assertTrue(!r.err().contains("report: not written"), r.err());
        assertTrue(!Files.exists(none), "no output of 0 rows is made");
        Files.setLastModifiedTime(fresh.resolve(pieces.get(0).getFileName()),
                FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        Run later = ackscope("analyze", fresh.toString(), "--out", none.toString(), "--incremental");
        assertEquals(0, later.exit(), later.err());
        assertTrue(Files.exists(none.resolve("_SUCCESS")), later.err());
        assertTrue(Files.exists(none.resolve("report.html")), later.err());
    }
}
