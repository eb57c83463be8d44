package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import static io.ackscope.tcp.Segments.ACK;
import static io.ackscope.tcp.Segments.RST;
import static io.ackscope.tcp.Segments.SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TcpEngine#hold} and {@link TcpEngine#resume}: a capture's segments 0..n through one engine give the same
 * results as 0..k through engine A, its 4-tuples held, then k+1..n through engine B that resumed them, where A's
 * results are those it gave before the hold less the provisional ones (those of its {@link TcpEngine#revivable}
 * attempts; what its {@code finish()} gives after the hold is provisional too, and dropped). Every result the sink
 * receives is compared: frame analyses in order, RTT samples, ACK delays, stalls, latency events, exchanges, cause
 * events, connection records, boundaries and revivals, with a consumer's rule applied to revived attempts (the last
 * record of a stream wins, as analyze keeps it).
 */
class HoldResumeTest {
    private static final long S = 1_000_000_000L;
    /** Short limits, so the idle-timeout, linger and attempt rules act inside the captures. */
    private static final EngineConfig SHORT = new EngineConfig(2 * S, S / 2, S / 2);

    /** One result: its connection (first file and frame, the stable key) and its text with that key for the id. */
    record Ev(char kind, String key, String text) {
    }

    /** Records every result, ids written as their stable key (stream numbers differ between engines). */
    static final class Recorder implements AnalysisSink {
        final List<Ev> events = new ArrayList<>();

        static String key(ConnectionId id) {
            int f = id.firstFileIndex();
            return (f < 0 ? -1 - f : f) + ":" + id.firstFrameNumber();
        }

        private void add(char kind, ConnectionId id, Object o) {
            events.add(new Ev(kind, key(id), text(o)));
        }

        private static final java.util.Map<Class<?>, java.lang.reflect.RecordComponent[]> COMPONENTS =
                new java.util.HashMap<>();

        /**
         * A result as text: a record's components (nested records likewise, arrays by value, ids by their stable key
         * and what no run changes). Records' own toString goes through String.format, too slow for millions.
         */
        static String text(Object o) {
            StringBuilder sb = new StringBuilder();
            text(o, sb);
            return sb.toString();
        }

        private static void text(Object o, StringBuilder sb) {
            if (o instanceof ConnectionId id) {
                sb.append("id ").append(key(id)).append(' ').append(id.firstNanos()).append(' ').append(id.clientIp())
                        .append(':').append(id.clientPort()).append('>').append(id.serverIp()).append(':')
                        .append(id.serverPort());
            } else if (o instanceof long[] a) {
                sb.append(Arrays.toString(a));
            } else if (o != null && o.getClass().isRecord()) {
                java.lang.reflect.RecordComponent[] cs = COMPONENTS.computeIfAbsent(o.getClass(),
                        Class::getRecordComponents);
                sb.append(o.getClass().getSimpleName()).append('[');
                try {
                    for (java.lang.reflect.RecordComponent c : cs) {
                        sb.append(c.getName()).append('=');
                        text(c.getAccessor().invoke(o), sb);
                        sb.append(' ');
                    }
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
                sb.append(']');
            } else {
                sb.append(o);
            }
        }

        @Override
        public void onFrame(Segment s, FrameAnalysis a) {
            events.add(new Ev('F', key(a.connection), s.fileIndex + ":" + s.frameNumber + " conn=" + key(a.connection)
                    + " orig=" + a.fromOriginator + " flags=" + a.flags + " dup=" + a.dupAckNum + " acks=" + a.ackedFrame
                    + " rtt=" + a.ackRttNanos + "/" + a.ackRttShown + " irtt=" + a.initialRttNanos + "/"
                    + a.initialRttShown + " rto=" + a.rtoNanos + " an=" + a.hasAnalysis));
        }

        @Override
        public void onRttSample(RttSample x) {
            add('R', x.connection(), x);
        }

        @Override
        public void onAckDelay(AckDelay x) {
            add('A', x.connection(), x);
        }

        @Override
        public void onStall(Stall x) {
            add('S', x.connection(), x);
        }

        @Override
        public void onLatencyEvent(LatencyEvent x) {
            add('L', x.connection(), x);
        }

        @Override
        public void onExchange(Exchange x) {
            add('E', x.connection(), x);
        }

        @Override
        public void onCause(CauseEvent x) {
            add('K', x.connection(), x);
        }

        @Override
        public void onConnectionBoundary(ConnectionId id) {
            add('B', id, id);
        }

        @Override
        public void onAttemptRevived(ConnectionId id) {
            add('V', id, id);
        }

        @Override
        public void onConnection(ConnectionRecord x) {
            add('C', x.id(), x);
        }

        @Override
        public void onAttemptEvicted(ConnectionId id) {
            events.add(new Ev('X', key(id), ""));
        }

        @Override
        public void onAttemptSettled(ConnectionId id) {
            events.add(new Ev('Y', key(id), ""));
        }

        /** Evicted attempts whose record is neither settled nor superseded yet: what a run writing in runs keeps back. */
        Set<String> pending() {
            Set<String> out = new HashSet<>();
            for (Ev e : events) {
                if (e.kind() == 'X') {
                    out.add(e.key());
                } else if (e.kind() == 'Y' || e.kind() == 'V') {
                    out.remove(e.key());
                }
            }
            return out;
        }
    }

