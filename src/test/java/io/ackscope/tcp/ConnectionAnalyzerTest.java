package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import static io.ackscope.tcp.Segments.ACK;
import static io.ackscope.tcp.Segments.FIN;
import static io.ackscope.tcp.Segments.MS;
import static io.ackscope.tcp.Segments.PSH;
import static io.ackscope.tcp.Segments.RST;
import static io.ackscope.tcp.Segments.SYN;
import static io.ackscope.tcp.Segments.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionAnalyzerTest {

    /** Client at the capture point: SYN, 20 ms later SYN/ACK, 30 us later ACK. */
    private static Segments handshake() {
        Segments g = new Segments();
        g.client(SYN, 1000, 0, 0);
        g.after(20 * MS).server(SYN | ACK, 5000, 1001, 0);
        g.after(30 * US).client(ACK, 1001, 5001, 0);
        return g;
    }

    @Test
    void handshakeGivesAckRttOnSynAckAndInitialRttFromThirdPacketOn() {
        Segments g = handshake();
        g.after(10 * US).client(ACK | PSH, 1001, 5001, 100);
        Segments.Collected c = g.run();
        assertEquals(20L * MS, c.frame(2)[3], "SYN/ACK acknowledges the SYN");
        assertEquals(-1, c.frame(2)[4], "no initial_rtt before the handshake completes");
        assertEquals(30L * US, c.frame(3)[3]);
        assertEquals(20L * MS + 30 * US, c.frame(3)[4]);
        assertEquals(20L * MS + 30 * US, c.frame(4)[4], "data frame carries initial_rtt");
        ConnectionRecord r = c.connections.get(0);
        assertEquals(20L * MS, r.synToSynAckNanos());
        assertEquals(30L * US, r.synAckToAckNanos());
        assertEquals(CapturePoint.NEAR_CLIENT, r.capturePoint());
        assertEquals("S1", r.connState());
        assertEquals("ShAD", r.history());
    }

    @Test
    void dataAckRttIsMeasuredToTheAckCoveringTheSegmentEnd() {
        Segments g = handshake();
        g.after(MS).client(ACK | PSH, 1001, 5001, 100);          // 4
        g.after(MS).client(ACK | PSH, 1101, 5001, 100);          // 5
        g.after(15 * MS).server(ACK, 5001, 1101, 0);             // 6: acks frame 4 exactly
        g.after(MS).server(ACK, 5001, 1150, 0);                  // 7: partial ack of frame 5, no rtt
        g.after(MS).server(ACK, 5001, 1201, 0);                  // 8: rest of frame 5, rtt from frame 5
        Segments.Collected c = g.run();
        assertEquals(16L * MS, c.frame(6)[3]);
        assertEquals(-1, c.frame(7)[3]);
        assertEquals(17L * MS, c.frame(8)[3], "the ACK reaching the segment's end measures from the segment");
    }

    @Test
    void retransmissionAndDuplicateAcksAreFlaggedLikeTshark() {
        Segments g = handshake();
        g.after(MS).client(ACK | PSH, 1001, 5001, 100);          // 4
        g.after(MS).client(ACK | PSH, 1101, 5001, 100);          // 5 (lost on the way)
        g.after(MS).client(ACK | PSH, 1201, 5001, 100);          // 6
        g.after(MS).server(ACK, 5001, 1101, 0);                  // 7
        g.after(MS).server(ACK, 5001, 1101, 0);                  // 8 dup 1
        g.after(MS).server(ACK, 5001, 1101, 0);                  // 9 dup 2
        g.after(MS).client(ACK | PSH, 1101, 5001, 100);          // 10 fast retransmission
        g.after(300 * MS).client(ACK | PSH, 1101, 5001, 100);    // 11 plain retransmission (RTO)
        Segments.Collected c = g.run();
        assertEquals(0, c.frame(7)[2] & FrameAnalysis.DUPLICATE_ACK);
        assertEquals(FrameAnalysis.DUPLICATE_ACK, c.frame(8)[2] & FrameAnalysis.DUPLICATE_ACK);
        assertEquals(1, c.frame(8)[5]);
        assertEquals(2, c.frame(9)[5]);
        assertEquals(FrameAnalysis.FAST_RETRANSMISSION, c.frame(10)[2] & FrameAnalysis.ANY_RETRANSMISSION);
        assertEquals(FrameAnalysis.RETRANSMISSION, c.frame(11)[2] & FrameAnalysis.ANY_RETRANSMISSION);
        ConnectionRecord r = c.connections.get(0);
        assertEquals(1, r.orig().fastRetransmissions());
        assertEquals(1, r.orig().retransmissions());
        assertEquals(2, r.resp().duplicateAcks());
        assertEquals(1, r.rtoEvents());
        assertTrue(r.history().contains("T"), r.history());
        LatencyEvent e = c.events.get(0);
        assertEquals(LatencyEvent.Kind.RETRANSMISSION_TIMEOUT, e.kind());
        assertEquals(Side.ORIGINATOR, e.side());
    }

    @Test
    void segmentEndingAtOrBelowPeersAckIsSpurious() {
        Segments g = handshake();
        g.after(MS).client(ACK | PSH, 1001, 5001, 100);
        g.after(MS).server(ACK, 5001, 1101, 0);
        g.after(MS).client(ACK | PSH, 1001, 5001, 100);
        Segments.Collected c = g.run();
        assertEquals(FrameAnalysis.SPURIOUS_RETRANSMISSION, c.frame(6)[2] & FrameAnalysis.ANY_RETRANSMISSION);
    }

    @Test
    void retransmittedSegmentGivesKarnAmbiguousRttSample() {
        Segments g = handshake();
        g.after(MS).client(ACK | PSH, 1001, 5001, 100);          // 4
        g.after(300 * MS).client(ACK | PSH, 1001, 5001, 100);    // 5 retransmission
        g.after(20 * MS).server(ACK, 5001, 1101, 0);             // 6
        Segments.Collected c = g.run();
        RttSample data = c.rtt.stream().filter(r -> r.kind() == RttSample.Kind.DATA_ACK).findFirst().orElseThrow();
        assertTrue(data.karnAmbiguous());
        assertEquals(320L * MS, data.valueNanos(), "tshark measures from the oldest copy");
        assertTrue(c.ackDelays.isEmpty(), "no ACK delay from ambiguous segments");
    }

    @Test
    void newSynWithDifferentIsnOnSameTupleStartsNewStream() {
        Segments g = handshake();
        g.after(MS).client(FIN | ACK, 1001, 5001, 0);
        g.after(MS).server(FIN | ACK, 5001, 1002, 0);
        g.after(MS).client(ACK, 1002, 5002, 0);
        g.after(MS).client(SYN, 900_000, 0, 0);                  // 7: new connection, same ports
        g.after(MS).server(SYN | ACK, 7000, 900_001, 0);
        Segments.Collected c = g.run();
        assertEquals(0, c.frame(6)[1]);
        assertEquals(1, c.frame(7)[1]);
        assertEquals(1, c.frame(8)[1]);
        assertEquals(2, c.connections.size());
        assertEquals(ConnectionRecord.EndReason.PORT_REUSED, c.connections.get(0).endReason());
        assertEquals("SF", c.connections.get(0).connState());
    }

    @Test
    void repeatedSynIsRetransmissionInSameStream() {
        Segments g = new Segments();
        g.client(SYN, 1000, 0, 0);
        g.after(1000 * MS).client(SYN, 1000, 0, 0);
        Segments.Collected c = g.run();
        assertEquals(0, c.frame(2)[1]);
        assertEquals(FrameAnalysis.RETRANSMISSION | FrameAnalysis.REUSED_PORTS, c.frame(2)[2]);
        assertEquals("S0", c.connections.get(0).connState());
    }

    @Test
    void rejectedSynIsRej() {
        Segments g = new Segments();
        g.client(SYN, 1000, 0, 0);
        g.after(MS).server(RST | ACK, 0, 1001, 0);
        Segments.Collected c = g.run();
        assertEquals("REJ", c.connections.get(0).connState());
        assertEquals("Sr", c.connections.get(0).history());
    }

    @Test
    void midstreamConnectionTakesClientFromWellKnownPort() {
        Segments g = new Segments();
        g.server(ACK | PSH, 5000, 1000, 10);
        g.after(MS).client(ACK, 1000, 5010, 0);
        ConnectionRecord r = g.run().connections.get(0);
        assertEquals(ConnectionRecord.OriginatorRule.WELL_KNOWN_PORT, r.originatorRule());
        assertEquals(40000, r.orig().port());
        assertEquals("OTH", r.connState());
        assertEquals("^dA", r.history(), "the first frame was the server's: a flip, as Zeek marks it");
    }

    @Test
    void unackedSegmentsAreCappedAtTenThousandAndDropsCounted() {
        Segments g = handshake();
        long seq = 1001;
        for (int i = 0; i < UnackedList.MAX_SEGMENTS + 5; i++) {
            g.after(US).client(ACK, seq, 5001, 10);
            seq += 10;
        }
        ConnectionRecord r = g.run().connections.get(0);
        // the handshake's SYN was acked; the third ACK occupies nothing
        assertEquals(5, r.orig().unackedDropped());
    }

    @Test
    void zeroWindowWaitIsReportedWithItsDuration() {
        Segments g = handshake();
        g.after(MS).client(ACK | PSH, 1001, 5001, 100);
        Segment z = g.after(MS).server(ACK, 5001, 1101, 0);
        z.window = 0;
        g.after(250 * MS).server(ACK, 5001, 1101, 0);
        Segments.Collected c = g.run();
        assertEquals(FrameAnalysis.ZERO_WINDOW, c.frame(5)[2] & FrameAnalysis.ZERO_WINDOW);
        LatencyEvent e = c.events.get(0);
        assertEquals(LatencyEvent.Kind.ZERO_WINDOW_WAIT, e.kind());
        assertEquals(250L * MS, e.durationNanos());
        assertEquals(Side.ORIGINATOR, e.side(), "the client waited for the server's window");
    }

    @Test
    void nagleDelayedAckStallIsFoundWithHolderAndDelayer() {
        // capture on the server: SYN -> SYN/ACK fast, SYN/ACK -> ACK one RTT (10 ms)
        Segments g = new Segments();
        g.client(SYN, 1000, 0, 0);
        g.after(20 * US).server(SYN | ACK, 5000, 1001, 0);
        g.after(10 * MS).client(ACK, 1001, 5001, 0);
        g.after(US);
        Segments.payload(g.client(ACK | PSH, 1001, 5001, 0), "GET /a HTTP/1.1\r\nHost: example\r\n\r\n");
        g.after(200 * US);
        Segments.payload(g.server(ACK | PSH, 5001, 1036, 0), "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n");
        // client delays its ACK: 44 ms at the client, seen 10 ms + 44 ms later at the server
        g.after(54 * MS).client(ACK, 1036, 5001 + 38, 0);
        g.after(30 * US).server(ACK | PSH, 5039, 1036, 5);        // the held body, right after the ACK
        ConnectionRecord r;
        Segments.Collected c = g.run();
        r = c.connections.get(0);
        assertEquals(CapturePoint.NEAR_SERVER, r.capturePoint());
        AckDelay d = c.ackDelays.stream().filter(x -> x.ackingSide() == Side.ORIGINATOR).reduce((x, y) -> y)
                .orElseThrow();
        assertEquals(AckDelay.Method.ESTIMATED, d.method());
        assertEquals(AckClass.DELAYED_40MS, d.ackClass());
        assertEquals(44L * MS - 20 * US, d.valueNanos(), 200 * US);
        assertEquals(1, c.stalls.size());
        Stall s = c.stalls.get(0);
        assertEquals(Side.RESPONDER, s.holdingSide());
        assertEquals(Side.ORIGINATOR, s.delayingSide());
        assertEquals(6, s.ackFrame());
        assertEquals(7, s.resumeFrame());
        Exchange x = c.exchanges.get(0);
        assertEquals("GET", x.httpMethod());
        assertEquals("/a", x.httpTarget());
        assertEquals("example", x.httpHost());
        assertEquals(200, x.httpStatus());
        assertEquals(s.durationNanos(), x.responseStallNanos());
        assertEquals(x.ttfbNanos(), x.networkNanos() + x.serverNanos() + x.stallNanos());
    }

    @Test
    void promptAckAfterResponseIsNotAStall() {
        Segments g = new Segments();
        g.client(SYN, 1000, 0, 0);
        g.after(20 * US).server(SYN | ACK, 5000, 1001, 0);
        g.after(20 * US).client(ACK, 1001, 5001, 0);
        g.after(US).client(ACK | PSH, 1001, 5001, 35);
        g.after(100 * US).server(ACK | PSH, 5001, 1036, 200);
        g.after(44 * MS).client(ACK, 1036, 5201, 0);                // delayed, but the server has nothing more
        g.after(10 * MS).client(ACK | PSH, 1036, 5201, 35);         // next request
        g.after(100 * US).server(ACK | PSH, 5201, 1071, 200);
        Segments.Collected c = g.run();
        assertTrue(c.stalls.isEmpty());
        assertEquals(2, c.exchanges.size());
        assertFalse(c.ackDelays.isEmpty());
    }

    @Test
    void stallSeenNearTheClientSubtractsThePathRttFromTheServersResume() {
        // capture next to the client, 10 ms RTT to the server; the server's header arrives, the client delays its
        // ACK 40 ms, the body arrives one RTT after that ACK (it left the server right after the ACK reached it)
        Segments g = new Segments();
        g.client(SYN, 1000, 0, 0);
        g.after(10 * MS).server(SYN | ACK, 5000, 1001, 0);
        g.after(20 * US).client(ACK, 1001, 5001, 0);
        g.after(US).client(ACK | PSH, 1001, 5001, 40);
        g.after(10 * MS + 100 * US).server(ACK | PSH, 5001, 1041, 200);
        g.after(40 * MS).client(ACK, 1041, 5201, 0);
        g.after(10 * MS + 50 * US).server(ACK | PSH, 5201, 1041, 900);
        Segments.Collected c = g.run();
        assertEquals(CapturePoint.NEAR_CLIENT, c.connections.get(0).capturePoint());
        AckDelay d = c.ackDelays.stream().filter(x -> x.frameNumber() == 6).findFirst().orElseThrow();
        assertEquals(AckDelay.Method.DIRECT, d.method());
        assertEquals(40L * MS, d.valueNanos());
        assertEquals(1, c.stalls.size());
        assertEquals(10L * MS + 50 * US, c.stalls.get(0).resumeGapNanos());
        assertEquals(Side.RESPONDER, c.stalls.get(0).holdingSide());
    }
}
