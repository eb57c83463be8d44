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

    /** Key to stream number: its rank ({@link Ranks}) numbered in its source ({@link ArchiveNumbering#stream}). */
    static LongUnaryOperator streams(long[] ranks, ArchiveNumbering ranked) {
        Ranks index = new Ranks(ranks);
        return key -> ranked.stream(index.rank(key), EngineTask.fileOf(key));
    }

    /**
     * The rank of each of a sorted list of distinct non-negative keys, through an open-addressing table twice their
     * number (a binary search over the 217,628 keys of a capture was 40 % of this job's samples: a cache miss a step).
     */
    static final class Ranks {
        private final long[] keys;
        private final int[] ranks;
        private final int mask;

        Ranks(long[] sorted) {
            int size = Integer.highestOneBit(Math.max(2, sorted.length) * 2 - 1) * 2;    // a power of two, >= 2n
            mask = size - 1;
            keys = new long[size];
            ranks = new int[size];
            Arrays.fill(keys, -1);
            for (int r = 0; r < sorted.length; r++) {
                if (sorted[r] < 0) {
                    throw new IllegalArgumentException("negative key " + sorted[r]);
                }
                int i = slot(sorted[r]);
                while (keys[i] != -1) {
                    i = (i + 1) & mask;
                }
                keys[i] = sorted[r];
                ranks[i] = r;
            }
        }

        /** The rank of {@code key}; throws when it is not one of the keys. */
        int rank(long key) {
            for (int i = slot(key); ; i = (i + 1) & mask) {
                if (keys[i] == key) {
                    return ranks[i];
                }
                if (keys[i] == -1) {
                    throw new IllegalStateException("a row's connection key " + key + " is not among the ranked keys");
                }
            }
        }

        private int slot(long key) {
            return (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
        }
    }
}
