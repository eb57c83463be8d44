package io.ackscope.cli;

import io.ackscope.capture.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exit statuses and messages of {@code analyze} and {@code report} about their inputs and outputs: 2 for usage
 * errors (found before anything is read), 3 for damaged input under {@code --strict}, 1 for a failure; always one
 * line on stderr, no stack trace.
 */
class AnalyzeExitCodesTest {
    static final String DAMAGED = "suri__bug-1450-04__tls_DER-incomplete-header.pcap";

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** As {@link #run}, with what the command prints on the process's own streams too, all in {@code err}. */
    static Run runPrinting(String... args) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(all, true, StandardCharsets.UTF_8);
        PrintStream out = System.out, err = System.err;
        System.setOut(ps);
        System.setErr(ps);
        try {
            return new Run(Main.run(args, ps, ps), "", all.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    Path capture(Path dir, String name) throws Exception {
        Files.createDirectories(dir);
        return Files.copy(Corpus.dir().resolve(name), dir.resolve(name));
    }

    @Test
    void anOutputInsideTheInputsIsAUsageErrorFoundBeforeSparkStarts() throws Exception {
        Path in = tmp.resolve("in");
        capture(in, "zeek__methods.pcap");
        Run r = run("analyze", in.toString(), "--out", in.resolve("out").toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("ackscope analyze: --out " + in.resolve("out") + " lies inside the input directory " + in
                + ": a later run would read its own tables as captures; choose an --out outside the inputs\n", r.err());
        assertFalse(Files.exists(in.resolve("out")));
    }

    /**
     * An uncompressed capture cut inside a record (as a copy interrupted by a full disk leaves it): the frames
     * before it are analysed, the summary names the file and the byte where the cut record starts, the byte
     * {@code conv} names, and {@code --strict} exits 3.
     */
    @Test
    void aCutShortUncompressedCaptureIsNamedWithItsByteAndExitsThreeUnderStrict() throws Exception {
        Path whole = io.ackscope.spark.SparkTests.gunzippedSample("lab-cause-churn.pcap.gz", tmp.resolve("whole"));
        Path cut = Files.createDirectories(tmp.resolve("cut")).resolve("cut.pcap");
        try (var in = Files.newInputStream(whole)) {
            Files.write(cut, in.readNBytes(30_007));
        }
        Run conv = runPrinting("conv", "-r", cut.toString(), "--strict");
        assertEquals(3, conv.exit(), conv.err());
        assertTrue(conv.err().contains(cut + ": byte 29989: cut short"), conv.err());

        Run strict = runPrinting("analyze", cut.toString(), "--out", tmp.resolve("out-cut").toString(), "--strict");
        assertEquals(3, strict.exit(), strict.err());
        assertTrue(strict.err().contains(cut + ": byte 29989: cut short"), strict.err());
        Run lax = runPrinting("analyze", cut.toString(), "--out", tmp.resolve("out-lax").toString());
        assertEquals(0, lax.exit(), lax.err());
        assertTrue(lax.err().contains(cut + ": byte 29989: cut short"), lax.err());
    }

    @Test
    void aBadConfIsAUsageError() {
        Run r = run("analyze", "x.pcap", "--out", tmp.resolve("o").toString(), "--conf", "novalue");
        assertEquals(2, r.exit());
        assertEquals("ackscope analyze: --conf wants k=v, not novalue\n", r.err());
    }

    @Test
    void damagedInputExitsThreeUnderStrictAndAMissingInputOneInOneLine() throws Exception {
        Path in = tmp.resolve("damaged");
        capture(in, DAMAGED);
        Run strict = run("analyze", in.toString(), "--out", tmp.resolve("out-strict").toString(), "--strict");
        assertEquals(3, strict.exit(), strict.err());
        String report = Files.readString(tmp.resolve("out-strict").resolve("report.html"));
        assertTrue(report.contains("tables: " + tmp.resolve("out-strict") + " "), "the page names the output");

        Path missing = tmp.resolve("no-such.pcap");
        Run failed = run("analyze", missing.toString(), "--out", tmp.resolve("out-missing").toString());
        assertEquals(1, failed.exit(), failed.err());
        List<String> lines = failed.err().lines().toList();
        assertEquals(1, lines.size(), failed.err());
        assertTrue(lines.get(0).startsWith("ackscope analyze: ") && lines.get(0).contains("no-such.pcap"),
                lines.get(0));
        assertFalse(Files.exists(tmp.resolve("out-missing")), "nothing left behind");
    }

    @Test
    void reportRefusesAnIncompleteOutputInOneLine() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("half"));
        Files.createDirectories(dir.resolve("connections"));
        Path staging = Files.createDirectories(dir.resolve("_ackscope_staging_0"));
        Run r = run("report", dir.toString());
        assertEquals(1, r.exit());
        assertEquals("ackscope report: " + dir + " is not a complete ackscope analyze output (no _SUCCESS marker)\n",
                r.err(), "the staging folder that never began its commit was removed first");
        assertFalse(Files.exists(staging));
        Files.writeString(dir.resolve("_SUCCESS"), "");
        r = run("report", dir.toString());
        assertEquals("ackscope report: " + dir + " is not a complete ackscope analyze output: "
                + dir.resolve("_SUCCESS") + " is empty\n", r.err());
        r = run("report", tmp.resolve("nothing").toString());
        assertEquals(1, r.exit());
        assertEquals("ackscope report: " + tmp.resolve("nothing") + " is not a complete ackscope analyze output (no "
                + "such directory)\n", r.err());
    }
}
