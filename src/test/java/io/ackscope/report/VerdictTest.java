package io.ackscope.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerdictTest {

    /** An endpoint whose later requests each waited for the client's 40 ms delayed-ACK timer. */
    private static EndpointStats timerStalled(String server, int requests) {
        EndpointStats e = new EndpointStats(server);
        e.connections = 1;
        for (int i = 0; i < requests; i++) {
            e.exchange(i, 300, 0, i == 0 ? 0 : 43_000, i == 0 ? 500 : 43_600);
            if (i > 0) {
                e.stall(1, true, 43_000, 43_100, 100, "held");
            }
        }
        return e;
    }

    /** An endpoint with fast responses and a few waits ended by an ACK 5-9 ms late (a CPU-starved client). */
    private static EndpointStats lateAckOnly(String server) {
        EndpointStats e = new EndpointStats(server);
        e.connections = 1;
        for (int i = 0; i < 1000; i++) {
            boolean late = i % 250 == 1;
            e.exchange(i, 100, 0, late ? 8_000 : 0, late ? 8_200 : 170);
            if (late) {
                e.stall(1, true, 8_000, 8_700, 50, "late");
            }
        }
        return e;
    }

    @Test
    void aTimerStallOnFewRequestsIsCalledRare() {
        EndpointStats e = new EndpointStats("127.0.0.1:8090");
        e.connections = 1;
        for (int i = 0; i < 1000; i++) {
            boolean stalled = i == 500;
            e.exchange(i, 100, 0, stalled ? 43_000 : 0, stalled ? 43_300 : 200);
            if (stalled) {
                e.stall(1, true, 43_000, 43_100, 100, "held");
            }
        }
        ReportData.Verdict v = Findings.verdict(List.of(e), 1000, 1);
        assertTrue(v.stallFound(), v.headline());
        assertEquals("Rare stall: 1 of 999 responses from 127.0.0.1:8090 waited ~43.1 ms for the client's delayed ACK",
                v.headline());
        // the seed case's share (every later request) keeps the plain headline
        ReportData.Verdict seed = Findings.verdict(List.of(timerStalled("127.0.0.1:8080", 50)), 50, 1);
        assertTrue(seed.headline().startsWith("Stall found: responses from 127.0.0.1:8080 wait ~"), seed.headline());
    }

    @Test
    void lateAcksOutsideTheTimerBandsAreNotTheStall() {
        ReportData.Verdict v = Findings.verdict(List.of(lateAckOnly("127.0.0.1:8081")), 1000, 1);
        assertFalse(v.stallFound(), v.headline());
        assertTrue(v.summary().contains("4 shorter waits"), v.summary());
    }

    @Test
    void otherEndpointsAreCountedOnlyWhenTheirStallsMatchATimer() {
        ReportData.Verdict v = Findings.verdict(List.of(timerStalled("127.0.0.1:8080", 50),
                lateAckOnly("127.0.0.1:8081"), timerStalled("127.0.0.1:8082", 10)), 1060, 3);
        assertTrue(v.stallFound(), v.headline());
        assertTrue(v.headline().contains("127.0.0.1:8080"), v.headline());
        assertTrue(v.summary().contains("1 other server endpoint shows the same kind of stall"), v.summary());
    }
}
