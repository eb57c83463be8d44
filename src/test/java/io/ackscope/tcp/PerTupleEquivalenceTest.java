package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.PacketDecoder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The contract a Spark job relies on: running one {@link TupleTracker} per 4-tuple (in any order) and renumbering
 * connections by (first file, first frame) gives exactly the whole-file {@link TcpEngine}'s results.
 */
class PerTupleEquivalenceTest {

    /** Everything emitted, with stream numbers left out of the comparison keys. */
    static final class All implements AnalysisSink {
        final List<String> frames = new ArrayList<>();
        final List<Object> results = new ArrayList<>();

        @Override
        public void onFrame(Segment s, FrameAnalysis a) {
            frames.add(s.fileIndex + ":" + s.frameNumber + " conn=" + a.connection.firstFrameNumber() + " flags="
                    + a.flags + " rtt=" + a.ackRttNanos + " irtt=" + a.initialRttNanos + " dup=" + a.dupAckNum);
        }

        @Override
        public void onRttSample(RttSample x) {
            results.add(x);
        }

        @Override
        public void onAckDelay(AckDelay x) {
            results.add(x);
        }

        @Override
        public void onStall(Stall x) {
            results.add(x);
        }

        @Override
        public void onLatencyEvent(LatencyEvent x) {
            results.add(x);
        }

        @Override
        public void onExchange(Exchange x) {
            results.add(x);
        }

        @Override
        public void onConnection(ConnectionRecord x) {
            results.add(x);
        }
    }

    static List<Segment> segments(Path... files) throws IOException, CaptureException {
        List<Segment> out = new ArrayList<>();
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        for (int i = 0; i < files.length; i++) {
            try (CaptureReader r = CaptureReader.open(files[i])) {
                while (r.next()) {
                    d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                    if (s.fill(d, r.data(), i, r.frameNumber(), r.timestampNanos(), r.originalLength())) {
                        out.add(new Segment().copyFrom(s));
                    }
                }
            }
        }
        return out;
    }

    /** Replaces each result's connection id by the one the whole-file run would have given. */
    static String normalise(Object o) {
        String s = o.toString();
        StringBuilder sb = new StringBuilder(s.length());
        int from = 0;
        for (int i = s.indexOf("stream=", from); i >= 0; i = s.indexOf("stream=", from)) {
            sb.append(s, from, i);
            from = s.indexOf(',', i);   // drop "stream=N"
        }
        return sb.append(s, from, s.length()).toString();
    }

    static void assertEquivalent(Path... files) throws Exception {
        List<Segment> segs = segments(files);
        All whole = new All();
        TcpEngine engine = new TcpEngine(whole);
        for (Segment s : segs) {
            engine.accept(s);
        }
        engine.finish();

        // group by 4-tuple, keep capture order inside each group; run the groups in reverse order of appearance
        Map<TupleKey, List<Segment>> groups = new LinkedHashMap<>();
        for (Segment s : segs) {
            groups.computeIfAbsent(new TupleKey().set(s), k -> new ArrayList<>()).add(s);
        }
        List<List<Segment>> order = new ArrayList<>(groups.values());
        java.util.Collections.reverse(order);
        All parts = new All();
        for (List<Segment> g : order) {
            TupleTracker t = new TupleTracker(EngineConfig.DEFAULTS, new StreamCounter(), parts);
            for (Segment s : g) {
                t.accept(s);
            }
            t.finish();
        }
        List<String> a = whole.results.stream().map(PerTupleEquivalenceTest::normalise).sorted().toList();
        List<String> b = parts.results.stream().map(PerTupleEquivalenceTest::normalise).sorted().toList();
        assertEquals(a.size(), b.size());
        assertEquals(a, b);
        assertEquals(whole.frames.stream().sorted(Comparator.naturalOrder()).toList(),
                parts.frames.stream().sorted(Comparator.naturalOrder()).toList());
        // renumbering by (first file, first frame) reproduces the whole-file stream numbers
        List<ConnectionId> ids = new ArrayList<>();
        for (Object o : whole.results) {
            if (o instanceof ConnectionRecord c) {
                ids.add(c.id());
            }
        }
        ids.sort(Comparator.comparingInt(ConnectionId::firstFileIndex).thenComparingLong(ConnectionId::firstFrameNumber));
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(i, ids.get(i).stream());
        }
    }

    @Test
    void perTupleRunsEqualWholeFileRunOnTheSeedCaptureAndCorpusCaptures() throws Exception {
        Path corpus = TsharkAgreementTest.corpus();
        assertEquivalent(SeedCaseTest.LATENCY);
        assertEquivalent(corpus.resolve("zeek__206_example_b.pcap"), corpus.resolve("zeek__methods.pcap"),
                corpus.resolve("hadooppcap__reversedtest.pcap"), corpus.resolve("zeek__bruteforce.pcap"));
    }

    /**
     * The engine keeps the analyzers of its latest attempts ({@link WarmAttempts}); a tracker of its own keeps none.
     * Answers 1 ms after the SYN: at 500,000 SYNs a second, 500 attempts later (the answer continues the SYN's
     * analyzer), at 4,000,000, 4,000 later (dropped: it is rebuilt from the packed SYNs); the SYNs retransmitted a
     * second later come after all of them. Both give what trackers that never keep one give.
     */
    @Test
    void answersContinuingKeptAnalyzersAndRebuiltOnesEqualTrackersThatKeepNone(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        for (int rate : new int[] {500_000, 4_000_000}) {
            Path scan = tmp.resolve("scan-" + rate + ".pcap");
            SynScanCapture.write(scan, 3 * WarmAttempts.CAPACITY, rate);
            assertEquivalent(scan);
        }
    }
}
