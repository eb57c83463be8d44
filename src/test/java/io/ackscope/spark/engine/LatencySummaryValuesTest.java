package io.ackscope.spark.engine;

import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tcp.ValueCounts;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The exact value multisets behind latency_summary: compaction and merging lose and invent nothing. */
class LatencySummaryValuesTest {

    @Test
    void valuesSpreadOverBuffersAndMergesGiveTheSortedListsNearestRanks() {
        Random rnd = new Random(42);
        ValueCounts a = new ValueCounts();
        ValueCounts b = new ValueCounts();
        List<Long> all = new ArrayList<>();
        long[] hist = new long[LatencySummaryTable.BUCKETS];
        for (int i = 0; i < 25_000; i++) {   // many repeats, and the hash tables grow several times
            long v = rnd.nextInt(5) == 0 ? 44_000 + rnd.nextInt(8) : (long) Math.abs(rnd.nextGaussian() * 300);
            (i % 3 == 0 ? a : b).add(v);
            all.add(v);
            hist[LatencySummaryTable.bucket(v)]++;
        }
        ValueCounts c = new ValueCounts();
        c.add(44_003);
        for (int i = 0; i < 40; i++) {
            c.add(7);
        }
        all.add(44_003L);
        hist[LatencySummaryTable.bucket(44_003)]++;
        for (int i = 0; i < 40; i++) {
            all.add(7L);
        }
        hist[LatencySummaryTable.bucket(7)] += 40;
        c.add(Long.MIN_VALUE);   // the value the hash table uses for a free slot is counted too
        all.add(Long.MIN_VALUE);
        hist[LatencySummaryTable.bucket(Long.MIN_VALUE)]++;
        b.addAll(c);
        b.compact();
        b.add(7);   // after a compaction: table and sorted arrays both hold values
        all.add(7L);
        hist[LatencySummaryTable.bucket(7)]++;
        a.addAll(b);
        all.sort(null);
        assertEquals(all.size(), a.count());
        for (double p : new double[]{0.001, 0.5, 0.9, 0.99, 1.0}) {
            int rank = (int) Math.max(1, Math.ceil(p * all.size()));
            assertEquals(all.get(rank - 1), a.percentile(p), "p" + p);
        }
        assertEquals(all.get(all.size() - 1), a.max());
        assertArrayEquals(hist, EndpointRows.histogram(a));
    }

    @Test
    void aSingleValueIsEveryPercentile() {
        ValueCounts v = new ValueCounts();
        v.add(40_123);
        assertEquals(40_123, v.percentile(0.5));
        assertEquals(40_123, v.percentile(0.99));
        assertEquals(1, v.count());
    }
}
