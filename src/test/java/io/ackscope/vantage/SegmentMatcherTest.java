package io.ackscope.vantage;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Matching without the fields that tell copies apart, on the lab pair ({@link PairAnalysisTest}): its 17 dropped
 * frames were each retransmitted, so each dropped segment has two copies at the sending point and one at the other.
 */
class SegmentMatcherTest {

    @Test
    void withoutTimestampsTheIpIdTellsTheRetransmissionFromTheOriginal() throws Exception {
        PairAnalysisTest.read();
        VantagePair pair = PairAnalysis.analyze(PointSegmentsCopies.withoutTsVal(PairAnalysisTest.client, false),
                PointSegmentsCopies.withoutTsVal(PairAnalysisTest.server, false));
        assertEquals(PairAnalysisTest.DROPPED_CLIENT_TO_SERVER, pair.summary().lostAtoB());
        assertEquals(PairAnalysisTest.DROPPED_SERVER_TO_CLIENT, pair.summary().lostBtoA());
        // each retransmission was paired with its own copy: no delay of a retransmission timeout (200 ms or more)
        long p99 = Math.max(pair.summary().oneWayAtoBP99Us(), pair.summary().oneWayBtoAP99Us());
        assertTrue(p99 < 100_000, "p99 " + p99);
        assertTrue(pair.delays().stream().allMatch(d -> d.delayNanos() < 150_000_000L));
    }

    @Test
    void withoutTimestampsOrIpIdsTheLastCopiesPairSoLossIsStillPerDirectionAndNoSampleHoldsATimeout()
            throws Exception {
        PairAnalysisTest.read();
        VantagePair pair = PairAnalysis.analyze(PointSegmentsCopies.withoutTsVal(PairAnalysisTest.client, true),
                PointSegmentsCopies.withoutTsVal(PairAnalysisTest.server, true));
        assertEquals(4, pair.connections().size());
        assertEquals(PairAnalysisTest.DROPPED_CLIENT_TO_SERVER, pair.summary().lostAtoB());
        assertEquals(PairAnalysisTest.DROPPED_SERVER_TO_CLIENT, pair.summary().lostBtoA());
        // the original (lost) is left out and the retransmission (arrived) paired: had the copies paired in order
        // of occurrence, the 17 samples of the dropped segments would carry a retransmission timeout (200 ms +)
        assertTrue(pair.delays().stream().allMatch(d -> d.delayNanos() < 150_000_000L));
    }
}
