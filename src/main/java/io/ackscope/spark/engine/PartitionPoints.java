package io.ackscope.spark.engine;

import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.Stall;
import io.ackscope.vantage.PointSegments;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One shuffle partition's segments per capture source, as {@link PointSegments} for matching them between sources
 * (docs/vantage.md). A partition holds whole 4-tuples of every source (the shuffle key ignores the source), so a
 * connection two sources saw with the same 4-tuple is in one partition. Each source's engine reports its frames
 * here ({@link #point}); only the connections {@link Keep} chooses are held (the vantage pass: 4-tuples two sources
 * saw, {@link SharedTuples}; pass 2: the connections it matched); each gets a local stream number (its index in
 * {@link Point#ids}), and at most
 * {@link #MAX_SEGMENTS_PER_CONNECTION} of its segments are kept, the rest counted in {@link #cut()}: memory is about
 * 60 bytes a kept segment, that is of the traffic the sources have in common in the partition.
 *
 * <p>The shuffle rows do not carry the IP ID, so it is 0 here: copies alike in every other number are paired by
 * occurrence (docs/vantage.md, Limits).
 */
final class PartitionPoints {
    /** Segments kept per connection and source; a longer connection is matched on its first ones. */
    static final int MAX_SEGMENTS_PER_CONNECTION = 1 << 18;

    private final ArchiveNumbering numbering;
    private final Keep keep;
    private final Map<Integer, Point> points = new TreeMap<>();
    private long cut;

    /** Which connections to hold: asked once per connection, with its first segment reported. */
    interface Keep {
        boolean keep(ConnectionId id, Segment first);
    }

    PartitionPoints(ArchiveNumbering numbering, Keep keep) {
        this.numbering = numbering;
        this.keep = keep;
    }

    /** The sink for source {@code source}'s engine (one engine per source per partition). */
    Point point(int source) {
        return points.computeIfAbsent(source, Point::new);
    }

    /** The sources that have segments here, by index, each with its point. */
    Map<Integer, Point> points() {
        return points;
    }

    /** Segments left out by the per-connection cap. */
    long cut() {
        return cut;
    }

    /** One source's segments. */
    final class Point implements AnalysisSink {
        final int source;
        final PointSegments segments;
        /** The connections by local stream number. */
        final List<ConnectionId> ids = new ArrayList<>();
        /** The frames of the ACKs that ended stalls of the held connections ({@link VantagePlan#find}). */
        final Set<Long> stallAcks = new HashSet<>();
        /** Per local stream of a held connection, per exchange index, response first minus request end. */
        final Map<Integer, Map<Integer, Long>> turnarounds = new HashMap<>();
        private final List<int[]> counts = new ArrayList<>();
        private final Map<ConnectionId, Integer> local = new HashMap<>();
        private final long[] tuple = new long[4];
        private final int[] ports = new int[2];
        private ConnectionId lastId;
        private int lastLocal;

        Point(int source) {
            this.source = source;
            this.segments = new PointSegments(numbering.sourceName(source));
        }

        String name() {
            return segments.source();
        }

        @Override
        public void onFrame(Segment s, FrameAnalysis fa) {
            int l = local(fa.connection, s);
            if (l < 0) {
                return;
            }
            int[] n = counts.get(l);
            if (n[0] >= MAX_SEGMENTS_PER_CONNECTION) {
                cut++;
                return;
            }
            n[0]++;
            boolean o = fa.fromOriginator;
            PointSegments.clientFirst(s, o, tuple, ports);
            segments.add(l, o, s.seq, s.ack, s.payloadLength, s.flags, s.hasTimestamps ? s.tsVal : -1, 0,
                    s.timestampNanos, s.frameNumber, tuple, ports);
        }

        @Override
        public void onStall(Stall s) {
            Integer l = local.get(s.connection());
            if (l != null && l >= 0) {
                stallAcks.add(s.ackFrame());
            }
        }

        @Override
        public void onExchange(Exchange e) {
            Integer l = local.get(e.connection());
            if (l != null && l >= 0 && e.responseFirstNanos() >= 0) {
                turnarounds.computeIfAbsent(l, k -> new HashMap<>()).put(e.index(),
                        e.responseFirstNanos() - e.requestEndNanos());
            }
        }

        /** The local stream of {@code id}, -1 when it is not kept. */
        private int local(ConnectionId id, Segment s) {
            if (id != lastId) {
                Integer l = local.get(id);
                if (l == null) {
                    l = -1;
                    if (keep.keep(id, s)) {
                        l = ids.size();
                        ids.add(id);
                        counts.add(new int[1]);
                    }
                    local.put(id, l);
                }
                lastId = id;
                lastLocal = l;
            }
            return lastLocal;
        }
    }
}
