package io.ackscope.tcp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.ackscope.tcp.Segments.ACK;
import static io.ackscope.tcp.Segments.MS;
import static io.ackscope.tcp.Segments.RST;
import static io.ackscope.tcp.Segments.SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sweep's eviction of unanswered attempts and its tombstones (see {@link TupleTracker}): memory is freed, records
 * stay those the end of the input gives, and a 4-tuple that comes back keeps tshark's stream number.
 */
class AttemptEvictionTest {
    private static final long S = 1_000_000_000L;

    /** One 4-tuple of interest (port 40000) and a keep-alive exchange on port 40009 every 500 ms, so time moves. */
    static final class Capture {
        final Segments seg = new Segments();
        private long background;      // time of the next background exchange, relative to the start
        private long now;

        Capture() {
            seg.clientPort = 40009;
            seg.client(SYN, 9000, 0, 0);
            seg.server(SYN | ACK, 9900, 9001, 0);
            seg.client(ACK, 9001, 9901, 0);
            seg.clientPort = 40000;
            background = S / 2;
        }

        /** Moves the clock to {@code t} after the start, with background frames on the way. */
        Capture at(long t) {
            int port = seg.clientPort;
            while (background <= t) {
                seg.after(background - now);
                now = background;
                seg.clientPort = 40009;
                seg.client(ACK, 9000, 9901, 0);     // keep-alive
                seg.server(ACK, 9901, 9001, 0);
                seg.clientPort = port;
                background += S / 2;
            }
            seg.after(t - now);
            now = t;
            return this;
        }

        /** Streams of the frames of port 40000 and later ports, in frame order. */
        List<Long> streams(Segments.Collected c) {
            List<Long> out = new ArrayList<>();
            for (long[] f : c.frames) {
                Segment s = seg.list.get((int) f[0] - 1);
                if (s.srcPort != 40009 && s.dstPort != 40009) {
                    out.add(f[1]);
                }
            }
            return out;
        }
    }

    private static Segments.Collected run(Segments seg, EngineConfig config, long[] evicted) {
        return run(seg, config, evicted, false);
    }

    /** {@link #run}, into a sink that takes evicted attempts' records only when final when {@code defer}. */
    private static Segments.Collected run(Segments seg, EngineConfig config, long[] evicted, boolean defer) {
        Segments.Collected c = new Segments.Collected(defer);
        TcpEngine e = new TcpEngine(config, c);
        for (Segment s : seg.list) {
            e.accept(s);
        }
        e.finish();
        evicted[0] = e.attemptsEvicted();
        return c;
    }

    private static ConnectionRecord only(Segments.Collected c, int port) {
        ConnectionRecord found = null;
        for (ConnectionRecord r : c.connections) {
            if (r.orig().port() == port) {
                assertEquals(null, found, "one record for port " + port);
                found = r;
            }
        }
        return found;
    }

    @Test
    void unansweredAttemptIsEmittedAfterTheAttemptTimeoutWithTheRecordTheEndOfInputGives() {
        Capture cap = new Capture();
        cap.at(S).seg.client(SYN, 1000, 0, 0);
        cap.at(3 * S).seg.client(SYN, 1000, 0, 0);     // retransmission, same ISN
        cap.at(100 * S);
        long[] evicted = new long[1];
        Segments.Collected early = run(cap.seg, EngineConfig.DEFAULTS, evicted);
        assertEquals(1, evicted[0]);
        // emitted while the capture went on: before the background connection, which ends with the input
        assertEquals(40000, early.connections.get(0).orig().port());
        Segments.Collected kept = run(cap.seg, new EngineConfig(3600 * S, 10 * S, 3600 * S), new long[1]);
        ConnectionRecord r = only(early, 40000);
        assertEquals(only(kept, 40000), r);
        assertEquals("S0", r.connState());
        assertEquals("ST", r.history());
        assertEquals(2, r.orig().packets());
        assertEquals(1, r.orig().retransmissions());
        assertEquals(ConnectionRecord.EndReason.END_OF_INPUT, r.endReason());
    }