    /** Figures over a whole test, for its report line. */
    static final class Tally {
        long runs, compared, held, revivable, revived;
        int captures, cuts;
    }

    /** What a run gave: frames in order, and the other results as a consumer keeps them, sorted. */
    record Results(List<String> frames, List<String> others) {
    }

    /**
     * A consumer's view: frames in order; the other results sorted, a revived attempt's earlier results dropped (its
     * first record is superseded by its last, as analyze and conv keep the last record of a stream). Boundaries are
     * compared as given: a boundary engine gives a connection's boundary once either way.
     */
    static Results consume(List<Ev> events, boolean boundaries) {
        List<String> frames = new ArrayList<>();
        List<Ev> kept = new ArrayList<>();
        for (Ev e : events) {
            if (e.kind() == 'F') {
                frames.add(e.text());
                continue;
            }
            if (e.kind() == 'X' || e.kind() == 'Y') {
                continue;     // when a record becomes final, not a result (checked against revivable() instead)
            }
            if (e.kind() == 'V' && !boundaries) {
                kept.removeIf(k -> k.key().equals(e.key()) && k.kind() != 'V');
            }
            kept.add(e);
        }
        return new Results(frames, kept.stream().map(e -> e.kind() + " " + e.text()).sorted().toList());
    }

    static TcpEngine engine(EngineConfig config, boolean boundaries, AnalysisSink sink) {
        return boundaries ? TcpEngine.boundariesOnly(config, sink) : new TcpEngine(config, sink);
    }

    /** Segments 0..n through one engine. */
    static List<Ev> whole(List<Segment> segs, EngineConfig config, boolean boundaries) {
        Recorder r = new Recorder();
        TcpEngine e = engine(config, boundaries, r);
        segs.forEach(e::accept);
        e.finish();
        return r.events;
    }

    /**
     * The same segments through a chain of engines cut before each of {@code cuts} (ascending): each engine but the
     * last holds its 4-tuples and the next resumes them; what each gave before its hold, less the provisional results,
     * and everything the last gave.
     */
    static List<Ev> chain(List<Segment> segs, EngineConfig config, boolean boundaries, int[] cuts,
                          UnaryOperator<ConnectionId> ids, Tally tally) {
        List<Ev> out = new ArrayList<>();
        List<HeldTuple> held = List.of();
        int from = 0;
        for (int c = 0; c <= cuts.length; c++) {
            Recorder r = new Recorder();
            TcpEngine e = engine(config, boundaries, r);
            held.forEach(e::resume);
            int to = c < cuts.length ? cuts[c] : segs.size();
            for (int i = from; i < to; i++) {
                e.accept(segs.get(i));
            }
            from = to;
            if (c == cuts.length) {
                e.finish();
                out.addAll(r.events);
                break;
            }
            held = e.hold(ids);
            Set<String> provisional = new HashSet<>();
            e.revivable().forEach(id -> provisional.add(Recorder.key(id)));
            assertEquals(r.pending(), provisional, "records kept back are the revivable attempts'");
            for (Ev ev : r.events) {
                if (ev.kind() == 'F' || !provisional.contains(ev.key())) {
                    out.add(ev);
                }
            }
            e.finish();     // what it gives now is provisional: the next engine gives it again, complete
            tally.held += held.size();
            tally.revivable += provisional.size();
        }
        tally.runs++;
        return out;
    }

