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
        jsc.parallelize(paths, slices).foreach(path -> TableFiles.mapLongColumn(new Path(path), STREAM,
                streams(ranks.value(), ranked.value()), conf.value().value()));
    }

    /** Key to stream number; one key's rows often come in a run, so the last one is kept. */
    static LongUnaryOperator streams(long[] ranks, ArchiveNumbering ranked) {
        long[] last = {-1, -1};
        return key -> {
            if (key == last[0]) {
                return last[1];
            }
            int r = Arrays.binarySearch(ranks, key);
            if (r < 0) {
                throw new IllegalStateException("a row's connection key " + key + " is not among the ranked keys");
            }
            last[0] = key;
            last[1] = ranked.stream(r, EngineTask.fileOf(key));
            return last[1];
        };
    }
}
