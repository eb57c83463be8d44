package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seed case on real captures of Debian's nginx loaded by wrk (see sample-pcaps/README.md): with
 * {@code tcp_nodelay off} nearly every request after the first on a keep-alive connection stalls on the client's
 * 40 ms delayed ACK; with {@code tcp_nodelay on} nothing stalls.
 */
class SeedCaseTest {
    static final Path LATENCY = Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz");
    static final Path GOOD = Path.of("sample-pcaps", "nginx-nodelay-on.pcap.gz");

    static final class Results implements AnalysisSink {
        final List<Stall> stalls = new ArrayList<>();
        final List<Exchange> exchanges = new ArrayList<>();
        final List<ConnectionRecord> connections = new ArrayList<>();
        final List<AckDelay> ackDelays = new ArrayList<>();

        @Override
        public void onStall(Stall s) {
            stalls.add(s);
        }

        @Override
        public void onExchange(Exchange x) {
            exchanges.add(x);
        }

        @Override
        public void onConnection(ConnectionRecord c) {
            connections.add(c);
        }

        @Override
        public void onAckDelay(AckDelay d) {
            ackDelays.add(d);
        }
    }

    static Results analyse(Path p) throws IOException, CaptureException {
        assertTrue(Files.isRegularFile(p), "sample capture missing: " + p.toAbsolutePath());
        Results r = new Results();
        TcpEngine engine = new TcpEngine(r);
        try (CaptureReader reader = CaptureReader.open(p)) {
            new CaptureFeeder().feed(reader, 0, engine);
        }
        engine.finish();
        return r;
    }

    @Test
    void latencyCaptureStallsWellOverNinetyPercentOfLaterRequestsOnTheClientsDelayedAck() throws Exception {
        Results r = analyse(LATENCY);
        Set<ConnectionId> stalledIds = new HashSet<>();
        long later = 0, laterStalled = 0;
        for (Exchange x : r.exchanges) {
            assertEquals("GET", x.httpMethod());
            assertEquals("/index.html", x.httpTarget());
            if (x.index() == 0) {
                assertEquals(0, x.responseStallNanos(), "the first request is quick-ACKed");
                continue;
            }
            later++;
            if (x.responseStallNanos() > 0) {
                laterStalled++;
                stalledIds.add(x.connection());
            }
        }
        assertTrue(later > 1000, "requests after the first: " + later);
        assertTrue(laterStalled > 0.95 * later, laterStalled + " of " + later + " later requests stalled");
        long inBand = 0;
        for (Stall s : r.stalls) {
            assertEquals(Side.RESPONDER, s.holdingSide(), "nginx holds the body");
            assertEquals(Side.ORIGINATOR, s.delayingSide(), "wrk delays its ACK");
            assertTrue(s.resumeGapNanos() < 1_000_000, "body follows the ACK within 1 ms: " + s);
            if (s.ackDelayNanos() >= 40_000_000 && s.ackDelayNanos() <= 48_500_000) {
                inBand++;
            }
        }
        assertEquals(laterStalled, r.stalls.size());
        assertTrue(inBand >= 0.99 * r.stalls.size(), inBand + " of " + r.stalls.size() + " in 40-48 ms");
        for (ConnectionRecord c : r.connections) {
            assertEquals(CapturePoint.LOCAL, c.capturePoint());
            assertEquals(18781, c.resp().port());
        }
        long delayed40 = r.ackDelays.stream().filter(d -> d.ackClass() == AckClass.DELAYED_40MS).count();
        assertEquals(r.stalls.size(), delayed40, "each stall is one 40 ms delayed ACK of the client");
    }

    @Test
    void goodCaptureHasNoStallAndSubMillisecondResponses() throws Exception {
        Results r = analyse(GOOD);
        assertTrue(r.stalls.isEmpty(), "stalls: " + r.stalls.size());
        assertTrue(r.exchanges.size() > 5000, "exchanges: " + r.exchanges.size());
        long[] complete = r.exchanges.stream().filter(x -> x.completeNanos() >= 0)
                .mapToLong(Exchange::completeNanos).sorted().toArray();
        assertTrue(complete[complete.length / 2] < 1_000_000, "median response " + complete[complete.length / 2]);
        assertTrue(r.ackDelays.stream().noneMatch(d -> d.ackClass() == AckClass.DELAYED_40MS));
    }
}
