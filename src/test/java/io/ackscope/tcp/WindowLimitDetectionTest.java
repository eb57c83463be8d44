package io.ackscope.tcp;

import static io.ackscope.tcp.CauseDetectionTest.causes;
import static io.ackscope.tcp.CauseDetectionTest.of;
import static io.ackscope.tcp.CauseDetectionTest.setting;
import static io.ackscope.tcp.CauseDetectionTest.truth;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Cause#RECEIVER_WINDOW_LIMITED} on the lab captures of jobs/lab-causes: the window-limited lab's download is
 * one event of the client's window with the time the window-limited transfer takes (body x RTT / window), and no
 * other capture has it, not even the zero-window lab, whose sender also fills the window again and again (tshark:
 * 59 window-full segments) but behind a reader that does not keep up.
 */
class WindowLimitDetectionTest {
    private static final long MS = 1_000_000L;

    @Test
    void aSmallReceiveBufferLimitsTheDownloadToAWindowPerRoundTrip() throws Exception {
        String cap = "lab-cause-window-limited.pcap.gz";
        List<CauseEvent> limited = of(causes(cap), Cause.RECEIVER_WINDOW_LIMITED);
        assertEquals(1, limited.size(), "one connection, one limited sender: " + limited);
        CauseEvent e = limited.get(0);
        assertEquals(Side.ORIGINATOR, e.side(), "the client's window");
        // every counted episode starts at a segment tshark marks window_full; a few are not counted (a window that
        // shrank as the download ended, the spurious retransmissions)
        long full = Long.parseLong(truth().get(cap).get("window_full"));
        assertTrue(e.count() <= full && e.count() >= full * 9 / 10, e.count() + " of " + full);
        // a window per round trip: body / window round trips of 2 x the one-way delay, nearly all of it waiting
        double expected = (double) setting(cap, "body_bytes") / setting(cap, "client_window_bytes")
                * 2 * setting(cap, "one_way_delay_ms") * MS;
        assertTrue(Math.abs(e.timeLostNanos() - expected) < expected * 0.1,
                "time lost " + e.timeLostNanos() / MS + " ms, window-limited transfer " + (long) expected / MS);
        // the first episode (tshark: 36 window full, 37 the client's ACK, 38 the server's next segment) and the
        // last one's resumption
        assertArrayEquals(new long[] {36, 37, 38}, java.util.Arrays.copyOf(e.frames(), 3));
        assertEquals(2032, e.frames()[e.frames().length - 1]);
    }

    @Test
    void noOtherCaptureIsWindowLimited() throws Exception {
        for (Map.Entry<String, Map<String, String>> row : truth().entrySet()) {
            if (!row.getKey().equals("lab-cause-window-limited.pcap.gz")) {
                assertTrue(of(causes(row.getKey()), Cause.RECEIVER_WINDOW_LIMITED).isEmpty(), row.getKey());
            }
        }
        for (String healthy : List.of("lab-nginx-nodelay-on.pcap.gz", "nginx-nodelay-off.pcap.gz")) {
            assertTrue(of(causes(healthy), Cause.RECEIVER_WINDOW_LIMITED).isEmpty(), healthy);
        }
    }
}
