package io.ackscope.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.capture.CaptureReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sender that waits for a delayed ACK is Nagle's only when Nagle could have held its data: not when its data
 * filled the receiver's window (it waited for the window) and not when what it sent next was a full-sized segment
 * (Nagle holds only a partial one; it waited for its congestion window). So on lab-cause-zero-window the 21
 * waits for the slow reader's window are no NAGLE_SERVER_HELD stall (counted as one they made 21.8% of its
 * response time).
 */
class StallAttributionTest {

    /** The stalls and the client's delayed ACKs (40 ms band or other) of a sample capture. */
    private static List<Stall> stalls(String capture, long[] delayedClientAcks) throws Exception {
        List<Stall> out = new ArrayList<>();
        TcpEngine engine = new TcpEngine(new AnalysisSink() {
            @Override
            public void onStall(Stall s) {
                out.add(s);
            }

            @Override
            public void onAckDelay(AckDelay d) {
                if (d.ackingSide() == Side.ORIGINATOR && d.ackClass().delayed()) {
                    delayedClientAcks[0]++;
                }
            }
        });
        try (CaptureReader r = CaptureReader.open(Path.of("sample-pcaps", capture))) {
            new CaptureFeeder().feed(r, 0, engine);
        }
        engine.finish();
        return out;
    }

    @Test
    void aSlowReadersFullWindowIsNotANagleStall() throws Exception {
        long[] delayed = {0};
        List<Stall> stalls = stalls("lab-cause-zero-window.pcap.gz", delayed);
        // the client's delayed ACKs are there (tshark: frames 45, 51, 57 ... ACK 1448 bytes ~52 ms late) ...
        assertTrue(delayed[0] >= 21, "delayed client ACKs: " + delayed[0]);
        // ... but each covered a segment that filled its 2,896-byte window (tshark: "window specified by the
        // receiver is now completely full" on frames 44, 50, 56 ...), and the server resumed with a full 1,448-byte
        // segment: the window held the server back, not Nagle
        assertEquals(List.of(), stalls);
    }

    @Test
    void aBulkSenderLimitedByItsCongestionWindowIsNotANagleStall() throws Exception {
        // the 5 MB download after its losses sends one full segment per delayed ACK (frames 4261 -> 4262 -> 4263)
        List<Stall> stalls = stalls("lab-cause-queueing.pcap.gz", new long[1]);
        assertEquals(List.of(), stalls);
    }

    @Test
    void aRequestWrittenInTwoCallsWaitsForTheServersDelayedAckOfItsHeaders() throws Exception {
        String cap = "lab-cause-client-nagle.pcap.gz";
        List<Stall> stalls = stalls(cap, new long[1]);
        // every request but the first (the server acknowledges at once while in quick-ACK mode after the handshake)
        assertEquals(CauseDetectionTest.setting(cap, "requests") - 1, stalls.size());
        long rtt = 2 * CauseDetectionTest.setting(cap, "one_way_delay_ms") * 1_000_000L;
        long delack = CauseDetectionTest.setting(cap, "delayed_ack_ms") * 1_000_000L;
        for (Stall s : stalls) {
            assertEquals(Side.ORIGINATOR, s.holdingSide(), "the client held its body");
            // captured at the client: the headers' round trip plus the server's delayed ACK, then the body at once
            // plus the lab wire's jitter: the user-space forwarder adds up to ~40 ms on a loaded machine
            assertTrue(s.durationNanos() >= rtt + delack && s.durationNanos() < rtt + delack + 45_000_000L,
                    "stall " + s);
            assertTrue(s.resumeGapNanos() < 1_000_000L, "the body left as the ACK came: " + s);
        }
        // tshark: POST headers in frame 10, the server's ACK in 11 (57 ms later), the 100-byte body in 12 (42 us later)
        Stall first = stalls.get(0);
        assertEquals(List.of(10L, 11L, 12L), List.of(first.heldFrame(), first.ackFrame(), first.resumeFrame()));
    }

    @Test
    void nagleStallsStayWhereNagleHeldTheResponses() throws Exception {
        long[] delayed = {0};
        List<Stall> stalls = stalls("lab-nginx-nodelay-off.pcap.gz", delayed);
        assertEquals(266, stalls.size());
        assertTrue(stalls.stream().allMatch(s -> s.holdingSide() == Side.RESPONDER));
    }
}
