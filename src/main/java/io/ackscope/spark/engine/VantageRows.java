package io.ackscope.spark.engine;

import io.ackscope.tables.RowBuffer;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.vantage.MatchedConnection;
import io.ackscope.vantage.OneWayDelay;
import io.ackscope.vantage.PairAnalysis;
import io.ackscope.vantage.VantagePair;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The vantage part of the engine's second pass over one partition: each pair of sources of the {@link VantagePlan}
 * present here is lined up with the plan's clock ({@link PairAnalysis#analyze(io.ackscope.vantage.PointSegments,
 * io.ackscope.vantage.PointSegments, io.ackscope.vantage.ClockEstimate)}), its segments become
 * {@code one_way_delays} rows and its sums go into a {@link VantageAggregate}.
 */
final class VantageRows {
    private VantageRows() {
    }

    /** Where the rows go: {@link #row()} is filled, then {@link #written()} is called. */
    interface Sink {
        RowBuffer row();

        void written();
    }

    /** A connection's global names. */
    private record Names(long stream, String uid, String serverIp, int serverPort) {
    }

    static void write(PartitionPoints points, VantagePlan plan, long[] ranks, ArchiveNumbering numbering,
                      VantageAggregate sums, Sink out) {
        for (VantagePlan.PairClock c : plan.pairs()) {
            PartitionPoints.Point a = points.points().get(c.sourceA());
            PartitionPoints.Point b = points.points().get(c.sourceB());
            if (a == null || b == null) {
                continue;
            }
            VantagePair vp = PairAnalysis.analyze(a.segments, b.segments, c.clock());
            if (vp == null) {
                continue;
            }
            sums.add(VantagePlan.pairKey(c.sourceA(), c.sourceB()), vp, points.cut());
            Map<Long, Names> namesA = new HashMap<>();
            Map<Long, Names> namesB = new HashMap<>();
            for (MatchedConnection m : vp.connections()) {
                namesA.put(m.streamA(), names(a, m.streamA(), ranks, numbering));
                namesB.put(m.streamB(), names(b, m.streamB(), ranks, numbering));
            }
            for (OneWayDelay d : vp.delays()) {
                Names na = namesA.get(d.streamA());
                Names nb = namesB.get(d.streamB());
                RowBuffer r = out.row().clear();
                int i = 0;
                r.setString(i++, a.name()).setLong(i++, na.stream()).setString(i++, na.uid())
                        .setString(i++, b.name()).setLong(i++, nb.stream()).setString(i++, nb.uid())
                        .setString(i++, d.aToB() ? "A_TO_B" : "B_TO_A").setTimestampNanos(i++, d.timeNanosA())
                        .setTimestampNanos(i++, d.timeNanosB()).setLong(i++, Math.floorDiv(d.delayNanos(), 1000L))
                        .setLong(i++, d.seq()).setInt(i++, d.length()).setLong(i++, d.orderA())
                        .setLong(i++, d.orderB()).setString(i++, na.serverIp()).setInt(i, na.serverPort());
                out.written();
            }
        }
    }

    private static Names names(PartitionPoints.Point p, long local, long[] ranks, ArchiveNumbering numbering) {
        ConnectionId id = p.ids.get((int) local);
        int rank = Arrays.binarySearch(ranks, EngineTask.key(id));
        return new Names(numbering.stream(rank, id.firstFileIndex()), id.uid(p.name()), id.serverIp(),
                id.serverPort());
    }

}