    @Test
    void lateAnswerToAnEvictedAttemptKeepsItsStreamAndASupersedingRecord(@TempDir Path tmp) throws Exception {
        Capture cap = new Capture();
        cap.at(S).seg.client(SYN, 1000, 0, 0);
        cap.at(100 * S).seg.server(SYN | ACK, 5000, 1001, 0);   // evicted at about 71 s, tombstone until 131 s
        cap.seg.client(RST, 1001, 0, 0);
        cap.seg.clientPort = 40001;
        cap.at(101 * S).seg.client(SYN, 7000, 0, 0);
        long[] evicted = new long[1];
        Segments.Collected c = run(cap.seg, EngineConfig.DEFAULTS, evicted);
        assertEquals(1, evicted[0]);
        // tshark: the background connection is stream 0, port 40000 one stream 1 throughout, port 40001 stream 2
        assertEquals(List.of(1L, 1L, 1L, 2L), cap.streams(c));
        writePcap(cap.seg.list, tmp.resolve("late-answer.pcap"));
        assertEquals(tsharkStreams(tmp.resolve("late-answer.pcap")), c.frames.stream().map(f -> f[1]).toList());
        List<ConnectionRecord> port40000 = c.connections.stream().filter(r -> r.orig().port() == 40000).toList();
        assertEquals(2, port40000.size(), port40000.toString());
        assertEquals(1, port40000.get(0).id().stream());
        assertEquals(port40000.get(0).id(), port40000.get(1).id());
        assertEquals("S0", port40000.get(0).connState());
        assertEquals(1, port40000.get(0).orig().packets() + port40000.get(0).resp().packets());
        // the later record is the whole connection, as if it had never been evicted
        assertEquals("RSTO", port40000.get(1).connState());
        assertEquals(3, port40000.get(1).orig().packets() + port40000.get(1).resp().packets());
        assertEquals(S / MS * 99, port40000.get(1).synToSynAckNanos() / MS);
    }

    @Test
    void deferredRecordsOfEvictedAttemptsAreTheirFinalRecordsOnly() {
        // ports 40000 and 40003: evicted, never answered, tombstones forgotten at about 130 s; 40001: evicted,
        // answered at 100 s (revived); 40002: evicted, then a SYN with another ISN (port reuse), evicted again;
        // 40005: evicted at about 195 s, still a tombstone when the input ends at 200 s
        Capture cap = new Capture();
        cap.at(S).seg.client(SYN, 1000, 0, 0);
        cap.at(3 * S).seg.client(SYN, 1000, 0, 0);
        cap.seg.clientPort = 40001;
        cap.at(4 * S).seg.client(SYN, 2000, 0, 0);
        cap.seg.clientPort = 40002;
        cap.at(5 * S).seg.client(SYN, 3000, 0, 0);
        cap.seg.clientPort = 40003;
        cap.at(6 * S).seg.client(SYN, 4000, 0, 0);
        cap.seg.clientPort = 40001;
        cap.at(100 * S).seg.server(SYN | ACK, 5000, 2001, 0);
        cap.seg.client(RST, 2001, 0, 0);
        cap.seg.clientPort = 40002;
        cap.at(101 * S).seg.client(SYN, 3500, 0, 0);
        cap.seg.clientPort = 40005;
        cap.at(125 * S).seg.client(SYN, 8000, 0, 0);
        cap.seg.clientPort = 40004;
        cap.at(200 * S).seg.client(SYN, 6000, 0, 0);
        long[] evicted = new long[1], deferredEvicted = new long[1];
        Segments.Collected given = run(cap.seg, EngineConfig.DEFAULTS, evicted);
        Segments.Collected deferred = run(cap.seg, EngineConfig.DEFAULTS, deferredEvicted, true);
        assertEquals(6, evicted[0]);     // 40000 to 40003, 40005, and 40002's second attempt
        assertEquals(evicted[0], deferredEvicted[0]);
        assertEquals(given.frames.stream().map(f -> f[1]).toList(), deferred.frames.stream().map(f -> f[1]).toList(),
                "the same streams");
        // without deferral, port 40001's early record (S0) is superseded by its complete one (RSTO); with it, only
        // the complete one is given, and every other record is the same, later
        List<ConnectionRecord> expected = new ArrayList<>(given.connections);
        ConnectionRecord early = expected.stream().filter(r -> r.orig().port() == 40001).findFirst().orElseThrow();
        assertEquals("S0", early.connState());
        expected.remove(early);
        assertEquals("RSTO", only(deferred, 40001).connState());
        assertEquals(2, deferred.connections.stream().filter(r -> r.orig().port() == 40002).count());
        java.util.Comparator<ConnectionRecord> order = java.util.Comparator
                .comparingLong((ConnectionRecord r) -> r.id().stream()).thenComparingLong(ConnectionRecord::firstNanos);
        expected.sort(order);
        List<ConnectionRecord> got = new ArrayList<>(deferred.connections);
        got.sort(order);
        assertEquals(expected, got);
        // port 40005's record comes when the input ends, after the background connection's (the first stream, so the
        // first the end gives); without deferral it came when it was evicted, before
        assertTrue(given.connections.indexOf(only(given, 40005)) < given.connections.indexOf(only(given, 40009)));
        assertTrue(deferred.connections.indexOf(only(deferred, 40005))
                > deferred.connections.indexOf(only(deferred, 40009)), deferred.connections.toString());
    }

