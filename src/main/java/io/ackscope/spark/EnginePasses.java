package io.ackscope.spark;

import io.ackscope.spark.carry.Continuation;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.commit.TableCommit;
import io.ackscope.spark.commit.TableFiles;
import io.ackscope.spark.commit.TaskOutput;
import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.engine.EngineCarry;
import io.ackscope.spark.engine.EngineTask;
import io.ackscope.spark.engine.NatPairs;
import io.ackscope.spark.engine.SegmentShuffle;
import io.ackscope.spark.engine.StreamNumbers;
import io.ackscope.spark.engine.VantagePlan;
import io.ackscope.tcp.RoleEvidence;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Spark jobs of {@code analyze}'s engine over the shuffled frames ({@link Analyze}, steps 3 and 4). A run of one
 * source that carries nothing makes one engine pass, which writes the engine tables with each connection's
 * first-appearance key as its stream, and then maps the keys to stream numbers in the files ({@link StreamNumbers}).
 * Other runs make two: pass 1 ranks the connections into stream numbers (and, in a carrying run, hands each source's
 * 4-tuples to {@link Continuation#afterPass1}), the vantage pass pairs connections between sources, pass 2 writes the
 * engine tables ({@link EngineTask}).
 */
final class EnginePasses {
    private EnginePasses() {
    }

    /** The phases these jobs run, as the job descriptions and the run's phase times name them. */
    static final String PASS1 = "engine pass 1";
    static final String PASS2 = "engine pass 2 and table writes";
    static final String VANTAGE = "matching between sources";
    static final String ONE_PASS = "engine and table writes";
    static final String NUMBERING = "stream numbers";

    /**
     * What the passes came to: the engine's results, or, in a run that appends, why it must read every file instead
     * ({@link Continuation#afterPass1}).
     */
    sealed interface Outcome permits Engine, ReadAll {
    }

    /** A run that appends must read every file instead, {@code why}. */
    record ReadAll(String why) implements Outcome {
    }

    /** What the engine passes left: the connections' first frames (ranked), each task's result, rows per table. */
    record Engine(long[] ranks, ArchiveNumbering ranked, VantagePlan pairs, List<EngineTask.Result> results,
                          Map<String, Long> tableRows) implements Outcome {
    }

    /**
     * Runs the engine over the shuffle output and writes the engine tables, which are then moved into staging: in one
     * pass when the run has one source and carries nothing, else in two (pass 1 learns each connection's first frame,
     * ranked on the driver into stream numbers; pass 2 runs the engine again over the same shuffle output).
     *
     * @param roles per source, the evidence of who serves, from the read stage
     *              ({@link io.ackscope.spark.source.SplitStatsAccumulator#roles})
     */
    static Outcome run(SparkSession spark, OutputDirectory out, SegmentShuffle.Shuffled shuffled,
                      ArchiveNumbering numbering, Broadcast<ArchiveNumbering> numberingB,
                      Broadcast<SerializableConfiguration> confB, ProgressReporter progress,
                      Map<String, Double> phases, Map<String, String> sourceDirs, Continuation cont,
                      RoleEvidence[] roles) throws IOException {
        EngineCarry carry = cont.carry(out, shuffled.rows().getNumPartitions(), confB.value());
        String tag = cont.tag();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        JavaRDD<InternalRow> inFileOrder = JavaRDD.fromRDD(shuffled.rows(), shuffled.rows().elementClassTag());
        if (numbering.sources() == 1 && !carry.carries()) {
            return onePass(spark, out, inFileOrder, numbering, numberingB, confB, jsc.broadcast(roles), progress,
                    phases, sourceDirs, tag);
        }
        long t = System.nanoTime();
        progress.phase("numbering connections");
        spark.sparkContext().setJobDescription(PASS1);
        List<EngineTask.Pass1> pass1 = inFileOrder.mapPartitionsWithIndex((idx, it) -> List.of(
                EngineTask.connectionKeys(it, numberingB.value(), idx, carry)).iterator(), false).collect();
        phases.put(PASS1, StageTimes.secondsSince(t));
        Optional<String> readAll = cont.afterPass1(out, pass1, numbering);
        if (readAll.isPresent()) {
            return new ReadAll(readAll.get());
        }
        // a run that appends pairs nothing: afterPass1 found no new connection another source saw
        boolean pairing = numbering.sources() >= 2 && !cont.appending();
        long[] ranks = mergeSorted(pass1.stream().map(EngineTask.Pass1::keys).toList());
        // a handful (attempts answered after their eviction): sent whole to every task
        long[] revived = pass1.stream().flatMapToLong(p -> Arrays.stream(p.revived())).sorted().toArray();
        ArchiveNumbering ranked = numbering.ranked(ranks);
        JavaRDD<InternalRow> natRows = pairing
                ? NatPairs.of(pass1).regroup(inFileOrder, inFileOrder.getNumPartitions()) : null;
        VantagePlan pairs = pairing
                ? vantagePass(spark, inFileOrder, natRows, pass1, ranks, ranked, numberingB, progress, phases) : null;
        progress.phase("analysing connections");

        t = System.nanoTime();
        spark.sparkContext().setJobDescription(PASS2);
        Broadcast<long[]> ranksB = jsc.broadcast(ranks);
        Broadcast<RoleEvidence[]> rolesB = jsc.broadcast(roles);
        Broadcast<ArchiveNumbering> rankedB = jsc.broadcast(ranked);
        Broadcast<VantagePlan> planB = pairs == null ? null : jsc.broadcast(pairs);
        String staging = out.staging().toString();
        List<EngineTask.Result> results = inFileOrder.mapPartitionsWithIndex((idx, it) -> List.of(
                EngineTask.write(idx, TaskContext.get().taskAttemptId(), it, ranksB.value(), revived,
                        rankedB.value(), planB == null ? null : planB.value(), staging, confB.value().value(), carry,
                        rolesB.value()))
                .iterator(), false).collect();
        if (natRows != null) {
            int first = inFileOrder.getNumPartitions();
            results = new ArrayList<>(results);
            results.addAll(natRows.mapPartitionsWithIndex((idx, it) -> List.of(NatPairs.write(first + idx,
                    TaskContext.get().taskAttemptId(), it, ranksB.value(), rankedB.value(), planB.value(), staging,
                    confB.value().value())).iterator(), false).collect());
        }
        Map<String, Long> tableRows = commit(spark, out, results.stream().flatMap(r -> r.files().stream()).toList(),
                sourceDirs, tag);
        phases.put(PASS2, StageTimes.secondsSince(t));
        ranksB.destroy();
        numberingB.destroy();
        rankedB.destroy();
        rolesB.destroy();
        if (planB != null) {
            planB.destroy();
        }
        return new Engine(ranks, ranked, pairs, results, tableRows);
    }

    /**
     * The single pass: the engine writes every table with first-appearance keys as stream numbers, the driver ranks
     * all partitions' keys, and the files' {@code stream} columns are mapped ({@link StreamNumbers}).
     */
    private static Engine onePass(SparkSession spark, OutputDirectory out, JavaRDD<InternalRow> inFileOrder,
                                  ArchiveNumbering numbering, Broadcast<ArchiveNumbering> numberingB,
                                  Broadcast<SerializableConfiguration> confB, Broadcast<RoleEvidence[]> rolesB,
                                  ProgressReporter progress, Map<String, Double> phases,
                                  Map<String, String> sourceDirs, String tag) throws IOException {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        long t = System.nanoTime();
        progress.phase("analysing connections");
        spark.sparkContext().setJobDescription(ONE_PASS);
        String staging = out.staging().toString();
        List<EngineTask.Result> results = inFileOrder.mapPartitionsWithIndex((idx, it) -> List.of(
                EngineTask.write(idx, TaskContext.get().taskAttemptId(), it, null, null, numberingB.value(), null,
                        staging, confB.value().value(), EngineCarry.NONE, rolesB.value()))
                .iterator(), false).collect();
        phases.put(ONE_PASS, StageTimes.secondsSince(t));

        t = System.nanoTime();
        progress.phase("numbering connections");
        spark.sparkContext().setJobDescription(NUMBERING);
        long[] ranks = mergeSorted(results.stream().map(EngineTask.Result::keys).toList());
        ArchiveNumbering ranked = numbering.ranked(ranks);
        Broadcast<long[]> ranksB = jsc.broadcast(ranks);
        Broadcast<ArchiveNumbering> rankedB = jsc.broadcast(ranked);
        List<TaskOutput.Written> files = results.stream().flatMap(r -> r.files().stream()).toList();
        StreamNumbers.apply(jsc, files, ranksB, rankedB, confB);
        Map<String, Long> tableRows = commit(spark, out, files, sourceDirs, tag);
        phases.put(NUMBERING, StageTimes.secondsSince(t));
        ranksB.destroy();
        numberingB.destroy();
        rankedB.destroy();
        rolesB.destroy();
        return new Engine(ranks, ranked, null, results, tableRows);
    }

    /** Moves the engine tasks' files into staging ({@link TableCommit#engineTables}); rows per table. */
    private static Map<String, Long> commit(SparkSession spark, OutputDirectory out, List<TaskOutput.Written> files,
                                            Map<String, String> sourceDirs, String tag) throws IOException {
        return TableCommit.engineTables(out, files, spark.sparkContext().getConf()
                .getSizeAsBytes(TableFiles.ONE_FILE_CONF, Long.toString(TableFiles.ONE_FILE_BYTES)), sourceDirs, tag);
    }

    /**
     * With two or more sources, between the engine's passes: per partition, matches the connections of the 4-tuples
     * two or more sources saw (pass 1 noted them: a handful per partition), then those of {@code natRows} (the
     * candidates through a NAT, {@link NatPairs}; null without), and estimates each pair's clock on the driver from
     * all partitions.
     */
    private static VantagePlan vantagePass(SparkSession spark, JavaRDD<InternalRow> inFileOrder,
                                           JavaRDD<InternalRow> natRows, List<EngineTask.Pass1> pass1,
                                           long[] ranks, ArchiveNumbering ranked,
                                           Broadcast<ArchiveNumbering> numberingB, ProgressReporter progress,
                                           Map<String, Double> phases) {
        long t = System.nanoTime();
        progress.phase("matching connections between sources");
        spark.sparkContext().setJobDescription(VANTAGE);
        long[][] shared = pass1.stream().map(EngineTask.Pass1::shared).toArray(long[][]::new);
        List<VantagePlan.Found> found = inFileOrder.mapPartitionsWithIndex((idx, it) -> List.of(
                VantagePlan.find(it, numberingB.value(), shared[idx])).iterator(), false).collect();
        if (natRows != null) { // through a NAT (NatPairs): every connection of a group held
            found = new ArrayList<>(found);
            found.addAll(natRows.mapPartitions(it -> List.of(VantagePlan.find(it, numberingB.value(), null))
                    .iterator()).collect());
        }
        VantagePlan pairs = VantagePlan.of(found, ranks, ranked);
        phases.put(VANTAGE, StageTimes.secondsSince(t));
        return pairs;
    }

    /** Merges the sorted key lists of all partitions (the 4-tuples are disjoint, so keys are distinct). */
    static long[] mergeSorted(List<long[]> lists) {
        int n = 0;
        for (long[] l : lists) {
            n += l.length;
        }
        long[] all = new long[n];
        int p = 0;
        for (long[] l : lists) {
            System.arraycopy(l, 0, all, p, l.length);
            p += l.length;
        }
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                throw new IllegalStateException("two connections start at the same frame: " + all[i]);
            }
        }
        return all;
    }
}
