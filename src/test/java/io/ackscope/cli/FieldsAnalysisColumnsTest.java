package io.ackscope.cli;

import io.ackscope.tcp.TsharkAgreementTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ackscope fields} prints the TCP analysis columns exactly as tshark does: every row of every corpus file
 * ({@code expected/*.tcp.tsv} columns tcp.stream, ack_rtt, initial_rtt, retransmission, duplicate_ack), except the
 * files with known, explained divergences ({@link TsharkAgreementTest#KNOWN}).
 */
class FieldsAnalysisColumnsTest {

    @Test
    void analysisColumnsEqualTsharksTextOnEveryCorpusFrame() throws Exception {
        Path corpus = TsharkAgreementTest.corpus();
        long rows = 0, analysed = 0;
        List<String> failures = new ArrayList<>();
        try (var expected = Files.list(corpus.resolve("expected"))) {
            for (Path e : expected.filter(p -> p.toString().endsWith(".tcp.tsv")).sorted().toList()) {
                String file = e.getFileName().toString().replace(".tcp.tsv", "");
                if (TsharkAgreementTest.KNOWN.containsKey(file)) {
                    continue;
                }
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                FieldsCommand c = new FieldsCommand(new PrintStream(buf, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
                c.file = corpus.resolve(file).toString();
                c.fields = List.of("frame.number", "tcp.stream", "tcp.analysis.ack_rtt", "tcp.analysis.initial_rtt",
                        "tcp.analysis.retransmission", "tcp.analysis.duplicate_ack");
                c.run();
                String[] ours = buf.toString(StandardCharsets.UTF_8).split("\n", -1);
                List<String> theirs = Files.readAllLines(e, StandardCharsets.UTF_8);
                for (int i = 0; i < theirs.size(); i++) {
                    String[] t = theirs.get(i).split("\t", -1);
                    if (t.length < 18) {
                        continue;
                    }
                    String want = String.join("\t", t[0], t[2], t[14], t[15], t[16], t[17]);
                    rows++;
                    if (!t[2].isEmpty() && i > 0) {
                        analysed++;
                    }
                    if (i >= ours.length || !ours[i].equals(want)) {
                        failures.add(file + " row " + i + ": tshark [" + want + "] ackscope ["
                                + (i < ours.length ? ours[i] : "") + "]");
                    }
                }
            }
        }
        assertTrue(analysed > 13_000, "TCP rows compared: " + analysed);
        assertEquals(List.of(), failures.size() > 20 ? failures.subList(0, 20) : failures,
                failures.size() + " of " + rows + " rows differ");
    }
}