    /** Asserts that the chain cut at {@code cuts} gives {@code expected}; returns the results compared. */
    static long assertChain(String what, List<Segment> segs, EngineConfig config, boolean boundaries, Results expected,
                            int[] cuts, UnaryOperator<ConnectionId> ids, Tally tally) {
        List<Ev> got = chain(segs, config, boundaries, cuts, ids, tally);
        Results r = consume(got, boundaries);
        String at = what + " cut at " + Arrays.toString(cuts) + " of " + segs.size();
        assertEquals(expected.frames(), r.frames(), at);
        assertEquals(expected.others(), r.others(), at);
        tally.revived += got.stream().filter(e -> e.kind() == 'V').count();
        return r.frames().size() + r.others().size();
    }

    /** Ten cut points of a capture: spread, inside handshakes and retransmissions, at its longest idle gap, ends. */
    static int[] cutPoints(List<Segment> segs, List<Ev> frames) {
        int n = segs.size();
        TreeSet<Integer> cuts = new TreeSet<>(List.of(0, n, n / 4, n / 2, 3 * n / 4));
        List<Integer> syns = new ArrayList<>();
        List<Integer> retrans = new ArrayList<>();
        int gapAt = -1;
        long gap = -1;
        for (int i = 0; i < n; i++) {
            if ((segs.get(i).flags & (SYN | ACK)) == SYN) {
                syns.add(i + 1);          // after the SYN: inside its handshake
            }
            if (i > 0 && segs.get(i).timestampNanos - segs.get(i - 1).timestampNanos > gap) {
                gap = segs.get(i).timestampNanos - segs.get(i - 1).timestampNanos;
                gapAt = i;
            }
        }
        int f = 0;
        for (Ev e : frames) {
            if (e.kind() == 'F') {
                int flags = Integer.parseInt(e.text().replaceAll(".* flags=(\\d+) .*", "$1"));
                if ((flags & FrameAnalysis.ANY_RETRANSMISSION) != 0) {
                    retrans.add(f + 1);       // after a retransmission: inside a recovery
                }
                f++;
            }
        }
        for (List<Integer> l : List.of(syns, retrans)) {
            if (!l.isEmpty()) {
                cuts.add(l.get(0));
                cuts.add(l.get(l.size() / 2));
            }
        }
        if (gapAt > 0) {
            cuts.add(gapAt);
        }
        return cuts.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void heldAndResumedEnginesGiveTheWholeRunsResultsOnEveryCaptureAtTenCutsEach() throws Exception {
        Tally t = new Tally();
        for (Path f : BoundariesOnlyTest.everyCapture()) {
            List<Segment> segs = segments(f);
            if (segs.isEmpty()) {
                continue;
            }
            t.captures++;
            List<Ev> frames = null;      // the full engine's frames with the default limits, for the cut points
            for (EngineConfig config : List.of(EngineConfig.DEFAULTS, SHORT)) {
                for (boolean boundaries : new boolean[] {false, true}) {
                    if ((boundaries || config == SHORT) && (boundaries && config == SHORT || segs.size() > 10_000)) {
                        continue;     // the variants on the smaller captures (the largest five hold most segments)
                    }
                    List<Ev> all = whole(segs, config, boundaries);
                    if (!boundaries && config == EngineConfig.DEFAULTS) {
                        frames = all;
                    }
                    Results expected = consume(all, boundaries);
                    int[] cuts = cutPoints(segs, boundaries ? frames : all);
                    String what = f.getFileName() + (boundaries ? " (boundaries)" : "") + (config == SHORT ? " (short)" : "");
                    // all ten cut points with the default limits; every other one for the other variants
                    boolean allCuts = !boundaries && config == EngineConfig.DEFAULTS;
                    for (int i = 0; i < cuts.length; i += allCuts ? 1 : 2) {
                        t.compared += assertChain(what, segs, config, boundaries, expected, new int[] {cuts[i]},
                                UnaryOperator.identity(), t);
                        t.cuts++;
                    }
                    int n = segs.size();
                    t.compared += assertChain(what, segs, config, boundaries, expected, new int[] {n / 3, 2 * n / 3},
                            UnaryOperator.identity(), t);
                    int[] three = {cuts[1 % cuts.length], cuts[cuts.length / 2], cuts[Math.max(0, cuts.length - 2)]};
                    Arrays.sort(three);
                    t.compared += assertChain(what, segs, config, boundaries, expected, three, UnaryOperator.identity(), t);
                }
            }
        }
        System.out.printf("hold/resume: %d captures, %d cut points, %d chains, %d results compared, %d tuples held,"
                + " %d revivable attempts, %d revivals%n", t.captures, t.cuts, t.runs, t.compared, t.held, t.revivable,
                t.revived);
        assertTrue(t.captures >= 60, "captures with TCP: " + t.captures);
        assertTrue(t.held > 1000, "tuples held: " + t.held);
    }

    /**
     * The TCP segments of a capture as {@link CaptureFeeder} gives them to analyze's engine (copies of what a full
     * engine was fed: each segment reaches {@link AnalysisSink#onFrame} once); a damaged file gives those before the
     * damage.
     */
    static List<Segment> segments(Path f) throws IOException {
        List<Segment> out = new ArrayList<>();
        TcpEngine e = new TcpEngine(new AnalysisSink() {
            @Override
            public void onFrame(Segment s, FrameAnalysis a) {
                out.add(new Segment().copyFrom(s));
            }
        });
        try (CaptureReader reader = CaptureReader.open(f)) {
            new CaptureFeeder().feed(reader, 0, e);
        } catch (CaptureException damaged) {
            // the frames before the damage were fed
        }
        assertEquals(e.segments(), out.size(), f.toString());
        return out;
    }

    /**
     * Tombstones across a cut, at every cut point: an evicted attempt revived by a late answer, replaced by a new
     * ISN (port reuse), forgotten, and a closed connection reopened by a SYN repeating its ISN.
     */
    @Test
    void tombstonesHeldAcrossEveryCutPointGiveTheWholeRunsResults() {
        List<AttemptEvictionTest.Capture> scenarios = new ArrayList<>();
        AttemptEvictionTest.Capture revived = new AttemptEvictionTest.Capture();
        revived.at(S).seg.client(SYN, 1000, 0, 0);
        revived.at(3 * S).seg.client(SYN, 1000, 0, 0);            // a SYN retransmission: a cause event too
        revived.at(100 * S).seg.server(SYN | ACK, 5000, 1001, 0);
        revived.seg.client(RST, 1001, 0, 0);
        revived.seg.clientPort = 40001;
        revived.at(101 * S).seg.client(SYN, 7000, 0, 0);
        scenarios.add(revived);
        AttemptEvictionTest.Capture reused = new AttemptEvictionTest.Capture();
        reused.at(S).seg.client(SYN, 1000, 0, 0);
        reused.at(100 * S).seg.client(SYN, 2000, 0, 0);
        reused.at(110 * S);
        scenarios.add(reused);
        AttemptEvictionTest.Capture forgotten = new AttemptEvictionTest.Capture();
        forgotten.at(S).seg.client(SYN, 1000, 0, 0);
        forgotten.at(200 * S).seg.client(SYN, 1000, 0, 0);
        scenarios.add(forgotten);
        AttemptEvictionTest.Capture reopened = new AttemptEvictionTest.Capture();
        reopened.seg.client(SYN, 1000, 0, 0);
        reopened.seg.server(SYN | ACK, 5000, 1001, 0);
        reopened.seg.client(ACK, 1001, 5001, 0);
        reopened.seg.server(RST | ACK, 5001, 1001, 0);
        reopened.at(25 * S).seg.client(SYN, 1000, 0, 0);
        reopened.seg.server(SYN | ACK, 6000, 1001, 0);
        reopened.at(30 * S);
        scenarios.add(reopened);
        Tally t = new Tally();
        for (AttemptEvictionTest.Capture cap : scenarios) {
            List<Segment> segs = cap.seg.list;
            for (boolean boundaries : new boolean[] {false, true}) {
                Results expected = consume(whole(segs, EngineConfig.DEFAULTS, boundaries), boundaries);
                for (int k = 0; k <= segs.size(); k++) {
                    if (k % 5 != 0 && background(segs.get(k - 1)) && (k == segs.size() || background(segs.get(k)))) {
                        continue;     // every cut next to a segment of interest, every fifth among the background
                    }
                    t.compared += assertChain("scenario " + scenarios.indexOf(cap), segs, EngineConfig.DEFAULTS,
                            boundaries, expected, new int[] {k}, UnaryOperator.identity(), t);
                }
            }
        }
        // the cuts fell while attempts were tombstones, and some were revived after the cut
        assertTrue(t.revivable > 100, "revivable attempts held: " + t.revivable);
        assertTrue(t.revived > 100, "revivals: " + t.revived);
    }

    /** A segment of {@link AttemptEvictionTest.Capture}'s background connection. */
    private static boolean background(Segment s) {
        return s.srcPort == 40009 || s.dstPort == 40009;
    }

    @Test
    void resumedConnectionsKeepTheIdsTheHoldRewrote() throws Exception {
        List<Segment> segs = segments(Path.of("sample-pcaps", "lab-cause-churn.pcap.gz"));
        UnaryOperator<ConnectionId> shift = id -> new ConnectionId(id.stream() + 1_000_000, -1 - id.firstFileIndex(),
                id.firstFrameNumber(), id.firstNanos(), id.clientIp(), id.clientPort(), id.serverIp(), id.serverPort());
        Results expected = consume(whole(segs, EngineConfig.DEFAULTS, false), false);
        Tally t = new Tally();
        int k = segs.size() / 2;
        assertChain("rewritten ids", segs, EngineConfig.DEFAULTS, false, expected, new int[] {k}, shift, t);
        assertTrue(t.held > 0);
        // what B gives about a resumed connection carries the rewritten id; its new connections count from 0
        List<ConnectionRecord> fromB = new ArrayList<>();
        TcpEngine a = new TcpEngine(new Recorder());
        segs.subList(0, k).forEach(a::accept);
        TcpEngine b = new TcpEngine(new AnalysisSink() {
            @Override
            public void onConnection(ConnectionRecord c) {
                fromB.add(c);
            }
        });
        a.hold(shift).forEach(b::resume);
        segs.subList(k, segs.size()).forEach(b::accept);
        b.finish();
        assertTrue(fromB.stream().anyMatch(c -> c.id().stream() >= 1_000_000 && c.id().firstFileIndex() == -1));
        assertTrue(fromB.stream().anyMatch(c -> c.id().stream() < 1_000_000 && c.id().firstFileIndex() == 0));
    }

    @Test
    void stateOfAnotherVersionOrKindOrDamagedIsRefusedClearly() throws Exception {
        List<Segment> segs = segments(Path.of("sample-pcaps", "lab-cause-loss.pcap.gz"));
        TcpEngine a = new TcpEngine(new Recorder());
        segs.subList(0, segs.size() / 2).forEach(a::accept);
        HeldTuple h = a.hold(UnaryOperator.identity()).get(0);

        byte[] other = h.state().clone();
        other[0]++;                                   // the format byte
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TcpEngine(new Recorder()).resume(with(h, other)));
        assertTrue(e.getMessage().startsWith(TrackerState.OTHER_VERSION), e.getMessage());
        byte[] classes = h.state().clone();
        classes[3] ^= 1;                              // the classes' fingerprint
        e = assertThrows(IllegalArgumentException.class, () -> new TcpEngine(new Recorder()).resume(with(h, classes)));
        assertTrue(e.getMessage().startsWith(TrackerState.OTHER_VERSION), e.getMessage());

        e = assertThrows(IllegalArgumentException.class,
                () -> TcpEngine.boundariesOnly(EngineConfig.DEFAULTS, new Recorder()).resume(h));
        assertTrue(e.getMessage().contains("other kind"), e.getMessage());

        // every truncation and every single-byte change after the header is refused or read; never another error
        for (int len = 0; len < h.state().length; len++) {
            byte[] cut = Arrays.copyOf(h.state(), len);
            assertThrows(IllegalArgumentException.class, () -> new TcpEngine(new Recorder()).resume(with(h, cut)));
        }
        java.util.Random random = new java.util.Random(21);
        for (int i = 0; i < 2000; i++) {
            byte[] bad = h.state().clone();
            bad[23 + random.nextInt(bad.length - 23)] = (byte) random.nextInt(256);
            try {
                new TcpEngine(new Recorder()).resume(with(h, bad));
            } catch (IllegalArgumentException expected) {
                // refused
            }
        }

        TcpEngine started = new TcpEngine(new Recorder());
        started.accept(segs.get(0));
        assertThrows(IllegalStateException.class, () -> started.resume(h));
        TcpEngine twice = new TcpEngine(new Recorder());
        twice.resume(h);
        assertThrows(IllegalArgumentException.class, () -> twice.resume(h));
    }

    private static HeldTuple with(HeldTuple h, byte[] state) {
        return new HeldTuple(h.aHi(), h.aLo(), h.aPort(), h.bHi(), h.bLo(), h.bPort(), state);
    }
}
