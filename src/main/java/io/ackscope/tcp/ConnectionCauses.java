package io.ackscope.tcp;

import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one connection had, noted until its record says which server endpoint it belongs to
 * ({@link EndpointAggregate#connection}): its causes summed per {@link Cause} with their spans, its exchanges' spans
 * (two longs each) and its response time (the rule of {@link CauseRanking}). Its {@link #ranked} causes are the
 * connection's rows of {@code connection_causes}; {@link #write} and {@link #read} carry it with a connection held
 * for a later run.
 */
public final class ConnectionCauses {

    /**
     * One cause of one connection or, summed, of one endpoint. Its evidence is the frames of its costliest
     * occurrences, kept while they add up to fewer than {@link CauseEvent#MAX_FRAMES}: a choice that does not depend
     * on the order occurrences and tasks are merged in, so a table does not depend on partitioning.
     */
    public static final class Tally implements Serializable {
        private static final long serialVersionUID = 1L;
        /** Costliest first, then by frames: the occurrence's time lost (ns), then its frames. */
        private static final Comparator<long[]> COSTLIEST = (a, b) -> {
            if (a[0] != b[0]) {
                return Long.compare(b[0], a[0]);
            }
            return Arrays.compare(a, 1, a.length, b, 1, b.length);
        };
        private long connections, requests, events, count, timeLostUs;
        private final List<long[]> evidence = new ArrayList<>();

        /** Connections the cause occurred on (1 for one connection's). */
        public long connections() {
            return connections;
        }

        /** Exchanges whose span overlaps one of its occurrences (a handshake's: the first exchange). */
        public long requests() {
            return requests;
        }

        /** Occurrences: episodes, stalls, handshakes with retransmissions. */
        public long events() {
            return events;
        }

        /** Sum of the occurrences' counts. */
        public long count() {
            return count;
        }

        /** Time lost, µs: each occurrence's {@link CauseEvent#cost} rounded down to µs, summed. */
        public long timeLostMicros() {
            return timeLostUs;
        }

        private void occurrence(long timeLostNanos, long[] frames) {
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

        /**
         * The evidence frames, costliest occurrence first, each frame once (occurrences share frames: a queueing
         * delay's baseline sample, a stall's ACK), at most {@link CauseEvent#MAX_FRAMES}.
         */
        public long[] frames() {
            long[] f = new long[CauseEvent.MAX_FRAMES];
            int n = 0;
            for (long[] e : evidence) {
                for (int i = 1; i < e.length && n < f.length; i++) {
                    if (!contains(f, n, e[i])) {
                        f[n++] = e[i];
                    }
                }
            }
            return Arrays.copyOf(f, n);
        }

        private static boolean contains(long[] a, int n, long v) {
            for (int i = 0; i < n; i++) {
                if (a[i] == v) {
                    return true;
                }
            }
            return false;
        }

        private void write(DataOutput out) throws IOException {
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

        private static Tally read(DataInputStream in) throws IOException {
            Tally r = new Tally();
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

        /** Adds {@code o}'s sums and evidence to this one's. */
        void merge(Tally o) {
            connections += o.connections;
            requests += o.requests;
            events += o.events;
            count += o.count;
            timeLostUs += o.timeLostUs;
            evidence.addAll(o.evidence);
            select();
        }
    }

    // made at the first cause or exchange: most connections of a busy capture have few exchanges and no cause
    /** Its causes; null before the first. */
    private EnumMap<Cause, Tally> causes;
    /** Each cause's occurrences as {start, end} epoch nanoseconds; null before the first cause. */
    private EnumMap<Cause, List<long[]>> spans;
    private long[] exchanges = NO_EXCHANGES;
    private static final long[] NO_EXCHANGES = {};
    private int exchangeCount;
    private long responseNanos;

    /** One occurrence, its time lost as {@link CauseEvent#cost} counts it (in µs rounded down, each). */
    void add(CauseEvent e) {
        makeMaps();
        Tally r = causes.computeIfAbsent(e.cause(), k -> new Tally());
        r.events++;
        r.count += e.count();
        r.timeLostUs += e.cost() / 1000;
        r.occurrence(e.cost(), e.frames());
        spans.computeIfAbsent(e.cause(), k -> new ArrayList<>()).add(new long[] {e.startNanos(), e.endNanos()});
        responseNanos += Math.max(0, e.outsideNanos());
    }

    /** Makes the cause maps at the first cause. */
    private void makeMaps() {
        if (causes == null) {
            causes = new EnumMap<>(Cause.class);
            spans = new EnumMap<>(Cause.class);
        }
    }

    /** One exchange: its span (request's first byte to the later of request's and response's last) and time. */
    void add(Exchange x) {
        if (exchangeCount * 2 == exchanges.length) {
            exchanges = Arrays.copyOf(exchanges, Math.max(8, exchanges.length * 2));
        }
        exchanges[2 * exchangeCount] = x.requestStartNanos();
        exchanges[2 * exchangeCount + 1] = Math.max(x.requestEndNanos(), x.responseLastNanos());
        exchangeCount++;
        if (x.completeNanos() > 0) {
            responseNanos += x.completeNanos();
        }
    }

    /** Its exchanges. */
    int exchanges() {
        return exchangeCount;
    }

    /** Its response time, ns: the exchanges' complete times plus the time lost outside them. */
    public long responseNanos() {
        return responseNanos;
    }

    /** Settles it: each cause's {@link Tally#connections} 1 and {@link Tally#requests} the exchanges it affected. */
    void settle() {
        causes().forEach((cause, r) -> {
            r.connections = 1;
            r.requests = affected(cause);
        });
    }

    /** Its causes with their tallies. */
    Map<Cause, Tally> causes() {
        return causes == null ? Map.of() : causes;
    }

    /** The connection's causes in the ranking's order ({@link #rank}): its rows of connection_causes. */
    public List<Map.Entry<Cause, Tally>> ranked() {
        return rank(causes());
    }

    /**
     * {@code causes} in the order every ranking of causes uses ({@link CauseRanking#costOrder}): most time lost (in
     * µs) first, then most events, then {@link Cause} order.
     */
    static List<Map.Entry<Cause, Tally>> rank(Map<Cause, Tally> causes) {
        List<Map.Entry<Cause, Tally>> ranked = new ArrayList<>(causes.entrySet());
        ranked.sort((a, b) -> CauseRanking.costOrder(a.getValue().timeLostUs, a.getValue().events,
                a.getKey().ordinal(), b.getValue().timeLostUs, b.getValue().events, b.getKey().ordinal()));
        return ranked;
    }

    /** When the first occurrence of {@code c} began, epoch nanoseconds. */
    public long firstNanos(Cause c) {
        long first = Long.MAX_VALUE;
        for (long[] s : spans == null ? List.<long[]>of() : spans.getOrDefault(c, List.of())) {
            first = Math.min(first, s[0]);
        }
        return first;
    }

    /** Exchanges whose span overlaps one of {@code c}'s; a handshake retransmission affects the first one. */
    private long affected(Cause c) {
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

    /** Writes this connection's state for {@link #read}. */
    public void write(DataOutput out) throws IOException {
        out.writeByte(causes().size());
        for (Map.Entry<Cause, Tally> e : causes().entrySet()) {
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
    public static ConnectionCauses read(DataInputStream in) throws IOException {
        ConnectionCauses o = new ConnectionCauses();
        int n = in.readUnsignedByte();
        Cause[] all = Cause.values();
        for (int i = 0; i < n; i++) {
            int c = in.readUnsignedByte();
            if (c >= all.length) {
                throw new IOException("open connection causes: cause " + c + " of " + all.length);
            }
            o.makeMaps();
            o.causes.put(all[c], Tally.read(in));
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

    /** {@code n}, checked against the bytes left in {@code in} at {@code bytesEach} bytes an item. */
    private static int bounded(DataInputStream in, int n, int bytesEach) throws IOException {
        if (n < 0 || (long) n * bytesEach > in.available()) {
            throw new IOException("open connection causes: " + n + " items in " + in.available() + " bytes");
        }
        return n;
    }
}
