package io.ackscope.tcp;

import static io.ackscope.tcp.CauseDetectionTest.causes;
import static io.ackscope.tcp.CauseDetectionTest.of;
import static io.ackscope.tcp.CauseDetectionTest.setting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Server time, network time and queueing on the lab captures of jobs/lab-causes: the two captures with the same
 * ~55 ms median response time are told apart (a 50 ms server behind a 2 ms path, an instant server behind a 50 ms
 * path), each with the magnitude the lab set, and a 400 ms FIFO shows as queueing of at most 400 ms per request.
 */
class ResponseTimeCausesTest {
    private static final long MS = 1_000_000L;

    @Test
    void aSlowServerIsServerTimeOfItsThinkTimeOnEveryRequest() throws Exception {
        String cap = "lab-cause-server-slow.pcap.gz";
        List<CauseEvent> events = causes(cap);
        List<CauseEvent> server = of(events, Cause.SERVER_PROCESSING);
        assertEquals(events.size(), server.size(), "nothing else: " + events);
        assertEquals(103, server.size(), "every request (tshark: 103 HTTP requests, 103 responses)");
        long think = setting(cap, "think_time_ms") * MS;
        for (CauseEvent e : server) {
            assertEquals(Side.RESPONDER, e.side());
            // the think time, plus scheduling on a loaded 2-core machine; never less
            assertTrue(e.timeLostNanos() >= think && e.timeLostNanos() < think + 30 * MS, "server time " + e);
            assertEquals(0, e.outsideNanos(), "inside the response time");
            // the request's last frame (the capture is at the server: that is the proof) and the response's first
            assertEquals(2, e.frames().length, e.toString());
        }
        long[] first = server.get(0).frames();
        assertEquals(7, first[0], "the first GET (tshark: frame 7, ACKed by the server in frame 8)");
        assertEquals(11, first[1], "its response, 52.5 ms later");
    }

    @Test
    void aLongPathIsNetworkDelayOfItsRoundTripOnEveryRequest() throws Exception {
        String cap = "lab-cause-network-delay.pcap.gz";
        List<CauseEvent> events = causes(cap);
        List<CauseEvent> network = of(events, Cause.NETWORK_DELAY);
        assertEquals(events.size(), network.size(), "nothing else: " + events);
        assertEquals(96, network.size(), "every request (tshark: 96 HTTP requests, 96 responses)");
        long rtt = 2 * setting(cap, "one_way_delay_ms") * MS;
        for (CauseEvent e : network) {
            // the round trip the wire adds, plus the forwarder's own time (under 1 ms per direction here)
            assertTrue(e.timeLostNanos() >= rtt && e.timeLostNanos() < rtt + 2 * MS, "path " + e);
            // captured at the server: the leg to the client is outside the response time measured there
            assertTrue(e.outsideNanos() >= rtt - MS && e.outsideNanos() <= e.timeLostNanos(), "outside " + e);
        }
    }

    @Test
    void aFullFifoIsQueueingOfAtMostItsLengthOverTheBaseRoundTrip() throws Exception {
        String cap = "lab-cause-queueing.pcap.gz";
        List<CauseEvent> queueing = of(causes(cap), Cause.QUEUEING_DELAY);
        long queue = setting(cap, "queue_ms") * MS;
        long base = 2 * setting(cap, "one_way_delay_ms") * MS;
        assertEquals(37, queueing.size());
        long max = 0;
        for (CauseEvent e : queueing) {
            // at least twice the base above it, never more than the FIFO holds
            assertTrue(e.timeLostNanos() >= 2 * base && e.timeLostNanos() <= queue + 5 * MS, "queueing " + e);
            assertEquals(3, e.frames().length, "the base round trip's frame, the request, the answer: " + e);
            max = Math.max(max, e.timeLostNanos());
        }
        assertTrue(max > queue * 3 / 4, "the FIFO filled: " + max);
        // every event is of the light load on 8080, not of the 5 MB download on 8081
        assertTrue(queueing.stream().allMatch(e -> e.connection().equals(queueing.get(0).connection())));
    }
}
