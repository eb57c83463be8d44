package io.ackscope.spark.engine;

import io.ackscope.spark.commit.TaskOutput;
import io.ackscope.spark.source.SegmentRows;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.VantageTables;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.TcpEngine;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.catalyst.InternalRow;
import scala.Tuple2;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Connections two sources saw with different 4-tuples (a NAT between the points rewrote one side's addresses or
 * ports), brought together for matching (docs/vantage.md). The shuffle groups frames by 4-tuple, so such a
 * connection's two views land in different partitions and the vantage pass never sees them side by side. Pass 1
 * notes, per partition, the first handshake of every 4-tuple one source alone saw ({@link SharedTuples#lone()}: a
 * few numbers per such 4-tuple); the driver groups those by their initial sequence numbers (the originator's and the
 * responder's: both are needed), a group being a candidate when two or more sources are in it; then only the frames
 * of those 4-tuples are shuffled again, keyed by group, each partition in file order ({@link #regroup}). The
 * existing matching runs over them ({@link VantagePlan#find} with every connection held, {@code ConnectionMatcher}
 * requiring shared segments, so equal ISNs alone do not pair), and the engine's second pass writes their
 * {@code one_way_delays} rows and sums in tasks of their own ({@link #write}).
 *
 * <p>Only the first handshake of a 4-tuple is noted: a later connection reusing a NAT'd 4-tuple is not paired.
 */
public final class NatPairs implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A 4-tuple one source alone saw in a partition: its key, and its first handshake's ISNs. */
    record Candidate(int source, long tupleKey, long originatorIsn, long responderIsn) implements Serializable {
    }

    /** Per 4-tuple key, its group (one per ISN pair seen by two or more sources). */
    private final Map<Long, Integer> groupOf;
    private final int groups;

    private NatPairs(Map<Long, Integer> groupOf, int groups) {
        this.groupOf = groupOf;
        this.groups = groups;
    }

    /** Pairs the partitions' lone 4-tuples by their ISNs. */
    public static NatPairs of(List<EngineTask.Pass1> pass1) {
        Map<String, List<Candidate>> byIsn = new java.util.TreeMap<>();
        for (EngineTask.Pass1 p : pass1) {
            for (Candidate c : p.lone()) {
                byIsn.computeIfAbsent(c.originatorIsn() + "/" + c.responderIsn(), k -> new ArrayList<>()).add(c);
            }
        }
        Map<Long, Integer> groupOf = new HashMap<>();
        int groups = 0;
        for (List<Candidate> g : byIsn.values()) {
            Set<Integer> sources = new HashSet<>();
            g.forEach(c -> sources.add(c.source()));
            if (sources.size() < 2) {
                continue;
            }
            for (Candidate c : g) {
                groupOf.putIfAbsent(c.tupleKey(), groups);
            }
            groups++;
        }
        return new NatPairs(groupOf, groups);
    }

    /** Candidate groups (ISN pairs seen by two or more sources). */
    int groups() {
        return groups;
    }

    /**
     * The frames of the candidates' 4-tuples, shuffled again so that each group is in one partition (at most
     * {@code maxPartitions}), each partition in file order; null without candidates.
     */
    public JavaRDD<InternalRow> regroup(JavaRDD<InternalRow> inFileOrder, int maxPartitions) {
        if (groups == 0) {
            return null;
        }
        Map<Long, Integer> g = groupOf;
        return inFileOrder.filter(r -> g.containsKey(r.getLong(SegmentRows.KEY)))
                .mapToPair(r -> new Tuple2<>(new Order(g.get(r.getLong(SegmentRows.KEY)),
                        EngineTask.key(r.getInt(SegmentRows.FILE_INDEX), r.getLong(SegmentRows.FRAME))), r.copy()))
                .repartitionAndSortWithinPartitions(new ByGroup(Math.max(1, Math.min(groups, maxPartitions))),
                        new InFileOrder())
                .values();
    }

    /** A regrouped frame's key: its group (the partition) and its place in file order (the order within it). */
    record Order(int group, long fileOrder) implements Serializable {
    }

    /** Frames by file order, whatever their group. */
    private static final class InFileOrder implements Comparator<Order>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(Order a, Order b) {
            return Long.compare(a.fileOrder(), b.fileOrder());
        }
    }

    /** A group's frames to one partition. */
    private static final class ByGroup extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int partitions;

        ByGroup(int partitions) {
            this.partitions = partitions;
        }

        @Override
        public int numPartitions() {
            return partitions;
        }

        @Override
        public int getPartition(Object key) {
            return ((Order) key).group() % partitions;
        }
    }

    /**
     * The engine's second pass over one regrouped partition, the vantage part only (the connections' own rows are
     * written by the main pass): lines up the connections matched through the NAT with their pair's clock, writes
     * their {@code one_way_delays} rows under {@code staging/one_way_delays/_temporary/<attempt>/} and sums them.
     *
     * @param partition a number no main pass-2 task has (it names the file)
     */
    public static EngineTask.Result write(int partition, long attempt, Iterator<InternalRow> rows, long[] ranks,
                                   ArchiveNumbering numbering, VantagePlan plan, String stagingRoot,
                                   Configuration conf) {
        PartitionPoints points = new PartitionPoints(numbering, (id, first) -> plan.matched(EngineTask.key(id), true));
        EngineTask.feed(rows, numbering, source -> new TcpEngine(points.point(source)));
        VantageAggregate sums = new VantageAggregate();
        TaskOutput out = new TaskOutput(VantageTables.ONE_WAY_DELAYS);
        VantageRows.write(points, plan, ranks, numbering, sums, new VantageRows.Sink() {
            @Override
            public RowBuffer row() {
                return out.row;
            }

            @Override
            public void written() {
                try {
                    out.write(stagingRoot, attempt, partition, conf);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new EngineTask.Result(partition, out.written(), 0, 0, 0, 0, new EndpointAggregate(), sums,
                new EndpointAggregate(), new long[0]);
    }
}
