package io.ackscope.tcp;

import io.ackscope.capture.CaptureReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code diagnose}'s findings name the fixes of the one catalogue, on the seed capture. */
class CauseTest {

    private static List<EndpointDiagnosis> diagnose(Path capture) throws Exception {
        Diagnosis d = new Diagnosis();
        TcpEngine engine = new TcpEngine(d);
        try (CaptureReader r = CaptureReader.open(capture)) {
            new CaptureFeeder().feed(r, 0, engine);
        }
        engine.finish();
        return d.endpoints();
    }

    @Test
    void theSeedCasesFindingEndsWithTheServerHeldFix() throws Exception {
        List<EndpointDiagnosis> eps = diagnose(SeedCaseTest.LATENCY);
        assertEquals(1, eps.size());
        String finding = eps.get(0).findings().get(0);
        assertTrue(finding.startsWith("Nagle x delayed ACK: "), finding);
        assertTrue(finding.endsWith(". Fix: TCP_NODELAY on the server (nginx: tcp_nodelay on), or TCP_QUICKACK on the "
                + "client, or send the response in one write (nginx: tcp_nopush on; TCP_CORK)."), finding);
        assertTrue(finding.endsWith(Cause.NAGLE_SERVER_HELD.fixInOneLine), finding);
    }

    /**
     * Occurrences that share a frame (each queueing episode names the connection's baseline sample) list it once in
     * the evidence, costliest occurrence first, and the evidence stays at most {@link CauseEvent#MAX_FRAMES}.
     */
    @Test
    void evidenceFramesSharedByOccurrencesAreListedOnce() {
        ConnectionId id = new ConnectionId(0, 0, 1, 0, "10.0.0.1", 40000, "10.0.0.2", 80);
        ConnectionCauses c = new ConnectionCauses();
        c.add(new CauseEvent(id, Cause.QUEUEING_DELAY, Side.RESPONDER, 0, 10, 5_000_000, 1, new long[] {4, 932, 1201}));
        c.add(new CauseEvent(id, Cause.QUEUEING_DELAY, Side.RESPONDER, 20, 30, 9_000_000, 1, new long[] {4, 1202, 1471}));
        c.add(new CauseEvent(id, Cause.QUEUEING_DELAY, Side.RESPONDER, 40, 50, 1_000_000, 1, new long[] {4, 254, 462}));
        long[] frames = c.causes().get(Cause.QUEUEING_DELAY).frames();
        assertEquals(List.of(4L, 1202L, 1471L, 932L, 1201L, 254L, 462L),
                java.util.Arrays.stream(frames).boxed().toList());
    }

    @Test
    void everyCauseHasItsStepsAndTheOnesDiagnoseWordsHaveALine() {
        for (Cause c : Cause.values()) {
            assertFalse(c.fixes.isEmpty(), c.name());
        }
        assertEquals(3, Cause.NAGLE_SERVER_HELD.fixes.size());
        assertTrue(Cause.NAGLE_SERVER_HELD.fixes.get(0).startsWith("Turn on TCP_NODELAY on the server's sockets"));
        assertNotNull(Cause.NAGLE_CLIENT_HELD.fixInOneLine);
        assertNotNull(Cause.RETRANSMISSION_TIMEOUT.fixInOneLine);
    }
}
