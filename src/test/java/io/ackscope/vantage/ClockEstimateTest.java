package io.ackscope.vantage;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bound's arithmetic on constructed delays (the lab pair in {@link PairAnalysisTest} is the real case): clocks
 * 3 ms apart, segments every 10 ms for 10 s each way, delays of a base plus a repeating queueing pattern.
 */
class ClockEstimateTest {
    static final long MS = 1_000_000L;
    static final long T0 = 1_700_000_000_000_000_000L;

    /** Apparent delays: base + (i % 7) * 0.3 ms of queueing, plus the clock offset (sign by direction). */
    static long[][] series(long baseNanos, long offsetNanos, double driftPpm, boolean aToB) {
        int n = 1000;
        long[] t = new long[n];
        long[] d = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = T0 + i * 10 * MS + (aToB ? 0 : 5 * MS);
            long theta = offsetNanos + Math.round(driftPpm * (t[i] - T0) / 1e6);
            long delay = baseNanos + (i % 7) * 300_000L;
            d[i] = aToB ? delay + theta : delay - theta;
        }
        return new long[][] {t, d};
    }

    static ClockEstimate estimate(long ab, long ba, long offset, double drift) {
        long[][] x = series(ab, offset, drift, true);
        long[][] y = series(ba, offset, drift, false);
        return ClockEstimate.estimate(x[0], x[1], y[0], y[1]);
    }

    @Test
    void symmetricSmallestDelaysGiveTheOffsetExactlyAndHalfTheRoundTripAsError() {
        ClockEstimate c = estimate(4 * MS, 4 * MS, 3 * MS, 0);
        assertEquals(3 * MS, c.offsetNanos());
        assertEquals(4 * MS, c.errorNanos());
        assertEquals(0.0, c.driftPpm(), 1e-9);
        assertTrue(c.windows() >= 3);
    }

    @Test
    void asymmetricDelaysMoveTheMidpointByHalfTheDifferenceAndTheBoundStillHoldsTheTruth() {
        ClockEstimate c = estimate(2 * MS, 6 * MS, 3 * MS, 0);
        assertEquals(3 * MS - 2 * MS, c.offsetNanos(), "midpoint off by (2 - 6) / 2 ms");
        assertEquals(4 * MS, c.errorNanos());
        assertTrue(Math.abs(c.offsetNanos() - 3 * MS) <= c.errorNanos());
        assertFalse(c.splitsDelaysWithin(MS));
    }

    @Test
    void driftIsFittedFromTheWindowsLowerEnvelope() {
        ClockEstimate c = estimate(4 * MS, 4 * MS, -7 * MS, 50);
        assertEquals(50, c.driftPpm(), 1.0);
        assertEquals(-7 * MS + Math.round(50 * (c.refNanos() - T0) / 1e6), c.offsetNanos(), 50_000);
        assertEquals(4 * MS, c.errorNanos(), 50_000);
        assertEquals(c.offsetNanos() + 250_000, c.offsetAt(c.refNanos() + 5_000 * MS), 1_000);
    }

    @Test
    void aShortSpanFitsNoDrift() {
        long[] t = {T0, T0 + MS};
        ClockEstimate c = ClockEstimate.estimate(t, new long[] {5 * MS, 6 * MS}, t, new long[] {1 * MS, 2 * MS});
        assertEquals(0, c.windows());
        assertEquals(0.0, c.driftPpm());
        assertEquals(2 * MS, c.offsetNanos());
        assertEquals(3 * MS, c.errorNanos());
    }

    @Test
    void oneDirectionAloneBoundsNothing() {
        long[] t = {T0};
        assertNull(ClockEstimate.estimate(t, new long[] {MS}, new long[0], new long[0]));
    }
}
