package io.ackscope.tcp;

import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per capture source and server endpoint (responder address and port): its latency and its causes, the one
 * aggregation the per-endpoint tables ({@code latency_summary}, {@code findings}) are made from, mergeable across
 * engine tasks and runs. Latency: counts, stall time and the exact multiset of each metric's values in µs
 * ({@link ValueCounts}: memory follows the distinct values, not the samples), so percentiles are exact and merging
 * is exact and order-independent. Causes: per {@link Cause} a {@link ConnectionCauses.Tally}, and the response
 * time and requests the shares are of (the rule of {@link CauseRanking}).
 *
 * <p>A connection's cause events, stalls and exchange spans are noted apart ({@link ConnectionCauses}) until its
 * record says which endpoint it belongs to (memory: two longs per exchange of each open connection); each
 * connection is in one task, so merging sums.
 *
 * <p>{@code diagnose} ({@link Diagnosis}) reads its verdict, causes, time lost, shares and these latency values
 * from an aggregate fed the same way, per connection record; what it shows beyond the tables is kept beside it
 * ({@link DiagnoseExtras}).
 */
public final class EndpointAggregate implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The latency metrics kept per endpoint, in this order: indexes into {@link Endpoint#metric}. */
    public static final int HANDSHAKE_RTT = 0, DATA_RTT = 1, ACK_DELAY = 2, TTFB = 3, COMPLETE = 4, METRICS = 5;

    /** One server endpoint of one source. */
    public static final class Endpoint implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String source;
        private final String ip;
        private final int port;
        private long connections, exchanges, stalls, stallUs;
        private final ValueCounts[] metrics = new ValueCounts[METRICS];
        private long responseUs;
        private long requests;
        private final EnumMap<Cause, ConnectionCauses.Tally> causes = new EnumMap<>(Cause.class);

        private Endpoint(String source, String ip, int port) {
            this.source = source;
            this.ip = ip;
            this.port = port;
            for (int m = 0; m < METRICS; m++) {
                metrics[m] = new ValueCounts();
            }
        }

        public String source() {
            return source;
        }

        public String ip() {
            return ip;
        }

        public int port() {
            return port;
        }

        /** Its finished connections. */
        public long connections() {
            return connections;
        }

        /** Exchanges of its connections, as their records count them. */
        public long exchanges() {
            return exchanges;
        }

        /** Nagle x delayed-ACK stalls of its connections. */
        public long stalls() {
            return stalls;
        }

        /** Their time, µs ({@link #stallMicros} of each connection, summed). */
        public long stallMicros() {
            return stallUs;
        }

        /** The values of metric {@code m} ({@link #HANDSHAKE_RTT} ... {@link #COMPLETE}), µs; not to be changed. */
        public ValueCounts metric(int m) {
            return metrics[m];
        }

        /** The response time the causes' shares are of, µs (each connection's rounded down to µs, summed). */
        public long responseMicros() {
            return responseUs;
        }

        /**
         * Its causes that are findings ({@link CauseRanking#finding} on the requests each affected), in the
         * ranking's order ({@link CauseRanking#costOrder} on time lost in µs).
         */
        public List<Map.Entry<Cause, ConnectionCauses.Tally>> findings() {
            List<Map.Entry<Cause, ConnectionCauses.Tally>> ranked = ConnectionCauses.rank(causes);
            ranked.removeIf(en -> !CauseRanking.finding(en.getKey(), en.getValue().requests(), requests));
            return ranked;
        }