    /**
     * What diagnose shows per endpoint: connections, vantage, and per cause events, count, time, frames (the
     * diagnosis takes evicted attempts' records only when final).
     */
    private static List<String> diagnosis(Segments seg, EngineConfig config, long[] evicted) {
        Diagnosis d = new Diagnosis();
        TcpEngine e = new TcpEngine(config, d);
        seg.list.forEach(e::accept);
        e.finish();
        evicted[0] = e.attemptsEvicted();
        List<String> out = new ArrayList<>();
        for (EndpointDiagnosis ep : d.endpoints()) {
            out.add(ep.server() + " connections " + ep.connections() + " " + new java.util.TreeMap<>(ep.capturePoints()));
            for (Map.Entry<Cause, ConnectionCauses.Tally> en : ep.causes()) {
                ConnectionCauses.Tally t = en.getValue();
                out.add("  " + en.getKey() + " events " + t.events() + " count " + t.count() + " ms "
                        + t.timeLostMicros() / 1000 + " connections " + t.connections() + " frames "
                        + Arrays.toString(t.frames()));
            }
        }
        return out;
    }

    @Test
    void diagnoseCountsARevivedAttemptAndItsSynRetransmissionsOnce() {
        // the SYN retransmitted at 3 s (frame 17; the first SYN is frame 8, after the background connection's
        // frames) is a cause event of the attempt the sweep evicts at about 63 s; the late answer revives it, and
        // the deferring engine gives its record and causes once, complete: diagnose shows what a run that never
        // evicted it shows
        Capture cap = new Capture();
        cap.at(S).seg.client(SYN, 1000, 0, 0);
        cap.at(3 * S).seg.client(SYN, 1000, 0, 0);
        cap.at(100 * S).seg.server(SYN | ACK, 5000, 1001, 0);
        cap.seg.client(RST, 1001, 0, 0);
        long[] evicted = new long[1];
        List<String> revived = diagnosis(cap.seg, EngineConfig.DEFAULTS, evicted);
        assertEquals(1, evicted[0]);
        List<String> kept = diagnosis(cap.seg, new EngineConfig(3600 * S, 10 * S, 3600 * S), evicted);
        assertEquals(0, evicted[0]);
        assertEquals(kept, revived);
        assertTrue(revived.get(0).startsWith("10.0.0.2:80 connections 2 "), revived.toString());
        assertTrue(revived.contains("  SYN_RETRANSMISSION events 1 count 1 ms 2000 connections 1 frames [8, 17]"),
                revived.toString());
    }

    @Test
    void diagnoseCountsTheSynRetransmissionsOfAnEvictedAttemptNeverRevived() {
        // let go (its tombstone at about 123 s) and still held at the end of the input: the deferred record and
        // its causes are given then, counted once each
        for (long end : new long[] {200 * S, 100 * S}) {
            Capture cap = new Capture();
            cap.at(S).seg.client(SYN, 1000, 0, 0);
            cap.at(3 * S).seg.client(SYN, 1000, 0, 0);
            cap.at(end);
            long[] evicted = new long[1];
            List<String> early = diagnosis(cap.seg, EngineConfig.DEFAULTS, evicted);
            assertEquals(1, evicted[0]);
            assertEquals(diagnosis(cap.seg, new EngineConfig(3600 * S, 10 * S, 3600 * S), evicted), early);
            assertTrue(early.stream().anyMatch(l -> l.startsWith("  SYN_RETRANSMISSION events 1 count 1 ms 2000 ")),
                    early.toString());
        }
    }

