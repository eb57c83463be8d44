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
 * The summaries say "1 file", "1 connection", "1 row" and give small rates in a unit that shows them (not
 * "(0 MB/s)"), on a real capture of one connection: zeek__get-to-ssh-server.pcap (9 frames, one TCP stream).
 */
class SingularCountsTest {

    private static final String ONE_CONNECTION = "zeek__get-to-ssh-server.pcap";

    @Test
    void analyzeSummaryOfOneConnectionSpeaksInTheSingular(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        AnalyzeCommand c = new AnalyzeCommand(new PrintStream(buf, true, StandardCharsets.UTF_8));
        com.beust.jcommander.JCommander.newBuilder().addObject(c).build().parse(
                Corpus.capture(ONE_CONNECTION).toString(), "--out", out.toString(), "--master", "local[1]",
                "--verbose");
        assertEquals(0, c.run(), buf.toString(StandardCharsets.UTF_8));
        String text = buf.toString(StandardCharsets.UTF_8);
        List<String> lines = text.lines().toList();

        assertTrue(lines.stream().anyMatch(l -> l.matches("ackscope analyze: 1 file, 1\\.\\d KiB, 9 frames \\(9 TCP\\), "
                + "1 connection in \\d+\\.\\d s \\(\\d+(\\.\\d)? (B|KiB)/s\\)")), text);
        assertTrue(lines.contains("read in 1 task (0 files split)"), text);
        assertTrue(lines.contains("  connections       1 row"), text);
        assertTrue(lines.contains("  capture_files     1 row"), text);
        assertFalse(text.matches("(?s).*\\b1 (files|frames|connections|rows|tasks)\\b.*"), text);
        String page = Files.readString(out.resolve("report.html"));
        assertTrue(page.contains("data-card=\"files\"><div class=\"v\">1</div><div class=\"l\">capture file (pcap"),
                "the page's card: 1 capture file");
        assertTrue(page.contains("data-card=\"conns\"><div class=\"v\">1</div><div class=\"l\">of 1 connection "
                + "selected"), "the page's card: 1 of 1 connection");
        assertTrue(page.contains("1 capture file, 9 frames"), "the page's header line");
    }

    @Test
    void diagnoseOfOneConnectionSpeaksInTheSingular() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand c = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = List.of(Corpus.capture(ONE_CONNECTION).toString());
        assertEquals(0, c.run());
        String out = buf.toString(StandardCharsets.UTF_8);
        assertTrue(out.startsWith("9 frames, 9 TCP segments, 1 connection\n"), out);
        assertTrue(out.matches("(?s).*\nServer \\S+: 1 connection, \\d+ requests?; .*"), out);
    }
}