        private void merge(Endpoint o) {
            connections += o.connections;
            exchanges += o.exchanges;
            stalls += o.stalls;
            stallUs += o.stallUs;
            for (int m = 0; m < METRICS; m++) {
                metrics[m].addAll(o.metrics[m]);
            }
            responseUs += o.responseUs;
            requests += o.requests;
            o.causes.forEach((c, r) -> causes.computeIfAbsent(c, x -> new ConnectionCauses.Tally()).merge(r));
        }
    }

    /** Keyed by "source NUL ip port", sorted. */
    private final TreeMap<String, Endpoint> endpoints = new TreeMap<>();
    private final transient Map<ConnectionId, ConnectionCauses> open = new HashMap<>();

    /**
     * {@code connections.stall_us}: the sum of its two parts as written ({@code server_held_stall_us +
     * client_held_stall_us}), so the columns add up exactly; the endpoint's stall time sums the same.
     */
    public static long stallMicros(ConnectionRecord c) {
        return c.respHeldStallNanos() / 1000 + c.origHeldStallNanos() / 1000;
    }

    private ConnectionCauses open(ConnectionId id) {
        return open.computeIfAbsent(id, k -> new ConnectionCauses());
    }

    public void cause(CauseEvent e) {
        open(e.connection()).add(e);
    }

    public void stall(Stall s) {
        open(s.connection()).add(CauseEvent.of(s));
    }

    public void exchange(Exchange x) {
        open(x.connection()).add(x);
    }

    /**
     * A finished connection of source {@code source} goes to its server endpoint: its record's counts, its handshake
     * RTT, the values its other records carried ({@code values}: of the {@link #DATA_RTT}, {@link #ACK_DELAY},
     * {@link #TTFB} and {@link #COMPLETE} metrics; null meaning none) and what was noted of
     * its causes and exchanges. Returns what was noted, settled (each cause's {@link ConnectionCauses.Tally#connections}
     * 1 and {@link ConnectionCauses.Tally#requests} the exchanges it affected: its rows of connection_causes), or
     * null when it had no cause and no exchange.
     */
    public ConnectionCauses connection(ConnectionRecord c, ConnectionValues values, String source) {
        Endpoint e = endpoints.computeIfAbsent(source + '\0' + c.resp().address() + " " + c.resp().port(),
                k -> new Endpoint(source, c.resp().address(), c.resp().port()));
        e.connections++;
        e.exchanges += c.exchanges();
        e.stalls += c.stalls();
        e.stallUs += stallMicros(c);
        if (c.initialRttNanos() >= 0) {
            e.metrics[HANDSHAKE_RTT].add(c.initialRttNanos() / 1000);
        }
        if (values != null) {
            for (int m = DATA_RTT; m < METRICS; m++) {
                values.addTo(m, e.metrics[m]);
            }
        }
        ConnectionCauses o = open.remove(c.id());
        if (o == null) {
            return null;
        }
        o.settle();
        e.responseUs += o.responseNanos() / 1000;
        e.requests += o.exchanges();
        o.causes().forEach((cause, r) -> e.causes.computeIfAbsent(cause, k -> new ConnectionCauses.Tally()).merge(r));
        return o;
    }

    /** The connections with causes or exchanges noted and no record yet. */
    public Set<ConnectionId> openIds() {
        return Collections.unmodifiableSet(open.keySet());
    }

    /** What open connection {@code id} has had so far (null: nothing). */
    public ConnectionCauses held(ConnectionId id) {
        return open.get(id);
    }

    /** Takes over what an earlier run noted of a connection it held. */
    public void resume(ConnectionId id, ConnectionCauses o) {
        open.put(id, o);
    }

    /** Forgets what open connection {@code id} has had so far (a revived attempt's first causes). */
    public void forget(ConnectionId id) {
        open.remove(id);
    }

    /** Takes over every open connection of {@code other} (which then has none). */
    public void resumeAll(EndpointAggregate other) {
        open.putAll(other.open);
        other.open.clear();
    }

    /** Compacts every value buffer (call before shipping it to another process). */
    public EndpointAggregate sealed() {
        for (Endpoint e : endpoints.values()) {
            for (ValueCounts v : e.metrics) {
                v.compact();
            }
        }
        return this;
    }

    /** The endpoints of source {@code source} alone (sharing their state with this aggregate). */
    public EndpointAggregate only(String source) {
        EndpointAggregate out = new EndpointAggregate();
        endpoints.forEach((k, e) -> {
            if (e.source.equals(source)) {
                out.endpoints.put(k, e);
            }
        });
        return out;
    }

    /** Adds {@code other}'s endpoints (taking over those this one lacks). */
    public void merge(EndpointAggregate other) {
        other.endpoints.forEach((k, e) -> {
            Endpoint mine = endpoints.get(k);
            if (mine == null) {
                endpoints.put(k, e);
            } else {
                mine.merge(e);
            }
        });
    }

    /** The endpoints, by source, then address and port as text. */
    public Collection<Endpoint> endpoints() {
        return Collections.unmodifiableCollection(endpoints.values());
    }
}
