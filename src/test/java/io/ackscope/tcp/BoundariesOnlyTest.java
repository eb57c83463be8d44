package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TcpEngine#boundariesOnly} finds exactly the connections of the full engine (same ids, first frames, stream
 * numbers, same emission order) on every corpus capture and every bundled sample, with the default limits and with
 * short ones that make the idle-timeout and closed-linger rules split connections.
 */
class BoundariesOnlyTest {
    private static final EngineConfig SHORT = new EngineConfig(2_000_000_000L, 500_000_000L);

    /** Every capture we have: the corpus's, then the bundled samples. */
    static List<Path> everyCapture() throws IOException {
        Path corpus = TsharkAgreementTest.corpus();
        List<Path> files = new ArrayList<>();
        for (String line : Files.readAllLines(corpus.resolve("MANIFEST.tsv"), StandardCharsets.UTF_8)) {
            if (!line.startsWith("file\t") && !line.isBlank()) {
                files.add(corpus.resolve(line.substring(0, line.indexOf('\t'))));
            }
        }
        try (Stream<Path> samples = Files.list(Path.of("sample-pcaps"))) {
            samples.filter(p -> p.getFileName().toString().contains(".pcap")).sorted().forEach(files::add);
        }
        return files;
    }

    @Test
    void boundaryEngineFindsTheFullEnginesConnectionsOnEveryCaptureWeHave() throws IOException {
        List<Path> files = everyCapture();
        long connections = 0;
        int splitByLimits = 0;
        for (Path f : files) {
            for (EngineConfig config : List.of(EngineConfig.DEFAULTS, SHORT)) {
                List<ConnectionId> full = new ArrayList<>();
                run(new TcpEngine(config, new AnalysisSink() {
                    @Override
                    public void onConnection(ConnectionRecord c) {
                        full.add(c.id());
                    }
                }), f);
                List<ConnectionId> bounds = new ArrayList<>();
                run(TcpEngine.boundariesOnly(config, new AnalysisSink() {
                    @Override
                    public void onConnectionBoundary(ConnectionId id) {
                        bounds.add(id);
                    }

                    @Override
                    public void onConnection(ConnectionRecord c) {
                        throw new AssertionError("a boundary engine emitted a connection record");
                    }
                }), f);
                assertEquals(full, bounds, f + " with " + config);
                if (config == SHORT) {
                    splitByLimits += full.size() > connections(f) ? 1 : 0;
                } else {
                    connections += full.size();
                }
            }
        }
        assertTrue(files.size() >= 80, "captures checked: " + files.size());
        assertTrue(connections > 1000, "connections compared: " + connections);
        assertTrue(splitByLimits > 0, "no capture was split by the short limits, so they were not exercised");
    }

    private static long connections(Path f) throws IOException {
        long[] n = {0};
        run(TcpEngine.boundariesOnly(EngineConfig.DEFAULTS, new AnalysisSink() {
            @Override
            public void onConnectionBoundary(ConnectionId id) {
                n[0]++;
            }
        }), f);
        return n[0];
    }

    /** Feeds {@code f} to {@code e} up to any damage (the frames an engine gets from a damaged capture). */
    private static void run(TcpEngine e, Path f) throws IOException {
        try (CaptureReader r = CaptureReader.open(f)) {
            new CaptureFeeder().feed(r, 0, e);
        } catch (CaptureException damaged) {
            // the frames before the damage were fed
        }
        e.finish();
    }
}
