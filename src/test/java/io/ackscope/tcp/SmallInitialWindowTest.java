package io.ackscope.tcp;

import static io.ackscope.tcp.CauseDetectionTest.causes;
import static io.ackscope.tcp.CauseDetectionTest.of;
import static io.ackscope.tcp.CauseDetectionTest.samples;
import static io.ackscope.tcp.CauseDetectionTest.setting;
import static io.ackscope.tcp.CauseDetectionTest.truth;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Cause#SMALL_INITIAL_WINDOW} on the lab captures of jobs/lab-causes: on the small-iw lab (initcwnd 2) each
 * connection's first response leaves in the flights slow start from 2 segments needs, a round trip apart, two more
 * than from 10; on every other capture (initcwnd 10) there is none.
 */
class SmallInitialWindowTest {
    private static final long MS = 1_000_000L;

    @Test
    void slowStartFromTheInitialWindowOfTenNeedsTheFlightsOfTheRfc() {
        assertEquals(1, InitialWindow.flightsFromIw10(1));
        assertEquals(1, InitialWindow.flightsFromIw10(10));
        assertEquals(2, InitialWindow.flightsFromIw10(11));
        assertEquals(3, InitialWindow.flightsFromIw10(56));
        assertEquals(3, InitialWindow.flightsFromIw10(70));
        assertEquals(4, InitialWindow.flightsFromIw10(71));
        // the idle-restart lab's 200,000-byte responses: 10, 20, 40 and 69 segments (tshark)
        assertEquals(4, InitialWindow.flightsFromIw10(139));
    }

    @Test
    void eachFirstResponseWaitsTheRoundTripsAnInitialWindowOfTenWouldHaveSaved() throws Exception {
        String cap = "lab-cause-small-iw.pcap.gz";
        List<CauseEvent> events = causes(cap);
        List<CauseEvent> small = of(events, Cause.SMALL_INITIAL_WINDOW);
        long segments = (setting(cap, "body_bytes") + setting(cap, "mss") - 1) / setting(cap, "mss") + 1;
        // from 2 segments: flights of 2, 4, 8, 16 and 26 (tshark); from 10: 10, 20 and 26
        long iw = setting(cap, "initcwnd_segments");
        int fromIw = 1;
        for (long sent = iw, flight = iw; sent < segments; fromIw++) {
            flight *= 2;
            sent += flight;
        }
        assertEquals(5, fromIw);
        long extra = fromIw - InitialWindow.flightsFromIw10(segments);
        assertEquals(2, extra);
        long rtt = 2 * setting(cap, "one_way_delay_ms") * MS;
        for (CauseEvent e : small) {
            assertEquals(Side.RESPONDER, e.side());
            assertEquals(extra, e.count(), e.toString());
            double perStop = (double) e.timeLostNanos() / e.count();
            assertTrue(perStop > 0.95 * rtt && perStop < 1.4 * rtt, "per stop " + perStop / MS + " ms: " + e);
            assertEquals(3 * e.count(), e.frames().length, "last segment, ACK, resumption per stop");
        }
        // 8 of the 10 responses (tshark): in streams 0 and 4 the client's ACKs of a flight came back 90 ms or more
        // after it (the user-space forwarder's jitter on the loaded lab machine), and the server's tail-loss probe
        // sent new data before them (frames 50 and 405, 89 and 90 ms after the previous segment): a stop the ACK
        // clock did not end, which spoils the response as it would a slow writer's
        assertEquals(setting(cap, "requests") - 2, small.size(), small.toString());
        // stream 1 (tshark): the first flight is frames 98-99, the client's ACK frame 100, the next flight leaves
        // 51 us later in frame 101; the two stops cost 47.0 + 40.8 ms
        assertArrayEquals(new long[] {99, 100, 101}, java.util.Arrays.copyOf(small.get(0).frames(), 3));
        assertEquals(87.8, small.get(0).timeLostNanos() / (double) MS, 0.1);
        assertEquals(0, Long.parseLong(truth().get(cap).get("retransmissions")));
        assertEquals(0, Long.parseLong(truth().get(cap).get("window_full")));
    }

    @Test
    void noOtherSampleCaptureHasASmallInitialWindow() throws Exception {
        // every other lab and the nginx samples run Linux's IW10; lab-two-points-server's first responses are a
        // 99-byte header and a body Nagle held for the client's ACK (NAGLE_SERVER_HELD), a stop after a segment
        // that is not full, which the window did not make
        List<String> samples = samples();
        assertTrue(samples.contains("lab-two-points-server.pcap.gz"), samples.toString());
        for (String cap : samples) {
            if (!cap.equals("lab-cause-small-iw.pcap.gz")) {
                assertEquals(List.of(), of(causes(cap), Cause.SMALL_INITIAL_WINDOW), cap);
            }
        }
    }
}
