package io.ackscope.spark.engine;

import io.ackscope.spark.commit.TableFiles;
import io.ackscope.spark.commit.TaskOutput;
import io.ackscope.tables.EngineTables;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * After a single engine pass ({@link EngineTask#write} without ranks): the {@code stream} column of every file the
 * pass wrote holds first-appearance keys; this maps them to stream numbers, each file by a task of its own, once
 * the driver has ranked all partitions' keys ({@link ArchiveNumbering#ranked}). A file keeps its rows, their order,
 * its row groups and every other column's bytes ({@link TableFiles#mapLongColumn}).
 */
public final class StreamNumbers {
    private StreamNumbers() {
    }

    /** The column that holds the keys, in every table the engine's tasks write ({@link EngineTables#ALL}). */
    static final String STREAM = "stream";

    /** Tasks per core of the job (files differ in size by tens of times). */
    private static final int TASKS_PER_CORE = 4;

    /**
     * Maps the keys of {@code files} (written with keys by tasks of the pass) to their stream numbers.
     *
     * @param ranks  every connection's key, sorted (a connection's rank is its index)
     * @param ranked the run's numbering after {@link ArchiveNumbering#ranked} with those keys
     */
    public static void apply(JavaSparkContext jsc, List<TaskOutput.Written> files, Broadcast<long[]> ranks,
                             Broadcast<ArchiveNumbering> ranked, Broadcast<SerializableConfiguration> conf) {
        if (files.isEmpty()) {
            return;
        }
        List<String> paths = files.stream().map(TaskOutput.Written::path).toList();
        int slices = Math.min(paths.size(), TASKS_PER_CORE * Math.max(1, jsc.defaultParallelism()));
        jsc.parallelize(paths, slices).foreachPartition(it -> {
            LongUnaryOperator streams = streams(ranks.value(), ranked.value());
            while (it.hasNext()) {
                TableFiles.mapLongColumn(new Path(it.next()), STREAM, streams, conf.value().value());
            }
        });
    }

    /**
     * Key to stream number: its rank ({@link Ranks}) numbered in its source ({@link ArchiveNumbering#stream}). The
     * operator keeps the numbers of the keys it mapped last, direct-mapped by key ({@link #RECENT} of them): a
     * table's rows come in capture order, so a row's connection is mostly one of the few that sent frames just
     * before (the mix capture's 150,720-connection output: 63 % of {@code rtt_samples} rows and 36 % of
     * {@code ack_delays} rows repeat the row before's key), and those need no search. One operator per thread.
     */
    static LongUnaryOperator streams(long[] ranks, ArchiveNumbering ranked) {
        Ranks index = new Ranks(ranks);
        return new LongUnaryOperator() {
            private final long[] keys = filled(RECENT, -1);     // keys are never negative
            private final long[] streams = new long[RECENT];

            @Override
            public long applyAsLong(long key) {
                int slot = (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - RECENT_BITS));
                if (keys[slot] != key) {
                    streams[slot] = ranked.stream(index.rank(key), EngineTask.fileOf(key));
                    keys[slot] = key;
                }
                return streams[slot];
            }
        };
    }

    private static final int RECENT_BITS = 12;
    /** Keys whose stream numbers {@link #streams} keeps (64 KB in all, in the processor's caches). */
    static final int RECENT = 1 << RECENT_BITS;

    private static long[] filled(int n, long v) {
        long[] a = new long[n];
        Arrays.fill(a, v);
        return a;
    }

    /**
     * The rank of each of a sorted list of distinct keys: a binary search over every {@link #STEP}th key, which stay
     * in the processor's caches (27 KB for a capture of 217,628 connections, 625 KB for 5,000,000), then over the
     * {@link #STEP} keys of one block. A plain binary search over all the keys was 40 % of this job's samples on the
     * 217,628-connection capture, a cache miss a step; an open-addressing table would take about 100 MB per task for
     * 5,000,000 connections.
     */
    static final class Ranks {
        static final int STEP = 64;
        private final long[] keys;
        private final long[] firsts;

        Ranks(long[] sorted) {
            keys = sorted;
            firsts = new long[(sorted.length + STEP - 1) / STEP];
            for (int b = 0; b < firsts.length; b++) {
                firsts[b] = sorted[b * STEP];
            }
        }

        /** The rank of {@code key}; throws when it is not one of the keys. */
        int rank(long key) {
            int b = Arrays.binarySearch(firsts, key);
            if (b >= 0) {
                return b * STEP;
            }
            int block = -b - 2;      // the last block whose first key is below the key
            int r = block < 0 ? -1 : Arrays.binarySearch(keys, block * STEP, Math.min(keys.length, (block + 1) * STEP),
                    key);
            if (r < 0) {
                throw new IllegalStateException("a row's connection key " + key + " is not among the ranked keys");
            }
            return r;
        }
    }
}
