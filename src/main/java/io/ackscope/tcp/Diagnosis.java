package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Per server endpoint of one capture source: latency, causes and findings in words a person can act on. An
 * {@link AnalysisSink}: feed it the engine's output, then read {@link #endpoints()}, one {@link EndpointDiagnosis}
 * per server endpoint.
 *
 * <p>The verdict, causes, time lost, shares and the latency values the tables have come from one
 * {@link EndpointAggregate}, fed as {@code analyze} feeds it: cause events, stalls and exchanges noted per
 * connection ({@link ConnectionCauses}) until its record, which credits them and its values (in µs) to its server
 * endpoint; so {@code diagnose} and the {@code findings} and {@code latency_summary} tables agree by construction.
 * What only {@code diagnose} shows ({@link DiagnoseExtras}: ACK classes, ACK delay by side, the stalls' timers,
 * think time, data RTT without Karn-ambiguous samples) is kept beside it, per server endpoint, as events come.
 *
 * <p>It takes evicted attempts' records only when they are final ({@link #takesFinalRecordsOnly}), so that every
 * record counts as it comes and nothing is held for an attempt that may yet be revived (a SYN scan evicts millions).
 * A record given at eviction is refused ({@link #onAttemptEvicted}: a sink that forwards to a diagnosis must declare
 * the same).
 */
public final class Diagnosis implements AnalysisSink {

    private final String source;
    private final EndpointAggregate aggregate = new EndpointAggregate();
    /** The diagnose-only values per server endpoint text ({@link Addresses#endpointText}). */
    private final Map<String, DiagnoseExtras> extras = new HashMap<>();
    /** Server endpoint of each open connection, by its first-frame identity. */
    private final Map<ConnectionId, DiagnoseExtras> open = new HashMap<>();
    /** Values of open connections for the aggregate, until their record ({@link EndpointAggregate#connection}). */
    private final Map<ConnectionId, ConnectionValues> openValues = new HashMap<>();
    /** Connections with a churn event whose record has not come yet: its history tells whether a RST ended it. */
    private final Set<ConnectionId> churned = new HashSet<>();
    /** Per open connection with exchanges: {its handshake leg to the client (-1), its last response's last byte}. */
    private final Map<ConnectionId, long[]> clientSide = new HashMap<>();
    /** One capture source's diagnosis; {@code source} names it in the aggregate. */
    public Diagnosis(String source) {
        this.source = source;
    }

    public Diagnosis() {
        this("");
    }

    @Override
    public void onFrame(Segment s, FrameAnalysis a) {
        if (!open.containsKey(a.connection)) {
            String server = a.fromOriginator ? Addresses.endpoint(s.dstHi, s.dstLo, s.dstPort)
                    : Addresses.endpoint(s.srcHi, s.srcLo, s.srcPort);
            open.put(a.connection, extras(server));
        }
    }

    private DiagnoseExtras extras(String server) {
        return extras.computeIfAbsent(server, k -> new DiagnoseExtras());
    }

    private DiagnoseExtras of(ConnectionId id) {
        DiagnoseExtras e = open.get(id);
        return e != null ? e : extras("unknown");
    }

    /** A value for the aggregate, in µs as the tables have it (the same rule as analyze's table sink). */
    private void value(ConnectionId id, int metric, long nanos) {
        openValues.computeIfAbsent(id, k -> new ConnectionValues()).add(metric, nanos / 1000);
    }

    @Override
    public void onRttSample(RttSample r) {
        if (r.kind() == RttSample.Kind.DATA_ACK) {
            value(r.connection(), EndpointAggregate.DATA_RTT, r.valueNanos());
            if (!r.karnAmbiguous()) {
                of(r.connection()).dataRtt(r.valueNanos());
            }
        } else if (r.kind() == RttSample.Kind.HANDSHAKE_SYNACK_ACK) {
            clientSide(r.connection())[0] = r.valueNanos();
        }
    }

    @Override
    public void onAckDelay(AckDelay d) {
        value(d.connection(), EndpointAggregate.ACK_DELAY, d.valueNanos());
        of(d.connection()).ackDelay(d);
    }

    @Override
    public void onStall(Stall s) {
        aggregate.stall(s);
        of(s.connection()).stall(s);
    }

    @Override
    public void onLatencyEvent(LatencyEvent ev) {
        of(ev.connection()).latencyEvent(ev);
    }

    @Override
    public void onCause(CauseEvent c) {
        aggregate.cause(c);
        if (c.cause() == Cause.CONNECTION_CHURN) {
            churned.add(c.connection());
        }
    }

    @Override
    public void onExchange(Exchange x) {
        aggregate.exchange(x);
        if (x.ttfbNanos() >= 0) {
            value(x.connection(), EndpointAggregate.TTFB, x.ttfbNanos());
        }
        if (x.completeNanos() >= 0) {
            value(x.connection(), EndpointAggregate.COMPLETE, x.completeNanos());
        }
        DiagnoseExtras e = of(x.connection());
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
        open.remove(c.id());
        // a final record: the aggregate takes it with what its connection noted; its server endpoint counts it
        aggregate.connection(c, openValues.remove(c.id()), source);
        extras(Addresses.endpointText(c.resp().address(), c.resp().port()))
                .connection(c, churned.remove(c.id()));
    }

    @Override
    public boolean takesFinalRecordsOnly() {
        return true;
    }

    /** Called only when a sink forwarding to this one did not declare {@link #takesFinalRecordsOnly}: refused. */
    @Override
    public void onAttemptEvicted(ConnectionId id) {
        throw new IllegalStateException("a Diagnosis takes records only when final: a sink that forwards to it "
                + "must declare takesFinalRecordsOnly");
    }

    /** Endpoints, busiest (most exchanges, then connections) first. Call after the engine's finish. */
    public List<EndpointDiagnosis> endpoints() {
        List<EndpointDiagnosis> l = new ArrayList<>();
        for (EndpointAggregate.Endpoint e : aggregate.endpoints()) {
            String server = Addresses.endpointText(e.ip(), e.port());
            l.add(new EndpointDiagnosis(server, e, extras.getOrDefault(server, new DiagnoseExtras())));
        }
        l.sort(Comparator.comparingLong(EndpointDiagnosis::exchanges).thenComparingLong(EndpointDiagnosis::connections)
                .reversed().thenComparing(EndpointDiagnosis::server));
        return l;
    }

    /** Milliseconds with three decimals. */
    public static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
