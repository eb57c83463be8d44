package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per server endpoint: latency distributions, stalls and other latency causes, and findings in words a person can
 * act on. An {@link AnalysisSink}: feed it the engine's output, then read {@link #endpoints()}, one
 * {@link EndpointDiagnosis} per server endpoint.
 *
 * <p>Latency values are kept exactly, in µs as the tables have them ({@link ValueCounts}: memory follows the
 * distinct values per endpoint and metric, not the samples), so percentiles are nearest rank over the data, the
 * same numbers as {@code latency_summary} and a {@code quantile_disc} over the tables; plus the endpoint of each
 * connection still open.
 */
public final class Diagnosis implements AnalysisSink {

    private final Map<String, EndpointDiagnosis> endpoints = new HashMap<>();
    /** Connections with a churn event whose record has not come yet: its history tells whether a RST ended it. */
    private final java.util.Set<ConnectionId> churned = new java.util.HashSet<>();
    /** Server endpoint of each open connection, by its first-frame identity. */
    private final Map<ConnectionId, EndpointDiagnosis> open = new HashMap<>();
    /** Per open connection with exchanges: {its handshake leg to the client (-1), its last response's last byte}. */
    private final Map<ConnectionId, long[]> clientSide = new HashMap<>();
    /**
     * Unanswered attempts the engine's sweep gave before the end ({@link #onAttemptEvicted}) and still keeps as
     * tombstones: a later segment may revive one, and the engine then gives its results again, complete
     * ({@link #onAttemptRevived}). Each one's record is counted at once and taken back at a revival; its causes (the
     * retransmitted SYNs) wait until it is settled or the endpoints are read. About 100 bytes per tombstone.
     */
    private final Map<ConnectionId, Evicted> evicted = new HashMap<>();
    /** The attempt the sweep is giving (its causes and record come next), or null. */
    private ConnectionId evicting;

    /** What an evicted attempt added to its endpoint, and the causes it holds back. */
    private static final class Evicted {
        EndpointDiagnosis endpoint;
        CapturePoint vantage;
        List<CauseEvent> causes;
    }

    @Override
    public void onFrame(Segment s, FrameAnalysis a) {
        if (!open.containsKey(a.connection)) {
            String server = a.fromOriginator ? Addresses.endpoint(s.dstHi, s.dstLo, s.dstPort)
                    : Addresses.endpoint(s.srcHi, s.srcLo, s.srcPort);
            open.put(a.connection, endpoints.computeIfAbsent(server, EndpointDiagnosis::new));
        }
    }

    private EndpointDiagnosis of(ConnectionId id) {
        EndpointDiagnosis e = open.get(id);
        return e != null ? e : endpoints.computeIfAbsent("unknown", EndpointDiagnosis::new);
    }

    @Override
    public void onRttSample(RttSample r) {
        if (r.kind() == RttSample.Kind.DATA_ACK && !r.karnAmbiguous()) {
            of(r.connection()).dataRtt(r.valueNanos());
        } else if (r.kind() == RttSample.Kind.HANDSHAKE_SYNACK_ACK) {
            clientSide(r.connection())[0] = r.valueNanos();
        }
    }

    @Override
    public void onAckDelay(AckDelay d) {
        of(d.connection()).ackDelay(d);
    }

    @Override
    public void onStall(Stall s) {
        of(s.connection()).stall(s);
    }

    @Override
    public void onLatencyEvent(LatencyEvent ev) {
        of(ev.connection()).latencyEvent(ev);
    }

    @Override
    public void onCause(CauseEvent c) {
        if (c.connection().equals(evicting)) {
            Evicted ev = evicted.get(evicting);
            ev.endpoint = of(c.connection());
            if (ev.causes == null) {
                ev.causes = new ArrayList<>(1);
            }
            ev.causes.add(c);
            return;
        }
        of(c.connection()).cause(c);
        if (c.cause() == Cause.CONNECTION_CHURN) {
            churned.add(c.connection());
        }
    }

    @Override
    public void onExchange(Exchange x) {
        EndpointDiagnosis e = of(x.connection());
        e.exchange(x);
        long[] c = clientSide(x.connection());
        if (c[1] >= 0) {
            e.clientThink(Math.max(0, x.requestStartNanos() - c[1] - Math.max(0, c[0])));
        }
        c[1] = x.responseLastNanos();
    }

    private long[] clientSide(ConnectionId id) {
        return clientSide.computeIfAbsent(id, k -> new long[] {-1, -1});
    }

    @Override
    public void onConnection(ConnectionRecord c) {
        clientSide.remove(c.id());
        EndpointDiagnosis e = open.remove(c.id());
        if (e == null) {
            e = endpoints.computeIfAbsent(Addresses.endpointText(c.resp().address(), c.resp().port()),
                    EndpointDiagnosis::new);
        }
        e.connection(c, churned.remove(c.id()));
        if (c.id().equals(evicting)) {
            Evicted ev = evicted.get(evicting);
            ev.endpoint = e;
            ev.vantage = c.vantage();
            evicting = null;
        }
    }

    @Override
    public void onAttemptEvicted(ConnectionId id) {
        evicting = id;
        evicted.put(id, new Evicted());
    }

    /** The evicted attempt's record is final: its causes count. */
    @Override
    public void onAttemptSettled(ConnectionId id) {
        Evicted ev = evicted.remove(id);
        if (ev != null && ev.causes != null) {
            ev.causes.forEach(ev.endpoint::cause);
        }
    }

    /**
     * The evicted attempt goes on: its record and causes will come again, complete, so the first record is taken back
     * and its causes dropped (analyze and conv likewise keep a stream's last record).
     */
    @Override
    public void onAttemptRevived(ConnectionId id) {
        Evicted ev = evicted.remove(id);
        if (ev != null && ev.vantage != null) {
            ev.endpoint.takeBack(ev.vantage);
        }
    }

    /** Endpoints, busiest (most exchanges, then connections) first. Call after the engine's finish. */
    public List<EndpointDiagnosis> endpoints() {
        for (ConnectionId id : List.copyOf(evicted.keySet())) {
            onAttemptSettled(id);        // tombstones held at the end of the input: their records are final
        }
        List<EndpointDiagnosis> l = new ArrayList<>(endpoints.values());
        l.sort(Comparator.comparingLong(EndpointDiagnosis::exchanges).thenComparingLong(EndpointDiagnosis::connections)
                .reversed().thenComparing(EndpointDiagnosis::server));
        return l;
    }

    /** Milliseconds with three decimals. */
    public static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
