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
