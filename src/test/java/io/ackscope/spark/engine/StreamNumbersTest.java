package io.ackscope.spark.engine;

import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.FilePlan;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.LongUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link StreamNumbers.Ranks}: every key's index in the sorted keys, and a clear error for a key not among them;
 * {@link StreamNumbers#streams}: each key's stream number, whatever keys came before it.
 */
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

    @Test
    void theMappingGivesEachKeyItsOwnNumberWhetherOrNotItRepeatsTheKeyBefore() {
        // one unnamed source of two files: a connection's stream number is its rank among all first-frame keys
        List<CaptureFile> files = List.of(new CaptureFile(0, "a.pcap", 1, new String[0]),
                new CaptureFile(1, "b.pcap", 1, new String[0]));
        ArchiveNumbering numbering = ArchiveNumbering.of(new ReadPlan(files, List.of(new FilePlan(1, null),
                new FilePlan(1, null)), List.of()), List.of(new SplitStats(0, 0), new SplitStats(1, 0)),
                new long[2][]);
        long[] keys = new long[200];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = EngineTask.key(i < 120 ? 0 : 1, 3L * i + 1);
        }
        LongUnaryOperator streams = StreamNumbers.streams(keys, numbering.ranked(keys));
        // rows as a table holds them: runs of one connection's key, keys that come back, keys of both files
        int[] rows = {5, 5, 5, 7, 5, 0, 0, 199, 120, 119, 119, 5, 199, 199, 0};
        for (int i = 0; i < rows.length; i++) {
            assertEquals(rows[i], streams.applyAsLong(keys[rows[i]]), "row " + i);
        }
        long missing = EngineTask.key(0, 2);
        assertThrows(IllegalStateException.class, () -> streams.applyAsLong(missing));
        assertEquals(199, streams.applyAsLong(keys[199]), "after a key that is not among them");
    }

    @Test
    void keysBeyondTheRecentOnesAreMappedAgainWhenTheyComeBack() {
        List<CaptureFile> files = List.of(new CaptureFile(0, "a.pcap", 1, new String[0]));
        ArchiveNumbering numbering = ArchiveNumbering.of(new ReadPlan(files, List.of(new FilePlan(1, null)),
                List.of()), List.of(new SplitStats(0, 0)), new long[1][]);
        long[] keys = new long[3 * StreamNumbers.RECENT];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = EngineTask.key(0, 2L * i);
        }
        LongUnaryOperator streams = StreamNumbers.streams(keys, numbering.ranked(keys));
        // every key once in order, then random ones: most slots hold another key by then, some the same one
        Random r = new Random(11);
        for (int k = 0; k < 4 * keys.length; k++) {
            int i = k < keys.length ? k : r.nextInt(keys.length);
            assertEquals(i, streams.applyAsLong(keys[i]), "lookup " + k + ", key " + i);
        }
    }
}
