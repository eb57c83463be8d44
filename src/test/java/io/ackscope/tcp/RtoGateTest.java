package io.ackscope.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.capture.CaptureReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A retransmission after a short wait (4.2 ms) is no RETRANSMISSION_TIMEOUT latency event. On the loss lab (fast retransmits, tail-loss probes ~38 ms after the tail, and real RTOs) only the
 * retransmissions the sender's timer sent after the minimum RTO (200 ms) are RTO latency events.
 */
class RtoGateTest {

    @Test
    void onlyWaitsOfTheMinimumRtoOrMoreAreRetransmissionTimeouts() throws Exception {
        List<LatencyEvent> latency = new ArrayList<>();
        List<CauseEvent> causes = new ArrayList<>();
        TcpEngine engine = new TcpEngine(new AnalysisSink() {
            @Override
            public void onLatencyEvent(LatencyEvent e) {
                latency.add(e);
            }

            @Override
            public void onCause(CauseEvent e) {
                causes.add(e);
            }
        });
        try (CaptureReader reader = CaptureReader.open(Path.of("sample-pcaps", "lab-cause-loss.pcap.gz"))) {
            new CaptureFeeder().feed(reader, 0, engine);
        }
        engine.finish();

        List<LatencyEvent> rtos = latency.stream()
                .filter(e -> e.kind() == LatencyEvent.Kind.RETRANSMISSION_TIMEOUT).toList();
        Set<Long> rtoFrames = new HashSet<>();
        for (LatencyEvent e : rtos) {
            assertTrue(e.durationNanos() >= CauseDetector.MIN_RTO_NANOS, "an RTO shorter than 200 ms: " + e);
            rtoFrames.add(e.endFrame());
        }
        Set<Long> fastFrames = new HashSet<>();
        for (CauseEvent c : causes) {
            if (c.cause() == Cause.FAST_RETRANSMIT) {
                for (long f : c.frames()) {
                    fastFrames.add(f);
                }
            }
        }
        assertFalse(fastFrames.isEmpty(), "the lab has fast retransmits");
        fastFrames.retainAll(rtoFrames);
        assertTrue(fastFrames.isEmpty(), "fast-retransmit frames raised as RTOs: " + fastFrames);
        assertEquals(RTO_EVENTS, rtos.size(), "RTO latency events: " + rtos);
    }

    /**
     * The lab's timer firings of 200 ms or more: 3 lost tails on each of the 2 connections, each resent after
     * ~230 ms, ~450 ms and ~900 ms (the first is the probe docs/causes.md reclassifies; the latency event cannot
     * wait for that), and a fourth per connection cut short by the end of the load after one firing: 3 x 3 x 2 + 2.
     */
    private static final int RTO_EVENTS = 20;
}
