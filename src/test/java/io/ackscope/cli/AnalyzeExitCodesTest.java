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
