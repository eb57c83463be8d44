package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.PacketDecoder;
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

    @Test
    void boundaryEngineFindsTheFullEnginesConnectionsOnEveryCaptureWeHave() throws IOException {
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
        long connections = 0;
        int splitByLimits = 0;
        for (Path f : files) {
            List<Segment> segs = segments(f);
            for (EngineConfig config : List.of(EngineConfig.DEFAULTS, SHORT)) {
                List<ConnectionId> full = new ArrayList<>();
                run(new TcpEngine(config, new AnalysisSink() {
                    @Override
                    public void onConnection(ConnectionRecord c) {
                        full.add(c.id());
                    }
                }), segs);
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
                }), segs);
                assertEquals(full, bounds, f + " with " + config);
                if (config == SHORT) {
                    splitByLimits += full.size() > connections(f, segs) ? 1 : 0;
                } else {
                    connections += full.size();
                }
            }
        }
        assertTrue(files.size() >= 80, "captures checked: " + files.size());
        assertTrue(connections > 1000, "connections compared: " + connections);
        assertTrue(splitByLimits > 0, "no capture was split by the short limits, so they were not exercised");
    }

    private static long connections(Path f, List<Segment> segs) {
        long[] n = {0};
        run(TcpEngine.boundariesOnly(EngineConfig.DEFAULTS, new AnalysisSink() {
            @Override
            public void onConnectionBoundary(ConnectionId id) {
                n[0]++;
            }
        }), segs);
        return n[0];
    }

    private static void run(TcpEngine e, List<Segment> segs) {
        for (Segment s : segs) {
            e.accept(s);
        }
        e.finish();
    }

    /** The TCP segments of {@code f}, up to any damage. */
    private static List<Segment> segments(Path f) throws IOException {
        List<Segment> out = new ArrayList<>();
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        try (CaptureReader r = CaptureReader.open(f)) {
            while (r.next()) {
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                if (s.fill(d, r.data(), 0, r.frameNumber(), r.timestampNanos(), r.originalLength())) {
                    out.add(new Segment().copyFrom(s));
                }
            }
        } catch (CaptureException e) {
            // damaged capture: the frames before the damage are what an engine gets
        }
        return out;
    }
}
