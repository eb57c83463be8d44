package io.ackscope.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every cause event on the public conformance corpus, summarised per capture, cause and side (events, sum of their
 * counts, first evidence frame) and held against src/test/resources/cause-corpus.tsv, so that a change in what is
 * found shows as a diff. Its review column says which rows were checked by hand against tshark and how. Damaged
 * captures end in their CaptureException, as elsewhere; nothing else may be thrown.
 */
class CauseCorpusTest {

    @Test
    void causesOnTheCorpusAreThoseRecorded() throws Exception {
        List<String> want = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("src", "test", "resources", "cause-corpus.tsv"))) {
            String[] f = line.split("\t");
            if (!f[0].equals("capture")) {
                want.add(String.join("\t", f[0], f[1], f[2], f[3], f[4], f[5]));
            }
        }
        List<Path> captures;
        try (Stream<Path> s = Files.list(Corpus.dir())) {
            captures = s.filter(p -> p.getFileName().toString().matches(".*\\.(pcap|pcapng|cap)(\\.gz)?")).sorted()
                    .toList();
        }
        List<String> got = new ArrayList<>();
        for (Path p : captures) {
            Map<String, long[]> byCause = new TreeMap<>();
            TcpEngine engine = new TcpEngine(new AnalysisSink() {
                @Override
                public void onCause(CauseEvent e) {
                    long[] v = byCause.computeIfAbsent(e.cause() + "\t" + e.side(),
                            k -> new long[] {0, 0, Long.MAX_VALUE});
                    v[0]++;
                    v[1] += e.count();
                    v[2] = Math.min(v[2], e.frames()[0]);
                }
            });
            try (CaptureReader reader = CaptureReader.open(p)) {
                new CaptureFeeder().feed(reader, 0, engine);
            } catch (CaptureException damaged) {
                // a damaged file: what was read before the damage still counts
            }
            engine.finish();
            byCause.forEach((k, v) -> got.add(p.getFileName() + "\t" + k + "\t" + v[0] + "\t" + v[1] + "\t" + v[2]));
        }
        assertEquals(String.join("\n", want), String.join("\n", got));
    }
}
