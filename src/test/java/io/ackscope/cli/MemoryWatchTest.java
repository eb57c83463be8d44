package io.ackscope.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The watch fails a run only when the collectors took the window and the old generation stayed full. */
class MemoryWatchTest {

    /** Feeds samples every 500 ms from 0 to {@code seconds}, the collectors taking {@code share} of each. */
    private static String feed(MemoryWatch w, double seconds, double share, double full) {
        String why = null;
        for (long t = 0; t <= seconds * 1000 && why == null; t += 500) {
            why = w.sample(t, Math.round(t * share), full);
        }
        return why;
    }

    @Test
    void aFullHeapWhoseCollectorsTakeTheWindowFailsOnceAWindowIsSeen() {
        MemoryWatch w = new MemoryWatch();
        for (long t = 0; t < MemoryWatch.WINDOW_MILLIS; t += 500) {
            assertNull(w.sample(t, Math.round(t * 0.97), 0.99), "before a whole window at " + t);
        }
        String why = w.sample(MemoryWatch.WINDOW_MILLIS, Math.round(MemoryWatch.WINDOW_MILLIS * 0.97), 0.99);
        assertEquals("the collector ran 97% of the last 10 s and the heap stayed 99% full", why);
    }

    @Test
    void busyCollectorsWithRoomInTheOldGenerationOrAFullHeapWithTimeToWorkGoOn() {
        assertNull(feed(new MemoryWatch(), 60, 0.97, 0.5));
        assertNull(feed(new MemoryWatch(), 60, 0.76, 0.99));
    }

    @Test
    void aHealthyStartThenThrashingFailsWithinTwoWindows() {
        MemoryWatch w = new MemoryWatch();
        long gc = 0;
        String why = null;
        long t;
        for (t = 0; t <= 120_000 && why == null; t += 500) {
            gc += t < 30_000 ? 250 : 490;
            why = w.sample(t, gc, t < 30_000 ? 0.6 : 0.97);
        }
        assertNotNull(why);
        assertEquals(true, t <= 30_000 + 2 * MemoryWatch.WINDOW_MILLIS, "failed at " + t);
    }
}
