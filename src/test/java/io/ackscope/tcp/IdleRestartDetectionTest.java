package io.ackscope.tcp;

import static io.ackscope.tcp.CauseDetectionTest.causes;
import static io.ackscope.tcp.CauseDetectionTest.of;
import static io.ackscope.tcp.CauseDetectionTest.samples;
import static io.ackscope.tcp.CauseDetectionTest.setting;
import static io.ackscope.tcp.CauseDetectionTest.truth;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Cause#SLOW_START_AFTER_IDLE} on the lab captures of jobs/lab-causes: on the idle-restart lab each response
 * after an idle period leaves in the flights slow start from the initial window needs, a round trip apart; with the
 * window kept over idle periods (the idle-kept lab, same traffic), with a body Nagle held after its header (the
 * idle-nagle lab) and on every other capture there is none.
 */
class IdleRestartDetectionTest {
    private static final long MS = 1_000_000L;

    @Test
    void eachResponseAfterIdleWaitsTheRoundTripsOfSlowStartFromTheInitialWindow() throws Exception {
        String cap = "lab-cause-idle-restart.pcap.gz";
        List<CauseEvent> events = causes(cap);
        List<CauseEvent> restarts = of(events, Cause.SLOW_START_AFTER_IDLE);
        // every response but the first (the connection's own slow start, not counted) follows a 1.5 s idle period
        assertEquals(setting(cap, "requests") - 1, restarts.size(), restarts.toString());
        // 5 x 3 stops, 616.2 ms (docs/causes.md): each first flight is 10 full segments, which the window ended
        assertEquals(15, restarts.stream().mapToLong(CauseEvent::count).sum());
        assertEquals(616.2, restarts.stream().mapToLong(CauseEvent::timeLostNanos).sum() / (double) MS, 0.05);
        // slow start from IW doubles each round trip: a body of n initial windows needs log2(n + 1) flights
        double windows = (double) setting(cap, "body_bytes")
                / (setting(cap, "initial_window_segments") * setting(cap, "mss"));
        long flights = (long) Math.ceil(Math.log(windows + 1) / Math.log(2));
        assertEquals(4, flights, "200,000 bytes from a 14,480-byte window: 10, 20, 40 and 69 segments (tshark)");
        long rtt = 2 * setting(cap, "one_way_delay_ms") * MS;
        for (CauseEvent e : restarts) {
            assertEquals(Side.RESPONDER, e.side());
            assertEquals(flights - 1, e.count(), "round trips beyond the first: " + e);
            // each stop is the rest of a round trip: the path's 40 ms plus the forwarder's scheduling, under 2 ms
            double perStop = (double) e.timeLostNanos() / e.count();
            assertTrue(perStop > 0.95 * rtt && perStop < 1.1 * rtt, "per stop " + perStop / MS + " ms: " + e);
            assertEquals(3 * e.count(), e.frames().length, "last segment, ACK, resumption per stop");
        }
        // the first restart (tshark): the second response's first flight ends in frame 252, the client's ACK is
        // frame 253, and the next flight leaves 84 us later in frame 254
        assertArrayEquals(new long[] {252, 253, 254}, Arrays.copyOf(restarts.get(0).frames(), 3));
        assertEquals(Long.parseLong(truth().get(cap).get("retransmissions")), 0);
        assertEquals(Long.parseLong(truth().get(cap).get("window_full")), 0);
    }

    @Test
    void aBodyNagleHeldAfterIdleIsNotAWindowStop() throws Exception {
        String cap = "lab-cause-idle-nagle.pcap.gz";
        // the idle-restart lab's path, idle periods and client, but each response is a 99-byte header and a
        // 1,024-byte body that Nagle holds until the header is acknowledged: after each idle period the body
        // leaves 40.7-41.0 ms after the header, 0.04 ms after the client's ACK (tshark). An ACK-clocked stop within
        // a round trip, as the rule asks, but after a segment that is not full: the window did not make it
        long full = setting(cap, "mss");
        assertTrue(setting(cap, "header_bytes") < full && setting(cap, "body_bytes") < full);
        List<CauseEvent> events = causes(cap);
        assertEquals(List.of(), of(events, Cause.SLOW_START_AFTER_IDLE));
        assertEquals(List.of(), of(events, Cause.SMALL_INITIAL_WINDOW));
        assertEquals(0, Long.parseLong(truth().get(cap).get("retransmissions")));
    }

    @Test
    void noResponseIsHeldWhereTheWindowSurvivesIdleOrNothingIdles() throws Exception {
        // every other lab and the nginx samples; in lab-two-points-server 13 responses follow 200 ms or more of the
        // server's silence, and none of them has a stop the ACK clock ended within a round trip
        for (String cap : samples()) {
            if (!cap.equals("lab-cause-idle-restart.pcap.gz")) {
                assertEquals(List.of(), of(causes(cap), Cause.SLOW_START_AFTER_IDLE), cap);
            }
        }
    }
}
