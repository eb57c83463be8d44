package io.ackscope.vantage;

import io.ackscope.capture.CaptureException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two-point lab pair (sample-pcaps/README.md, made by jobs/lab-two-points): a client and a server in their own
 * namespaces, a path of 5 ms each way that dropped every 25th client data frame (8 frames) and every 40th server
 * data frame (9 frames), both ends captured on one kernel clock, then the server capture's clock moved 1,234,567 us
 * ahead. The truth is therefore known exactly; the forwarder's own measurement of the delay it applied was 5.048 ms
 * (client to server) and 5.057 ms (server to client) at the median.
 */
class PairAnalysisTest {
    static final Path CLIENT = Path.of("sample-pcaps", "lab-two-points-client.pcap.gz");
    static final Path SERVER = Path.of("sample-pcaps", "lab-two-points-server.pcap.gz");
    static final long SHIFT_US = 1_234_567;
    static final long PATH_DELAY_US = 5_000;
    static final long DROPPED_CLIENT_TO_SERVER = 8;
    static final long DROPPED_SERVER_TO_CLIENT = 9;

    static PointSegments client;
    static PointSegments server;

    @BeforeAll
    static void read() throws IOException, CaptureException {
        client = PointReader.read("client", List.of(CLIENT));
        server = PointReader.read("server", List.of(SERVER));
    }

    @Test
    void clockOffsetIsTheShiftWithinAMillisecond() {
        VantagePair pair = PairAnalysis.analyze(client, server);
        assertNotNull(pair);
        SourcePair row = pair.summary();
        assertTrue(Math.abs(row.clockOffsetUs() - SHIFT_US) <= 1_000, "offset " + row.clockOffsetUs());
        // the error bound is half the smallest round trip between the points: 5 ms, and the truth lies inside it
        assertTrue(row.clockOffsetErrorUs() >= 4_900 && row.clockOffsetErrorUs() <= 6_000,
                "error " + row.clockOffsetErrorUs());
        assertTrue(Math.abs(row.clockOffsetUs() - SHIFT_US) <= row.clockOffsetErrorUs());
        assertFalse(pair.delaysBounded(), "a 5 ms bound does not split a 10 ms round trip by itself");
    }

    @Test
    void oneWayDelaysAreThePathsWithinHalfAMillisecond() {
        SourcePair row = PairAnalysis.analyze(client, server).summary();
        assertTrue(Math.abs(row.oneWayAtoBP50Us() - PATH_DELAY_US) <= 500, "a->b p50 " + row.oneWayAtoBP50Us());
        assertTrue(Math.abs(row.oneWayBtoAP50Us() - PATH_DELAY_US) <= 500, "b->a p50 " + row.oneWayBtoAP50Us());
        assertTrue(row.oneWayAtoBP99Us() >= row.oneWayAtoBP50Us());
        assertTrue(row.oneWayBtoAP99Us() >= row.oneWayBtoAP50Us());
    }

    @Test
    void theClientsPointIsAWhicheverOrderTheyAreGiven() {
        for (VantagePair pair : List.of(PairAnalysis.analyze(client, server), PairAnalysis.analyze(server, client))) {
            assertEquals("client", pair.summary().sourceA());
            assertEquals("server", pair.summary().sourceB());
            assertTrue(Math.abs(pair.summary().clockOffsetUs() - SHIFT_US) <= 1_000);
        }
    }

    @Test
    void everyConnectionIsMatchedAndLossPerDirectionIsWhatThePathDropped() {
        VantagePair pair = PairAnalysis.analyze(client, server);
        assertEquals(client.connections().size(), pair.connections().size());
        assertEquals(server.connections().size(), pair.connections().size());
        assertEquals(4, pair.summary().connections());
        assertEquals(DROPPED_CLIENT_TO_SERVER, pair.summary().lostAtoB());
        assertEquals(DROPPED_SERVER_TO_CLIENT, pair.summary().lostBtoA());
        assertEquals(0, pair.onlyDownstream());
        int matched = pair.connections().stream().mapToInt(MatchedConnection::matchedSegments).sum();
        // every frame but the dropped ones was seen at both points
        assertEquals(client.size() - DROPPED_CLIENT_TO_SERVER, matched);
        assertEquals(server.size() - DROPPED_SERVER_TO_CLIENT, matched);
        assertEquals(matched, pair.delays().size());
        for (MatchedConnection c : pair.connections()) {
            assertEquals(c.streamA(), c.streamB(), "both points number the connections alike here");
            assertTrue(c.server().endsWith(":18790"), c.server());
            assertFalse(c.throughNat());
        }
    }

