package io.ackscope.spark.engine;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link StreamNumbers.Ranks}: every key's index in the sorted keys, and a clear error for a key not among them. */
class StreamNumbersTest {
    @Test
    void everyKeyGetsItsIndexInTheSortedKeys() {
        // first-appearance keys of three files, frames clustered as a capture's are
        TreeSet<Long> set = new TreeSet<>();
        Random r = new Random(7);
        while (set.size() < 50_000) {
            set.add(EngineTask.key(r.nextInt(3), r.nextInt(2_000_000)));
        }
        long[] sorted = set.stream().mapToLong(Long::longValue).toArray();
        StreamNumbers.Ranks ranks = new StreamNumbers.Ranks(sorted);
        for (int i = 0; i < sorted.length; i++) {
            assertEquals(i, ranks.rank(sorted[i]));
        }
        long missing = EngineTask.key(1, 2_000_001);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ranks.rank(missing));
        assertEquals("a row's connection key " + missing + " is not among the ranked keys", e.getMessage());
    }

    @Test
    void keysBetweenAndBeyondTheBlocksAreNotAmongThem() {
        long[] sorted = new long[3 * StreamNumbers.Ranks.STEP + 5];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = 10L * i + 10;
        }
        StreamNumbers.Ranks ranks = new StreamNumbers.Ranks(sorted);
        for (int i = 0; i < sorted.length; i++) {
            assertEquals(i, ranks.rank(sorted[i]));
        }
        for (long missing : new long[]{0, 5, 10L * StreamNumbers.Ranks.STEP + 5, 10L * sorted.length + 10}) {
            assertThrows(IllegalStateException.class, () -> ranks.rank(missing), "key " + missing);
        }
    }

    @Test
    void oneKeyAndNoneAreRankedToo() {
        assertEquals(0, new StreamNumbers.Ranks(new long[]{EngineTask.key(0, 1)}).rank(EngineTask.key(0, 1)));
        assertThrows(IllegalStateException.class, () -> new StreamNumbers.Ranks(new long[0]).rank(0));
    }
}
