package io.ackscope.spark;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The engine's partition count from the size of the captures: one per 64 MB, 2 to 8 per core. */
class EnginePartitionsTest {
    private static final long MB = 1L << 20;

    @Test
    void smallCapturesGetTwoPerCore() {
        assertEquals(4, Analyze.enginePartitions(0, 2));
        assertEquals(4, Analyze.enginePartitions(147 * 1024, 2));   // the bundled sample
        assertEquals(4, Analyze.enginePartitions(256 * MB, 2));     // exactly four tasks' worth
        assertEquals(2, Analyze.enginePartitions(5 * MB, 0));       // no core count: one
    }

    @Test
    void oneTaskPer64MbBetweenTheBounds() {
        assertEquals(5, Analyze.enginePartitions(256 * MB + 1, 2));
        assertEquals(10, Analyze.enginePartitions(640 * MB, 2));
        assertEquals(24, Analyze.enginePartitions(1_577_642_663L, 4)); // the many-connection benchmark capture
    }

    @Test
    void largeCapturesGetEightPerCore() {
        assertEquals(16, Analyze.enginePartitions(1_577_642_663L, 2));
        assertEquals(16, Analyze.enginePartitions(1L << 40, 2));
        assertEquals(256, Analyze.enginePartitions(1L << 40, 32));
    }
}