    @Test
    void clientAckDelayIsReadAtTheClientAndTheServerSeesItPlusTheRoundTrip() {
        HostTimes all = PairAnalysis.analyze(client, server).ackDelays();
        HostTimes stalls = all.marked();
        // each later request: the header's ACK is delayed (the stall), the body's is immediate (no stall)
        assertTrue(stalls.samples() >= 100 && stalls.samples() < all.samples(), stalls.samples() + " of "
                + all.samples());
        assertTrue(stalls.atAP50Us() >= 36_000 && stalls.atAP50Us() <= 48_000,
                "client-side ACK delay " + stalls.atAP50Us());
        // the server's view is one path round trip (2 x 5 ms) longer, for every sample
        assertTrue(Math.abs(all.pathRttP50Us() - 2 * PATH_DELAY_US) <= 1_000, "rtt " + all.pathRttP50Us());
        assertTrue(Math.abs(stalls.atBP50Us() - stalls.atAP50Us() - 2 * PATH_DELAY_US) <= 1_500,
                "server-side " + stalls.atBP50Us());
    }

    @Test
    void serverTurnaroundIsReadAtTheServerAndTheClientSeesItPlusTheRoundTrip() {
        HostTimes turns = PairAnalysis.analyze(client, server).turnarounds();
        // about one per request (187 requests; those whose request was retransmitted are left out)
        assertTrue(turns.samples() >= 150 && turns.samples() <= 187, "samples " + turns.samples());
        assertEquals(4, turns.marked().samples(), "one first request per connection");
        // serve answers with its header at once: well under a millisecond at the server on a quiet machine
        assertTrue(turns.atBP50Us() >= 0 && turns.atBP50Us() < 3_000, "at the server " + turns.atBP50Us());
        assertTrue(Math.abs(turns.atAP50Us() - turns.atBP50Us() - 2 * PATH_DELAY_US) <= 1_500,
                "at the client " + turns.atAP50Us());
    }

    @Test
    void aDriftingClockIsFittedAndTheOffsetStaysWithinAMillisecond() {
        double drift = 200;
        VantagePair pair = PairAnalysis.analyze(client, server.withClock(0, drift));
        assertTrue(pair.clock().windows() >= 3, "windows " + pair.clock().windows());
        assertTrue(Math.abs(pair.summary().driftPpm() - drift) <= 40, "drift " + pair.summary().driftPpm());
        long serverStart = server.connections().stream().mapToLong(PointConnection::firstNanos).min().orElseThrow();
        long expected = SHIFT_US * 1000 + Math.round(drift * (pair.clock().refNanos() + SHIFT_US * 1000
                - serverStart) / 1e6);
        assertTrue(Math.abs(pair.clock().offsetNanos() - expected) <= 1_000_000, "offset " + pair.clock());
        assertTrue(Math.abs(pair.summary().oneWayAtoBP50Us() - PATH_DELAY_US) <= 500);
    }

    @Test
    void throughANatConnectionsPairByTheirSequenceNumbers() {
        PointSegments natted = PointSegmentsCopies.rewriteClient(server, 0x0a0a0a0aL, 40000);
        VantagePair pair = PairAnalysis.analyze(client, natted);
        assertEquals(4, pair.connections().size());
        assertTrue(pair.connections().stream().allMatch(MatchedConnection::throughNat));
        assertEquals(DROPPED_CLIENT_TO_SERVER, pair.summary().lostAtoB());
    }

    @Test
    void capturesWithNoConnectionInCommonGiveNoPair() throws IOException, CaptureException {
        PointSegments on = PointReader.read("on", List.of(Path.of("sample-pcaps", "nginx-nodelay-on.pcap.gz")));
        PointSegments off = PointReader.read("off", List.of(Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz")));
        assertNull(PairAnalysis.analyze(on, off));
        assertNull(PairAnalysis.analyze(client, off));
    }

    @Test
    void aCaptureStartedLaterCountsNoLossBeforeItsStart() {
        long start = server.connections().stream().mapToLong(PointConnection::firstNanos).min().orElseThrow();
        PointSegments late = PointSegmentsCopies.from(server, start + 2_000_000_000L);
        VantagePair pair = PairAnalysis.analyze(client, late);
        assertEquals(4, pair.connections().size());
        // the client's segments of the first two seconds are not at the late capture, and are not counted as loss
        assertTrue(pair.summary().lostAtoB() < DROPPED_CLIENT_TO_SERVER, pair.summary().toString());
        assertTrue(pair.summary().lostBtoA() <= DROPPED_SERVER_TO_CLIENT, pair.summary().toString());
        assertEquals(0, pair.onlyDownstream());
        assertTrue(Math.abs(pair.summary().clockOffsetUs() - SHIFT_US) <= 1_000);
    }

    @Test
    void aCaptureAgainstItselfShiftedGivesTheShiftExactlyAndNoDelay() throws IOException, CaptureException {
        PointSegments on = PointReader.read("on", List.of(Path.of("sample-pcaps", "nginx-nodelay-on.pcap.gz")));
        VantagePair pair = PairAnalysis.analyze(on, on.withClock(7_000_000L, 0));
        assertEquals(on.connections().size(), pair.connections().size());
        assertEquals(on.size(), pair.delays().size());
        assertEquals(7_000, pair.summary().clockOffsetUs());
        assertEquals(0, pair.summary().clockOffsetErrorUs());
        assertEquals(0, pair.summary().oneWayAtoBP99Us());
        assertEquals(0, pair.summary().lostAtoB() + pair.summary().lostBtoA());
        assertTrue(pair.delaysBounded());
    }
}
