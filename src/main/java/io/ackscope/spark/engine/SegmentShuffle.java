package io.ackscope.spark.engine;

import io.ackscope.spark.source.CapturePartition;
import io.ackscope.spark.source.PcapPartitionReader;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SegmentRows;
import io.ackscope.spark.source.SplitStatsAccumulator;

import io.ackscope.tcp.FrameFilter;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.Dependency;
import org.apache.spark.MapOutputTrackerMaster;
import org.apache.spark.Partition;
import org.apache.spark.Partitioner;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.shuffle.ShuffleWriteProcessor;
import org.apache.spark.shuffle.sort.SortShuffleManager;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.util.MutablePair;
import org.apache.spark.util.SerializableConfiguration;
import org.apache.spark.util.TaskCompletionListener;
import scala.Option;
import scala.Product2;
import scala.collection.Iterator;
import scala.collection.immutable.Nil$;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * {@code analyze}'s shuffle: TCP frames of the planned splits, as {@link SegmentRows}, grouped by connection key, and
 * each group's frames handed to its task in file order <em>without a sort</em>.
 *
 * <p>Why no sort is needed: the planner packs splits into read tasks in file order (each task a run of consecutive
 * splits, see {@link io.ackscope.spark.source.CapturePlanner#pack}), a read task emits its frames in file order, and
 * Spark's shuffle writers keep the order of a task's records within each of its blocks. So map task {@code m}'s block
 * for a reducer holds frames that all come after those of map task {@code m - 1}'s block, in order, and reading a
 * reducer's blocks one map task after the other, in map order, gives its frames in file order. Spark's own reader
 * cannot be asked for that (it hands out blocks as they arrive), so the reducer asks the shuffle manager for one map
 * task's block at a time, a few ahead so that remote fetches overlap. It checks the order as it goes and fails loudly
 * if it is ever broken.
 *
 * <p>Against {@code repartition(key).sortWithinPartitions(file order)} on the Dataset, this also skips Catalyst's
 * analysis, planning and code generation for the read, and the reduce side holds no partition in sorter pages: each
 * frame streams from the shuffle block to the engine.
 */
public final class SegmentShuffle {
    private SegmentShuffle() {
    }

    /** Map tasks' blocks a reducer keeps open ahead of the one it reads (remote fetches overlap). */
    static final int BLOCKS_AHEAD = 4;

    /**
     * The TCP frames of {@code plan}, shuffled into {@code reducers} partitions by connection key, each partition's
     * frames in file order. Nothing runs until {@link Shuffled#readStage} or an action.
     */
    public static Shuffled inFileOrder(SparkContext sc, ReadPlan plan, Broadcast<SerializableConfiguration> conf,
                                SplitStatsAccumulator stats, int reducers, int payloadBytes, boolean httpPayloadOnly,
                                FrameFilter filter) {
        SegmentsRDD frames = new SegmentsRDD(sc, plan.partitions(), conf, stats, payloadBytes, httpPayloadOnly,
                reducers, !(SparkEnv.get().shuffleManager() instanceof SortShuffleManager), filter);
        ClassTag<Object> intTag = ClassTag$.MODULE$.Int();
        ClassTag<InternalRow> rowTag = ClassTag$.MODULE$.apply(InternalRow.class);
        ShuffleDependency<Object, InternalRow, InternalRow> dep = new ShuffleDependency<>(frames,
                new ConnectionPartitioner(reducers), new SegmentRowSerializer(SegmentRows.SCHEMA.size()),
                Option.empty(), Option.empty(), false, new ShuffleWriteProcessor(), intTag, rowTag, rowTag);
        return new Shuffled(dep, new FileOrderRDD(sc, dep));
    }

    /** The shuffle and its reduce side. */
    public record Shuffled(ShuffleDependency<Object, InternalRow, InternalRow> dependency, RDD<InternalRow> rows) {
        /** Runs the read stage (the shuffle's map side) as a job of its own; no-op without splits. */
        public void readStage(SparkContext sc) {
            if (dependency.rdd().partitions().length == 0) {
                return;
            }
            try {
                sc.submitMapStage(dependency).get();
            } catch (org.apache.spark.SparkException e) {
                // as a failed action would: Spark's exception, with the failed task's cause
                throw SegmentShuffle.<RuntimeException>unchecked(e);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E unchecked(Throwable t) throws E {
        throw (E) t;
    }

    /** Reducer of a row: its connection key (a well-mixed hash, see {@link SegmentRows#connectionKey}) mod n. */
    static int reducerOf(long connKey, int reducers) {
        return (int) Math.floorMod(connKey, (long) reducers);
    }

    /** The key of each shuffled record is already its reducer (as Spark's SQL exchange does it). */
    static final class ConnectionPartitioner extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int n;

        ConnectionPartitioner(int n) {
            this.n = n;
        }

        @Override
        public int numPartitions() {
            return n;
        }

        @Override
        public int getPartition(Object key) {
            return (Integer) key;
        }
    }

    /** One read task: a planned partition's splits. */
    record ReadSlot(int index, CapturePartition splits) implements Partition {
    }

    /** One reducer. */
    record ReduceSlot(int index) implements Partition {
    }

    /** The map side: each task reads its splits with a {@link PcapPartitionReader} into segment rows. */
    static final class SegmentsRDD extends RDD<Product2<Object, InternalRow>> {
        private static final long serialVersionUID = 1L;
        /**
         * The planned tasks, on the driver only: a task gets its own {@link ReadSlot}, and the RDD itself is
         * deserialized by every task, so shipping all of them cost each task the whole plan (an archive of 10,008
         * files: each of 313 tasks deserialized all 10,008 splits, 27 ms a task, 8.4 s in all beside 6.0 s of run
         * time).
         */
        private final transient List<CapturePartition> parts;
        private final Broadcast<SerializableConfiguration> conf;
        private final SplitStatsAccumulator stats;
        private final int payloadBytes;
        private final boolean httpPayloadOnly;
        private final int reducers;
        /** A shuffle manager that may hold records unserialized gets copies (Spark's own rule for its exchange). */
        private final boolean copyRows;
        private final FrameFilter filter;

        @SuppressWarnings({"unchecked", "rawtypes"})
        SegmentsRDD(SparkContext sc, List<CapturePartition> parts, Broadcast<SerializableConfiguration> conf,
                    SplitStatsAccumulator stats, int payloadBytes, boolean httpPayloadOnly, int reducers,
                    boolean copyRows, FrameFilter filter) {
            super(sc, (Seq) Nil$.MODULE$, (ClassTag) ClassTag$.MODULE$.apply(Product2.class));
            this.parts = List.copyOf(parts);
            this.conf = conf;
            this.stats = stats;
            this.payloadBytes = payloadBytes;
            this.httpPayloadOnly = httpPayloadOnly;
            this.reducers = reducers;
            this.copyRows = copyRows;
            this.filter = filter;
        }

        @Override
        public Partition[] getPartitions() {
            Partition[] out = new Partition[parts.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = new ReadSlot(i, parts.get(i));
            }
            return out;
        }

        @Override
        public Seq<String> getPreferredLocations(Partition p) {
            return CollectionConverters.asScala(List.of(((ReadSlot) p).splits().preferredLocations())).toList();
        }

        @Override
        public Iterator<Product2<Object, InternalRow>> compute(Partition p, TaskContext context) {
            Configuration hadoop = conf.value().value();
            PcapPartitionReader reader = new PcapPartitionReader(((ReadSlot) p).splits(), SegmentRows.SCHEMA,
                    hadoop, payloadBytes, httpPayloadOnly, false, true, stats, filter);
            context.addTaskCompletionListener((TaskCompletionListener) c -> reader.close());
            MutablePair<Object, InternalRow> pair = new MutablePair<>();
            return new scala.collection.AbstractIterator<>() {
                private boolean ready;
                private boolean done;

                @Override
                public boolean hasNext() {
                    if (!ready && !done) {
                        try {
                            ready = reader.next();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        done = !ready;
                    }
                    return ready;
                }

                @Override
                public Product2<Object, InternalRow> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    ready = false;
                    InternalRow row = reader.get();
                    int reducer = reducerOf(row.getLong(SegmentRows.KEY), reducers);
                    return pair.update(reducer, copyRows ? row.copy() : row);
                }
            };
        }
    }

    /**
     * The reduce side: reducer {@code r} reads map task 0's block for {@code r}, then map task 1's, and so on, with up
     * to {@link #BLOCKS_AHEAD} more already requested, and checks that frames come in file order.
     */
    static final class FileOrderRDD extends RDD<InternalRow> {
        private static final long serialVersionUID = 1L;
        private final ShuffleDependency<Object, InternalRow, InternalRow> dep;
        /** The map tasks and reducers of {@link #dep} (its map-side RDD is not shipped to the tasks). */
        private final int maps;
        private final int reducers;

        @SuppressWarnings({"unchecked", "rawtypes"})
        FileOrderRDD(SparkContext sc, ShuffleDependency<Object, InternalRow, InternalRow> dep) {
            super(sc, (Seq) CollectionConverters.asScala(List.<Dependency<?>>of(dep)).toList(),
                    ClassTag$.MODULE$.apply(InternalRow.class));
            this.dep = dep;
            this.maps = dep.rdd().partitions().length;
            this.reducers = dep.partitioner().numPartitions();
        }

        @Override
        public Partition[] getPartitions() {
            Partition[] out = new Partition[reducers];
            for (int i = 0; i < reducers; i++) {
                out[i] = new ReduceSlot(i);
            }
            return out;
        }

        @Override
        public Seq<String> getPreferredLocations(Partition p) {
            Object tracker = SparkEnv.get().mapOutputTracker();
            if (tracker instanceof MapOutputTrackerMaster m) {
                return m.getPreferredLocationsForShuffle(dep, p.index());
            }
            return (Seq<String>) (Seq<?>) Nil$.MODULE$;
        }

        @Override
        public Iterator<InternalRow> compute(Partition p, TaskContext context) {
            int r = p.index();
            ArrayDeque<Iterator<Product2<Object, InternalRow>>> ahead = new ArrayDeque<>();
            return new scala.collection.AbstractIterator<>() {
                private int nextMap;          // the next map task whose block is not yet requested
                private Iterator<Product2<Object, InternalRow>> block;
                private long lastKey = -1;

                private void request() {
                    while (ahead.size() <= BLOCKS_AHEAD && nextMap < maps) {
                        int m = nextMap++;
                        ahead.add(SparkEnv.get().shuffleManager().<Object, InternalRow>getReader(dep.shuffleHandle(),
                                m, m + 1, r, r + 1, context, context.taskMetrics().createTempShuffleReadMetrics())
                                .read());
                    }
                }

                @Override
                public boolean hasNext() {
                    while (block == null || !block.hasNext()) {
                        request();
                        if (ahead.isEmpty()) {
                            return false;
                        }
                        block = ahead.poll();
                    }
                    return true;
                }

                @Override
                public InternalRow next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    InternalRow row = block.next()._2();
                    long key = EngineTask.key(row.getInt(SegmentRows.FILE_INDEX), row.getLong(SegmentRows.FRAME));
                    if (key <= lastKey) {
                        throw new IllegalStateException("shuffle partition " + r + " is out of file order: frame "
                                + row.getLong(SegmentRows.FRAME) + " of file " + row.getInt(SegmentRows.FILE_INDEX)
                                + " after key " + lastKey + " (the read tasks are not in file order)");
                    }
                    lastKey = key;
                    return row;
                }
            };
        }
    }
}
