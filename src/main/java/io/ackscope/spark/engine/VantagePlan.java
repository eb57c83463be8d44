package io.ackscope.spark.engine;

import io.ackscope.spark.source.SegmentRows;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.TcpEngine;
import io.ackscope.vantage.ClockEstimate;
import io.ackscope.vantage.ClockSamples;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.RowBuffer;
import io.ackscope.vantage.PairAnalysis;
import io.ackscope.vantage.StallAcks;
import org.apache.spark.sql.catalyst.InternalRow;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which connections two capture sources both saw, and each pair of sources' clock: what the engine's second pass
 * needs to write the peer columns of {@code connections} and the {@code one_way_delays} rows (docs/vantage.md).
 * Made between the engine's two passes, only when the input has two or more sources: the vantage pass
 * ({@link #find}) matches each shuffle partition's connections between its sources and reduces their matched
 * segments to {@link ClockSamples}; the driver merges those per pair of sources ({@link #of}), decides which source
 * is nearer the clients and estimates the clock once over all of them. A clock is an aggregate over the whole
 * input, so the one-way delays can only be written in the pass after it.
 *
 * <p>Connections whose 4-tuples a NAT between the sources changed are in different partitions; {@link NatPairs}
 * regroups the candidates (same ISNs) and {@link #find} runs over those groups too, its links marked {@code byIsn}.
 * The plan also holds, per stall ACK of a matched connection (a frame at either source), the acking host's ACK delay
 * at the source nearer that host ({@link StallAcks}), for {@code stalls.peer_ack_delay_us}.
 *
 * <p>A connection seen by three sources has one peer in {@code connections}: the one of the first pair (by source
 * order) that matched it; its {@code one_way_delays} rows are there for every pair.
 */
public final class VantagePlan implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Two connections matched in a partition: source and first-appearance key of each, and their uids; {@code byIsn}:
     * matched in a {@link NatPairs} group (their 4-tuples differ).
     */
    record Link(int sourceX, long keyX, String uidX, int sourceY, long keyY, String uidY, boolean byIsn)
            implements Serializable {
    }

    /** A stall's ACK at two sources X and Y ({@link StallAcks}). */
    record StallAck(int sourceX, int sourceY, StallAcks.Delays delays) implements Serializable {
    }

    /** A matched connection's exchange turnarounds (by exchange index) at X and at Y. */
    record Turnarounds(int sourceX, long keyX, Map<Integer, Long> atX, int sourceY, long keyY, Map<Integer, Long> atY)
            implements Serializable {
    }

    /** What the vantage pass found in one partition; {@code samples} by {@link #pairKey} (X the lower source). */
    public record Found(List<Link> links, Map<Long, ClockSamples> samples, long cut, List<StallAck> stallAcks,
                 List<Turnarounds> turnarounds) implements Serializable {
    }

    /** A connection's match in another source: the row's peer columns ({@code byIsn}: through a NAT). */
    record Peer(String source, long stream, String uid, boolean byIsn) implements Serializable {
    }

    /** A pair of sources with connections in common: A nearer the clients, and B's clock relative to A's. */
    record PairClock(int sourceA, int sourceB, ClockEstimate clock) implements Serializable {
    }

    private static final int EXCHANGE_PEER_SERVER = EngineTables.EXCHANGES.ordinal("peer_server_turnaround_us");
    private static final int STALL_PEER_ACK = EngineTables.STALLS.ordinal("peer_ack_delay_us");

    private final List<PairClock> pairs;
    private final Map<Long, Peer> peers;
    /** By {@link #frameKey}, a stall ACK's delay in nanoseconds at the source nearer the acking host. */
    private final Map<Long, Long> stallAckDelays;

    /** By connection key, per exchange index, the turnaround in nanoseconds at the source nearer the server. */
    private final Map<Long, Map<Integer, Long>> serverTurnarounds;

    private VantagePlan(List<PairClock> pairs, Map<Long, Peer> peers, Map<Long, Long> stallAckDelays,
                        Map<Long, Map<Integer, Long>> serverTurnarounds) {
        this.pairs = pairs;
        this.peers = peers;
        this.stallAckDelays = stallAckDelays;
        this.serverTurnarounds = serverTurnarounds;
    }

    /** One long for a frame of a source (frame numbers are below 2^40, {@link EngineTask#key}). */
    private static long frameKey(int source, long frame) {
        return ((long) source << 42) ^ frame;
    }

    /** One long for an ordered pair of sources. */
    static long pairKey(int x, int y) {
        return ((long) x << 32) | y;
    }

    /**
     * The vantage pass over one partition.
     *
     * @param shared the 4-tuple keys two or more sources saw in it ({@link EngineTask.Pass1#shared()}): only their
     *               connections are held; null in a {@link NatPairs} group, whose connections are all held and
     *               whose links are marked {@code byIsn}
     */
    public static Found find(Iterator<InternalRow> rows, ArchiveNumbering numbering, long[] shared) {
        PartitionPoints points = new PartitionPoints(numbering, (id, s) -> shared == null || SharedTuples.contains(
                shared, SegmentRows.connectionKey(s.srcHi, s.srcLo, s.srcPort, s.dstHi, s.dstLo, s.dstPort)));
        EngineTask.feed(rows, numbering, source -> new TcpEngine(points.point(source)));
        List<Link> links = new ArrayList<>();
        List<StallAck> stallAcks = new ArrayList<>();
        List<Turnarounds> turnarounds = new ArrayList<>();
        Map<Long, ClockSamples> samples = new HashMap<>();
        List<PartitionPoints.Point> all = new ArrayList<>(points.points().values());
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                PartitionPoints.Point x = all.get(i);
                PartitionPoints.Point y = all.get(j);
                ClockSamples s = new ClockSamples();
                for (PairAnalysis.StreamPair m : PairAnalysis.sample(x.segments, y.segments, s)) {
                    ConnectionId cx = x.ids.get((int) m.streamX());
                    ConnectionId cy = y.ids.get((int) m.streamY());
                    links.add(new Link(x.source, EngineTask.key(cx), cx.uid(x.name()), y.source, EngineTask.key(cy),
                            cy.uid(y.name()), shared == null));
                    samples.putIfAbsent(pairKey(x.source, y.source), s);
                    Map<Integer, Long> tx = x.turnarounds.get((int) m.streamX());
                    Map<Integer, Long> ty = y.turnarounds.get((int) m.streamY());
                    if (tx != null && ty != null) {
                        turnarounds.add(new Turnarounds(x.source, EngineTask.key(cx), tx, y.source,
                                EngineTask.key(cy), ty));
                    }
                    if (!x.stallAcks.isEmpty() || !y.stallAcks.isEmpty()) {
                        for (StallAcks.Delays d : StallAcks.of(x.segments, y.segments, m, x.stallAcks, y.stallAcks)) {
                            stallAcks.add(new StallAck(x.source, y.source, d));
                        }
                    }
                }
            }
        }
        return new Found(links, samples, points.cut(), stallAcks, turnarounds);
    }

    /**
     * Merges the partitions' findings: per pair of sources its clock (pairs without segments both ways are left
     * out), and per matched connection its peer.
     *
     * @param ranks  sorted first-appearance keys of all connections (their stream numbers)
     * @param ranked the numbering, {@link ArchiveNumbering#ranked ranked} with {@code ranks}
     */
    public static VantagePlan of(List<Found> found, long[] ranks, ArchiveNumbering ranked) {
        Map<Long, ClockSamples> merged = new TreeMap<>();
        for (Found f : found) {
            for (Map.Entry<Long, ClockSamples> e : f.samples().entrySet()) {
                ClockSamples m = merged.get(e.getKey());
                if (m == null) {
                    merged.put(e.getKey(), e.getValue());
                } else {
                    m.merge(e.getValue());
                }
            }
        }
        Map<Long, PairClock> clocks = new TreeMap<>();
        for (Map.Entry<Long, ClockSamples> e : merged.entrySet()) {
            ClockSamples.Oriented o = e.getValue().estimate();
            if (o != null) {
                int x = (int) (e.getKey() >>> 32);
                int y = (int) (long) e.getKey();
                clocks.put(e.getKey(), o.xNearerClients() ? new PairClock(x, y, o.clock())
                        : new PairClock(y, x, o.clock()));
            }
        }
        Map<Long, Peer> peers = new HashMap<>();
        for (Found f : found) {
            for (Link l : f.links()) {
                if (clocks.containsKey(pairKey(l.sourceX(), l.sourceY()))) {
                    peers.putIfAbsent(l.keyX(), peer(l.sourceY(), l.keyY(), l.uidY(), l.byIsn(), ranks,
                            ranked));
                    peers.putIfAbsent(l.keyY(), peer(l.sourceX(), l.keyX(), l.uidX(), l.byIsn(), ranks,
                            ranked));
                }
            }
        }
        return new VantagePlan(List.copyOf(clocks.values()), peers, stallAckDelays(found, clocks),
                serverTurnarounds(found, clocks));
    }

    /** Each matched connection's exchanges' turnarounds at B (nearer the server), for both connections' keys. */
    private static Map<Long, Map<Integer, Long>> serverTurnarounds(List<Found> found, Map<Long, PairClock> clocks) {
        Map<Long, Map<Integer, Long>> out = new HashMap<>();
        for (Found f : found) {
            for (Turnarounds t : f.turnarounds()) {
                PairClock c = clocks.get(pairKey(t.sourceX(), t.sourceY()));
                if (c != null) {
                    Map<Integer, Long> atB = c.sourceB() == t.sourceX() ? t.atX() : t.atY();
                    out.putIfAbsent(t.keyX(), atB);
                    out.putIfAbsent(t.keyY(), atB);
                }
            }
        }
        return out;
    }

    /** Each stall ACK's delay at the source nearer the acking host: A (nearer the clients) for the originator's. */
    private static Map<Long, Long> stallAckDelays(List<Found> found, Map<Long, PairClock> clocks) {
        Map<Long, Long> out = new HashMap<>();
        for (Found f : found) {
            for (StallAck s : f.stallAcks()) {
                PairClock c = clocks.get(pairKey(s.sourceX(), s.sourceY()));
                if (c != null) {
                    StallAcks.Delays d = s.delays();
                    long nearer = d.ackerIsOriginatorAtX() == (c.sourceA() == s.sourceX()) ? d.atXNanos()
                            : d.atYNanos();
                    out.putIfAbsent(frameKey(s.sourceX(), d.frameX()), nearer);
                    out.putIfAbsent(frameKey(s.sourceY(), d.frameY()), nearer);
                }
            }
        }
        return out;
    }

    /** Sets an {@code exchanges} row's {@code peer_server_turnaround_us} when the source nearer the server has it. */
    void exchangeRow(RowBuffer r, long connectionKey, int index) {
        Map<Integer, Long> t = serverTurnarounds.get(connectionKey);
        Long d = t == null ? null : t.get(index);
        if (d != null) {
            r.setLong(EXCHANGE_PEER_SERVER, d / 1000);
        }
    }

    /** Sets a {@code stalls} row's {@code peer_ack_delay_us} when its ACK ({@code ackFrame} of a source) has one. */
    void stallRow(RowBuffer r, int source, long ackFrame) {
        Long d = stallAckDelays.get(frameKey(source, ackFrame));
        if (d != null) {
            r.setLong(STALL_PEER_ACK, d / 1000);
        }
    }

    private static Peer peer(int source, long key, String uid, boolean byIsn, long[] ranks,
                             ArchiveNumbering ranked) {
        int rank = Arrays.binarySearch(ranks, key);
        if (rank < 0) {
            throw new IllegalStateException("connection " + key + " was not seen in pass 1");
        }
        return new Peer(ranked.sourceName(source), ranked.stream(rank, EngineTask.fileOf(key)), uid, byIsn);
    }

    /** The pairs of sources with connections in common, by source order. */
    List<PairClock> pairs() {
        return pairs;
    }

    /** The peer of the connection with first-appearance key {@code key}, or null. */
    Peer peer(long key) {
        return peers.get(key);
    }

    /**
     * The connection was matched with one in another source that has its 4-tuple ({@code byIsn} false: the peer is
     * in the same shuffle partition) or another one ({@code byIsn} true: in a {@link NatPairs} group).
     */
    boolean matched(long key, boolean byIsn) {
        Peer p = peers.get(key);
        return p != null && p.byIsn() == byIsn;
    }
}
