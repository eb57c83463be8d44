package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TSval ring of a {@link Flow} starts small and grows; it must answer exactly like a fixed ring of
 * {@link Flow#TSVAL_RING} entries (a bounded queue that drops its oldest entry), whatever the mix of sends and echoes.
 */
class TsvalRingTest {

    /** The fixed-size ring, as a deque of {tsval, time}. */
    private static long takeEchoed(ArrayDeque<long[]> ring, long tsecr) {
        int k = 0;
        for (Iterator<long[]> it = ring.iterator(); it.hasNext(); k++) {
            long[] e = it.next();
            if (e[0] == tsecr) {
                for (int i = 0; i <= k; i++) {
                    ring.pollFirst();
                }
                return e[1];
            }
        }
        return -1;
    }

    @Test
    void growingRingAnswersLikeTheFixedOne() {
        SplittableRandom rnd = new SplittableRandom(20261202L);
        long found = 0, overflows = 0;
        for (int run = 0; run < 200; run++) {
            Flow f = new Flow();
            ArrayDeque<long[]> ref = new ArrayDeque<>();
            long tsval = rnd.nextLong(1 << 20);
            long lastRef = -1;
            int burst = 1 + rnd.nextInt(150);   // up to 150 TSvals in flight: past the ring's 64
            for (int step = 0; step < 2000; step++) {
                if (rnd.nextInt(burst + 1) != 0) {
                    tsval += rnd.nextInt(3);    // repeats are ignored by both
                    long now = step * 1000L;
                    f.rememberTsval(tsval, now);
                    if (tsval != lastRef) {
                        lastRef = tsval;
                        if (ref.size() == Flow.TSVAL_RING) {
                            ref.pollFirst();
                            overflows++;
                        }
                        ref.addLast(new long[]{tsval, now});
                    }
                } else {
                    long echo = tsval - rnd.nextInt(100);
                    long want = takeEchoed(ref, echo);
                    assertEquals(want, f.takeEchoed(echo), "run " + run + " step " + step);
                    found += want >= 0 ? 1 : 0;
                }
            }
        }
        // both paths were exercised: echoes that hit, and a ring that filled and dropped its oldest entries
        assertTrue(found > 2_000, "echoes found: " + found);
        assertTrue(overflows > 1_000, "entries dropped from a full ring: " + overflows);
    }
}
