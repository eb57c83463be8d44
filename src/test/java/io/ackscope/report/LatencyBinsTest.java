package io.ackscope.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyBinsTest {

    @Test
    void edgesRiseStrictlyAndEveryValueFallsInItsBin() {
        for (int k = 1; k < LatencyBins.count(); k++) {
            assertTrue(LatencyBins.EDGES[k] > LatencyBins.EDGES[k - 1], "edge " + k);
        }
        for (long v : new long[]{0, 1, 9, 10, 12, 13, 999, 1000, 40_000, 47_999, 199_999, 86_400_000_000L}) {
            int b = LatencyBins.bin(v);
            assertTrue(LatencyBins.EDGES[b] <= v && v < LatencyBins.upper(b), v + " in bin " + b);
        }
        assertEquals(LatencyBins.count() - 1, LatencyBins.bin(Long.MAX_VALUE));
        assertEquals(0, LatencyBins.bin(-5));
    }

    @Test
    void theLinuxDelayedAckBandFallsInOneBin() {
        assertEquals(LatencyBins.bin(40_000), LatencyBins.bin(48_000));
        assertEquals(LatencyBins.bin(200_000), LatencyBins.bin(230_000));
    }
}
