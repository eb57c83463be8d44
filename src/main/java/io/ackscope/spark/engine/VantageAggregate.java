package io.ackscope.spark.engine;

import io.ackscope.tcp.ValueCounts;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.VantageTables;
import io.ackscope.vantage.ServerTimes;
import io.ackscope.vantage.SourcePair;
import io.ackscope.vantage.VantagePair;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code source_pairs} and {@code host_times} rows, summed over the engine's second pass: per pair of sources
 * (and per server endpoint) the counts, and every one-way delay and host time as exact value counts in microseconds
 * ({@link ValueCounts}), so the percentiles are those of all segments whatever the partitioning.
 */
public final class VantageAggregate implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One pair's sums. */
    private static final class Pair implements Serializable {
        private static final long serialVersionUID = 1L;
        long connections, lostAtoB, lostBtoA, onlyDownstream, cut;
        final ValueCounts aToB = new ValueCounts();
        final ValueCounts bToA = new ValueCounts();
        final Map<String, Server> servers = new TreeMap<>();

        public void merge(Pair o) {
            connections += o.connections;
            lostAtoB += o.lostAtoB;
            lostBtoA += o.lostBtoA;
            onlyDownstream += o.onlyDownstream;
            cut += o.cut;
            aToB.addAll(o.aToB);
            bToA.addAll(o.bToA);
            for (Map.Entry<String, Server> e : o.servers.entrySet()) {
                Server s = servers.get(e.getKey());
                if (s == null) {
                    servers.put(e.getKey(), e.getValue());
                } else {
                    s.merge(e.getValue());
                }
            }
        }
    }

    /** One server endpoint's sums within a pair. */
    private static final class Server implements Serializable {
        private static final long serialVersionUID = 1L;
        final String ip;
        final int port;
        long connections;
        /** Client ACK delay at A and at B, a stall's at A, turnaround at B and at A, one-way each way. */
        final ValueCounts[] v = new ValueCounts[7];

        Server(String ip, int port) {
            this.ip = ip;
            this.port = port;
            for (int i = 0; i < v.length; i++) {
                v[i] = new ValueCounts();
            }
        }

        public void merge(Server o) {
            connections += o.connections;
            for (int i = 0; i < v.length; i++) {
                v[i].addAll(o.v[i]);
            }
        }
    }

    private final Map<Long, Pair> pairs = new TreeMap<>();

    /** Adds one partition's pair of points, lined up; {@code cut}: segments its points left out. */
    void add(long pairKey, VantagePair vp, long cut) {
        Pair p = pairs.computeIfAbsent(pairKey, k -> new Pair());
        SourcePair s = vp.summary();
        p.connections += s.connections();
        p.lostAtoB += s.lostAtoB();
        p.lostBtoA += s.lostBtoA();
        p.onlyDownstream += vp.onlyDownstream();
        p.cut += cut;
        for (ServerTimes t : vp.servers()) {
            Server sv = p.servers.computeIfAbsent(t.serverIp() + "|" + t.serverPort(),
                    k -> new Server(t.serverIp(), t.serverPort()));
            sv.connections += t.connections();
            addAll(sv.v[0], t.ackDelays().atANanos());
            addAll(sv.v[1], t.ackDelays().atBNanos());
            addAll(sv.v[2], t.ackDelays().marked().atANanos());
            addAll(sv.v[3], t.turnarounds().atBNanos());
            addAll(sv.v[4], t.turnarounds().atANanos());
            addAll(sv.v[5], t.oneWayAtoB());
            addAll(sv.v[6], t.oneWayBtoA());
            addAll(p.aToB, t.oneWayAtoB());
            addAll(p.bToA, t.oneWayBtoA());
        }
    }

    private static void addAll(ValueCounts v, long[] nanos) {
        for (long n : nanos) {
            v.add(Math.floorDiv(n, 1000L));
        }
    }

    public void merge(VantageAggregate o) {
        for (Map.Entry<Long, Pair> e : o.pairs.entrySet()) {
            Pair p = pairs.get(e.getKey());
            if (p == null) {
                pairs.put(e.getKey(), e.getValue());
            } else {
                p.merge(e.getValue());
            }
        }
    }

    /** The {@code source_pairs} rows, in the plan's pair order. */
    public List<RowBuffer> sourcePairRows(VantagePlan plan, ArchiveNumbering numbering) {
        List<RowBuffer> rows = new ArrayList<>();
        for (VantagePlan.PairClock c : plan.pairs()) {
            Pair p = pairs.get(VantagePlan.pairKey(c.sourceA(), c.sourceB()));
            if (p == null || p.connections == 0) {
                continue;
            }
            RowBuffer r = new RowBuffer(VantageTables.SOURCE_PAIRS).clear();
            int i = 0;
            r.setString(i++, numbering.sourceName(c.sourceA())).setString(i++, numbering.sourceName(c.sourceB()))
                    .setLong(i++, p.connections).setLong(i++, Math.round(c.clock().offsetNanos() / 1e3))
                    .setLong(i++, Math.round(c.clock().errorNanos() / 1e3)).setDouble(i++, c.clock().driftPpm());
            percentile(r, i++, p.aToB, 0.5);
            percentile(r, i++, p.aToB, 0.99);
            percentile(r, i++, p.bToA, 0.5);
            percentile(r, i++, p.bToA, 0.99);
            r.setLong(i++, p.lostAtoB).setLong(i++, p.lostBtoA).setLong(i++, p.onlyDownstream)
                    .setBoolean(i++, c.clock().errorNanos() <= io.ackscope.vantage.VantagePair.SPLIT_TOLERANCE_NANOS)
                    .setTimestampNanos(i++, c.clock().refNanos()).setInt(i++, c.clock().windows())
                    .setLong(i, p.cut);
            rows.add(r);
        }
        return rows;
    }

    /** The {@code host_times} rows: per pair (plan order), per server endpoint (by address text and port). */
    public List<RowBuffer> hostTimeRows(VantagePlan plan, ArchiveNumbering numbering) {
        List<RowBuffer> rows = new ArrayList<>();
        for (VantagePlan.PairClock c : plan.pairs()) {
            Pair p = pairs.get(VantagePlan.pairKey(c.sourceA(), c.sourceB()));
            if (p == null) {
                continue;
            }
            for (Server s : p.servers.values()) {
                RowBuffer r = new RowBuffer(VantageTables.HOST_TIMES).clear();
                int i = 0;
                r.setString(i++, numbering.sourceName(c.sourceA())).setString(i++, numbering.sourceName(c.sourceB()))
                        .setString(i++, s.ip).setInt(i++, s.port).setLong(i++, s.connections)
                        .setLong(i++, s.v[0].count());
                percentile(r, i++, s.v[0], 0.5);
                percentile(r, i++, s.v[1], 0.5);
                r.setLong(i++, s.v[2].count());
                percentile(r, i++, s.v[2], 0.5);
                percentile(r, i++, s.v[5], 0.5);
                percentile(r, i++, s.v[6], 0.5);
                r.setLong(i++, s.v[3].count());
                percentile(r, i++, s.v[3], 0.5);
                percentile(r, i, s.v[4], 0.5);
                rows.add(r);
            }
        }
        return rows;
    }

    /** Sets column {@code i} to the percentile, or leaves it null without values. */
    private static void percentile(RowBuffer r, int i, ValueCounts v, double p) {
        if (v.count() > 0) {
            r.setLong(i, v.percentile(p));
        }
    }
}
