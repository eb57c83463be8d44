package io.ackscope.spark.engine;

import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tcp.Cause;
import io.ackscope.tcp.CauseEvent;
import io.ackscope.tcp.CauseRanking;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.Stall;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code findings} of one engine task, mergeable across tasks: per source, server endpoint and cause, the sums
 * of {@link FindingsTable}, and per endpoint the response time the shares are of (the rule of
 * {@link CauseRanking}). A connection's cause events, stalls and exchange spans are held until its record says
 * which endpoint it belongs to (memory: two longs per exchange of each open connection); each connection is in one
 * task, so merging sums.
 */
public final class FindingsAggregate implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * One cause of one endpoint (or, while open, of one connection). Its evidence is the frames of its costliest
     * occurrences, kept while they add up to fewer than {@link CauseEvent#MAX_FRAMES}: a choice that does not depend
     * on the order occurrences and tasks are merged in, so the table does not depend on partitioning.
     */
    static final class Row implements Serializable {
        private static final long serialVersionUID = 1L;
        /** Costliest first, then by frames: the occurrence's time lost (ns), then its frames. */
        private static final Comparator<long[]> COSTLIEST = (a, b) -> {
            if (a[0] != b[0]) {
                return Long.compare(b[0], a[0]);
            }
            return Arrays.compare(a, 1, a.length, b, 1, b.length);
        };
        long connections, requests, events, count, timeLostUs;
        private final List<long[]> evidence = new ArrayList<>();

        void occurrence(long timeLostNanos, long[] frames) {
            long[] e = new long[frames.length + 1];
            e[0] = timeLostNanos;
            System.arraycopy(frames, 0, e, 1, frames.length);
            evidence.add(e);
            select();
        }

        private void select() {
            evidence.sort(COSTLIEST);
            int frames = 0;
            int keep = 0;
            while (keep < evidence.size() && frames < CauseEvent.MAX_FRAMES) {
                frames += evidence.get(keep++).length - 1;
            }
            evidence.subList(keep, evidence.size()).clear();
        }

        /** The evidence frames, costliest occurrence first, at most {@link CauseEvent#MAX_FRAMES}. */
        long[] frames() {
            long[] f = new long[CauseEvent.MAX_FRAMES];
            int n = 0;
            for (long[] e : evidence) {
                for (int i = 1; i < e.length && n < f.length; i++) {
                    f[n++] = e[i];
                }
            }
            return Arrays.copyOf(f, n);
        }

        void write(java.io.DataOutput out) throws java.io.IOException {
            out.writeLong(connections);
            out.writeLong(requests);
            out.writeLong(events);
            out.writeLong(count);
            out.writeLong(timeLostUs);
            out.writeInt(evidence.size());
            for (long[] e : evidence) {
                out.writeInt(e.length);
                for (long v : e) {
                    out.writeLong(v);
                }
            }
        }

        static Row read(java.io.DataInputStream in) throws java.io.IOException {
            Row r = new Row();
            r.connections = in.readLong();
            r.requests = in.readLong();
            r.events = in.readLong();
            r.count = in.readLong();
            r.timeLostUs = in.readLong();
            int n = bounded(in, in.readInt(), 4);
            for (int i = 0; i < n; i++) {
                long[] e = new long[bounded(in, in.readInt(), 8)];
                for (int k = 0; k < e.length; k++) {
                    e[k] = in.readLong();
                }
                r.evidence.add(e);
            }
            return r;
        }

        public void merge(Row o) {
            connections += o.connections;
            requests += o.requests;
            events += o.events;
            count += o.count;
            timeLostUs += o.timeLostUs;
            evidence.addAll(o.evidence);
            select();
        }
    }

    /** One server endpoint of one source. */
    static final class Endpoint implements Serializable {
        private static final long serialVersionUID = 1L;
        final String source;
        final String ip;
        final int port;
        long responseUs;
        long requests;
        final EnumMap<Cause, Row> causes = new EnumMap<>(Cause.class);

        Endpoint(String source, String ip, int port) {
            this.source = source;
            this.ip = ip;
            this.port = port;
        }
    }

    /**
     * What one open connection had: its causes with their spans, its exchanges' spans, its response time. Carried
     * with a connection held for a later run ({@link OpenValues}) as {@link #write} gives it.
     */
    public static final class Open {
        final EnumMap<Cause, Row> causes = new EnumMap<>(Cause.class);
        final EnumMap<Cause, List<long[]>> spans = new EnumMap<>(Cause.class);
        long[] exchanges = new long[8];
        int exchangeCount;
        long responseNanos;

        /** One occurrence, its time lost as {@link CauseEvent#cost} counts it (in µs rounded down, each). */
        void add(CauseEvent e) {
            Row r = causes.computeIfAbsent(e.cause(), k -> new Row());
            r.events++;
            r.count += e.count();
            r.timeLostUs += e.cost() / 1000;
            r.occurrence(e.cost(), e.frames());
            spans.computeIfAbsent(e.cause(), k -> new ArrayList<>()).add(new long[] {e.startNanos(), e.endNanos()});
            responseNanos += Math.max(0, e.outsideNanos());
        }

        /** The connection's causes, costliest first (then in {@link Cause} order): its rows of connection_causes. */
        List<Map.Entry<Cause, Row>> ranked() {
            List<Map.Entry<Cause, Row>> ranked = new ArrayList<>(causes.entrySet());
            ranked.sort((a, b) -> a.getValue().timeLostUs != b.getValue().timeLostUs
                    ? Long.compare(b.getValue().timeLostUs, a.getValue().timeLostUs) : a.getKey().compareTo(b.getKey()));
            return ranked;
        }

        /** When the first occurrence of {@code c} began, epoch nanoseconds. */
        long firstNanos(Cause c) {
            long first = Long.MAX_VALUE;
            for (long[] s : spans.getOrDefault(c, List.of())) {
                first = Math.min(first, s[0]);
            }
            return first;
        }

        /** Writes this connection's state for {@link #read}. */
        void write(java.io.DataOutput out) throws java.io.IOException {
            out.writeByte(causes.size());
            for (Map.Entry<Cause, Row> e : causes.entrySet()) {
                out.writeByte(e.getKey().ordinal());
                e.getValue().write(out);
                List<long[]> sp = spans.getOrDefault(e.getKey(), List.of());
                out.writeInt(sp.size());
                for (long[] x : sp) {
                    out.writeLong(x[0]);
                    out.writeLong(x[1]);
                }
            }
            out.writeInt(exchangeCount);
            for (int i = 0; i < 2 * exchangeCount; i++) {
                out.writeLong(exchanges[i]);
            }
            out.writeLong(responseNanos);
        }

        /** Reads what {@link #write} wrote; every count is bounded by the bytes left. */
        static Open read(java.io.DataInputStream in) throws java.io.IOException {
            Open o = new Open();
            int n = in.readUnsignedByte();
            Cause[] all = Cause.values();
            for (int i = 0; i < n; i++) {
                int c = in.readUnsignedByte();
                if (c >= all.length) {
                    throw new java.io.IOException("open connection causes: cause " + c + " of " + all.length);
                }
                o.causes.put(all[c], Row.read(in));
                int spans = bounded(in, in.readInt(), 16);
                List<long[]> sp = new ArrayList<>(spans);
                for (int k = 0; k < spans; k++) {
                    sp.add(new long[] {in.readLong(), in.readLong()});
                }
                o.spans.put(all[c], sp);
            }
            o.exchangeCount = bounded(in, in.readInt(), 16);
            o.exchanges = new long[Math.max(8, 2 * o.exchangeCount)];
            for (int i = 0; i < 2 * o.exchangeCount; i++) {
                o.exchanges[i] = in.readLong();
            }
            o.responseNanos = in.readLong();
            return o;
        }

        /** Exchanges whose span overlaps one of {@code c}'s; a handshake retransmission affects the first one. */
        long affected(Cause c) {
            if (c == Cause.SYN_RETRANSMISSION || c == Cause.SYNACK_RETRANSMISSION || c == Cause.CONNECTION_CHURN) {
                return Math.min(1, exchangeCount);
            }
            long n = 0;
            for (int i = 0; i < exchangeCount; i++) {
                long from = exchanges[2 * i], to = exchanges[2 * i + 1];
                for (long[] s : spans.get(c)) {
                    if (s[0] <= to && s[1] >= from) {
                        n++;
                        break;
                    }
                }
            }
            return n;
        }
    }

    private final TreeMap<String, Endpoint> endpoints = new TreeMap<>();
    private final transient Map<ConnectionId, Open> open = new HashMap<>();

    private Open open(ConnectionId id) {
        return open.computeIfAbsent(id, k -> new Open());
    }

    /** {@code n}, checked against the bytes left in {@code in} at {@code bytesEach} bytes an item. */
    static int bounded(java.io.DataInputStream in, int n, int bytesEach) throws java.io.IOException {
        if (n < 0 || (long) n * bytesEach > in.available()) {
            throw new java.io.IOException("open connection causes: " + n + " items in " + in.available() + " bytes");
        }
        return n;
    }

    /** The connections with causes or exchanges noted and no record yet. */
    java.util.Set<ConnectionId> openIds() {
        return open.keySet();
    }

    /** What open connection {@code id} has had so far (null: nothing). */
    Open held(ConnectionId id) {
        return open.get(id);
    }

    /** Takes over what an earlier run noted of a connection it held ({@link OpenValues}). */
    void resume(ConnectionId id, Open o) {
        open.put(id, o);
    }

    /** Forgets what open connection {@code id} has had so far (a revived attempt's first causes). */
    void forget(ConnectionId id) {
        open.remove(id);
    }

    /** Takes over every open connection of {@code other} (which then has none). */
    void resumeAll(FindingsAggregate other) {
        open.putAll(other.open);
        other.open.clear();
    }

    /** The endpoints of source {@code source} alone (sharing their state with this aggregate). */
    public FindingsAggregate only(String source) {
        FindingsAggregate out = new FindingsAggregate();
        endpoints.forEach((k, e) -> {
            if (e.source.equals(source)) {
                out.endpoints.put(k, e);
            }
        });
        return out;
    }

    public void cause(CauseEvent e) {
        open(e.connection()).add(e);
    }

    public void stall(Stall s) {
        open(s.connection()).add(CauseEvent.of(s));
    }

    public void exchange(Exchange x) {
        Open o = open(x.connection());
        if (o.exchangeCount * 2 == o.exchanges.length) {
            o.exchanges = Arrays.copyOf(o.exchanges, o.exchanges.length * 2);
        }
        long end = Math.max(x.requestEndNanos(), x.responseLastNanos());
        o.exchanges[2 * o.exchangeCount] = x.requestStartNanos();
        o.exchanges[2 * o.exchangeCount + 1] = end;
        o.exchangeCount++;
        if (x.completeNanos() > 0) {
            o.responseNanos += x.completeNanos();
        }
    }

    /**
     * A finished connection: what it had goes to its server endpoint. Returns what it had, each cause's
     * {@link Row#connections} 1 and {@link Row#requests} the exchanges it affected (its rows of connection_causes),
     * or null when it had no cause and no exchange.
     */
    public Open connection(ConnectionRecord c, String source) {
        Open o = open.remove(c.id());
        if (o == null) {
            return null;
        }
        Endpoint e = endpoints.computeIfAbsent(source + '\0' + c.resp().address() + " " + c.resp().port(),
                k -> new Endpoint(source, c.resp().address(), c.resp().port()));
        e.responseUs += o.responseNanos / 1000;
        e.requests += o.exchangeCount;
        o.causes.forEach((cause, r) -> {
            r.connections = 1;
            r.requests = o.affected(cause);
            e.causes.computeIfAbsent(cause, k -> new Row()).merge(r);
        });
        return o;
    }

    public void merge(FindingsAggregate other) {
        other.endpoints.forEach((k, e) -> {
            Endpoint mine = endpoints.get(k);
            if (mine == null) {
                endpoints.put(k, e);
            } else {
                mine.responseUs += e.responseUs;
                mine.requests += e.requests;
                e.causes.forEach((c, r) -> mine.causes.computeIfAbsent(c, x -> new Row()).merge(r));
            }
        });
    }

    /** The table's rows: by source and endpoint, each endpoint's causes costliest first. */
    public List<RowBuffer> rows() {
        List<RowBuffer> rows = new ArrayList<>();
        for (Endpoint e : endpoints.values()) {
            List<Map.Entry<Cause, Row>> ranked = new ArrayList<>(e.causes.entrySet());
            ranked.sort((a, b) -> a.getValue().timeLostUs != b.getValue().timeLostUs
                    ? Long.compare(b.getValue().timeLostUs, a.getValue().timeLostUs) : a.getKey().compareTo(b.getKey()));
            ranked.removeIf(en -> !CauseRanking.finding(en.getKey(), en.getValue().requests, e.requests));
            long explained = 0;
            for (Map.Entry<Cause, Row> en : ranked) {
                explained += en.getValue().timeLostUs;
            }
            for (Map.Entry<Cause, Row> en : ranked) {
                Row r = en.getValue();
                rows.add(new RowBuffer(FindingsTable.TABLE).clear().setString(0, e.source).setString(1, e.ip)
                        .setInt(2, e.port).setString(3, en.getKey().name()).setLong(4, r.connections)
                        .setLong(5, r.requests).setLong(6, r.events).setLong(7, r.count).setLong(8, r.timeLostUs)
                        .setDouble(9, CauseRanking.share(r.timeLostUs, e.responseUs))
                        .setLongList(10, r.frames()).setLong(11, e.responseUs)
                        .setDouble(12, CauseRanking.share(explained, e.responseUs)));
            }
        }
        return rows;
    }
}