    @Test
    void diagnosisRefusesARecordGivenAtEvictionThroughASinkThatDoesNotSaySo() {
        // such a record may be superseded by a revival: a diagnosis would count it and the complete one. A diagnosis
        // says it takes records only when final; a sink forwarding to it without saying the same is refused.
        Capture cap = new Capture();
        cap.at(S).seg.client(SYN, 1000, 0, 0);
        cap.at(100 * S);
        Diagnosis d = new Diagnosis();
        assertTrue(d.takesFinalRecordsOnly());
        TcpEngine e = new TcpEngine(EngineConfig.DEFAULTS, new AnalysisSink() {
            @Override
            public void onAttemptEvicted(ConnectionId id) {
                d.onAttemptEvicted(id);
            }
        });
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> {
            cap.seg.list.forEach(e::accept);
            e.finish();
        });
        assertTrue(x.getMessage().contains("takesFinalRecordsOnly"), x.getMessage());
    }

    @Test
    void newIsnOnAnEvictedAttemptsTupleStartsANewStreamAsPortReuse() {
        Capture cap = new Capture();
        cap.at(S).seg.client(SYN, 1000, 0, 0);
        cap.at(100 * S).seg.client(SYN, 2000, 0, 0);
        long[] evicted = new long[1];
        Segments.Collected c = run(cap.seg, EngineConfig.DEFAULTS, evicted);
        assertEquals(List.of(1L, 2L), cap.streams(c));
        assertEquals(2, c.connections.stream().filter(r -> r.orig().port() == 40000).count());
    }

    @Test
    void tupleBackAfterItsTombstoneExpiredStartsANewStream() {
        // documented divergence: tshark would give stream 1 again; ackscope forgot the 4-tuple 2 x 60 s (+ slack)
        // after its last packet
        Capture cap = new Capture();
        cap.at(S).seg.client(SYN, 1000, 0, 0);
        cap.at(200 * S).seg.client(SYN, 1000, 0, 0);
        Segments.Collected c = run(cap.seg, EngineConfig.DEFAULTS, new long[1]);
        assertEquals(List.of(1L, 2L), cap.streams(c));
    }

    /** Writes {@code segs} as a classic pcap (Ethernet, IPv4, 20-byte TCP headers, no payload). */
    static void writePcap(List<Segment> segs, Path file) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(24 + segs.size() * (16 + 54)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        for (Segment s : segs) {
            b.order(ByteOrder.LITTLE_ENDIAN);
            b.putInt((int) (s.timestampNanos / 1_000_000_000L)).putInt((int) (s.timestampNanos % 1_000_000_000L / 1000))
                    .putInt(54).putInt(54);
            b.order(ByteOrder.BIG_ENDIAN);
            b.putInt(0x02000000).putShort((short) 2).putInt(0x02000000).putShort((short) 1).putShort((short) 0x0800);
            b.put((byte) 0x45).put((byte) 0).putShort((short) 40).putInt(0).put((byte) 64).put((byte) 6)
                    .putShort((short) 0).putInt((int) s.srcLo).putInt((int) s.dstLo);       // IPv4 (checksum 0)
            b.putShort((short) s.srcPort).putShort((short) s.dstPort).putInt((int) s.seq).putInt((int) s.ack)
                    .put((byte) 0x50).put((byte) s.flags).putShort((short) s.window).putInt(0);  // TCP
        }
        Files.write(file, Arrays.copyOf(b.array(), b.position()));
    }

    /** tshark's tcp.stream of every frame of {@code file}. */
    static List<Long> tsharkStreams(Path file) throws Exception {
        Process p = new ProcessBuilder("tshark", "-n", "-r", file.toString(), "-T", "fields", "-e", "tcp.stream")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        return out.lines().map(Long::parseLong).toList();
    }

    /**
     * A client retrying with its first ISN after the server's RST starts no new stream: tshark (4.0.17, Debian's, which CI
     * installs) reads the same frames written as a capture, and every frame's stream must be its.
     */
    @Test
    void synRepeatingTheIsnAfterARstStaysInItsStreamAsInTshark(@TempDir Path tmp) throws Exception {
        for (long gap : new long[] {13 * S, 25 * S, 45 * S}) {
            Capture cap = new Capture();
            cap.seg.client(SYN, 1000, 0, 0);
            cap.seg.server(SYN | ACK, 5000, 1001, 0);
            cap.seg.client(ACK, 1001, 5001, 0);
            cap.seg.server(RST | ACK, 5001, 1001, 0);
            cap.at(gap).seg.client(SYN, 1000, 0, 0);              // the client retries with its first ISN
            cap.seg.server(SYN | ACK, 6000, 1001, 0);
            cap.seg.clientPort = 40001;
            cap.at(gap + S).seg.client(SYN, 3000, 0, 0);          // shows any shift of later stream numbers
            Segments.Collected c = run(cap.seg, EngineConfig.DEFAULTS, new long[1]);
            assertEquals(List.of(1L, 1L, 1L, 1L, 1L, 1L, 2L), cap.streams(c), "gap " + gap / S + " s");
            Path pcap = tmp.resolve("syn-after-rst-" + gap / S + "s.pcap");
            writePcap(cap.seg.list, pcap);
            assertEquals(tsharkStreams(pcap), c.frames.stream().map(f -> f[1]).toList(), "gap " + gap / S + " s");
            // within the linger (10 s) and the sweep's slack the SYN is a retransmission of the same analyzer, as in
            // tshark; later it reopens the stream in a new analyzer (a second record of stream 1)
            long[] retry = c.frames.stream().filter(f -> cap.seg.list.get((int) f[0] - 1).seq == 1000
                    && f[0] > 4).findFirst().orElseThrow();
            assertEquals(gap == 13 * S, (retry[2] & FrameAnalysis.RETRANSMISSION) != 0, "gap " + gap / S + " s");
        }
    }
}
