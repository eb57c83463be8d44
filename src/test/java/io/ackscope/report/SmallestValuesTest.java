package io.ackscope.report;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link SmallestValues} gives the order statistics a full sort gives, through its cuts and with ties. */
class SmallestValuesTest {
    @Test
    void ranksBelowTheCapacityEqualAFullSort() {
        SplittableRandom r = new SplittableRandom(15);
        for (int round = 0; round < 20; round++) {
            int n = 1 + r.nextInt(50_000);
            int capacity = 1 + r.nextInt(600);
            long spread = round % 2 == 0 ? 100 : Long.MAX_VALUE / 4;    // many ties, or almost none
            long[] all = new long[n];
            SmallestValues s = new SmallestValues(capacity);
            for (int i = 0; i < n; i++) {
                all[i] = r.nextLong(-spread, spread);
                s.add(all[i]);
            }
            Arrays.sort(all);
            for (int rank = 0; rank < Math.min(n, capacity); rank++) {
                assertEquals(all[rank], s.get(rank), "round " + round + " rank " + rank);
            }
        }
    }

    @Test
    void descendingInputKeepsTheLastValues() {
        SmallestValues s = new SmallestValues(3);
        for (long v = 10_000; v > 0; v--) {
            s.add(v);
        }
        assertEquals(1, s.get(0));
        assertEquals(3, s.get(2));
        assertThrows(IndexOutOfBoundsException.class, () -> s.get(3));
    }
}
