package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per server endpoint: latency distributions, stalls and other latency causes, and findings in words a person can
 * act on. An {@link AnalysisSink}: feed it the engine's output, then read {@link #endpoints()}.
 *
 * <p>Latency values are kept exactly, in µs as the tables have them ({@link ValueCounts}: memory follows the
 * distinct values per endpoint and metric, not the samples), so percentiles are nearest rank over the data, the
 * same numbers as {@code latency_summary} and a {@code quantile_disc} over the tables; plus the endpoint of each
 * connection still open.
 */
public final class Diagnosis implements AnalysisSink {

    /** Everything known about one server endpoint (responder address and port). */
    public static final class Endpoint {
        public final String server;
        public long connections;
        public long exchanges;
        public long laterExchanges;            // exchanges after the first on their connection
        public long laterExchangesStalled;
        public long firstExchangesStalled;
        public long serverHeldStalls, clientHeldStalls;
        public long rtoEvents, rtoNanos, zeroWindowWaits, zeroWindowNanos;
        public long stallNanos;
        public final Map<CapturePoint, Long> vantage = new LinkedHashMap<>();
        /** The causes found on its connections, to rank by time lost. */
        public final CauseRanking causes = new CauseRanking();
        public final long[][] ackClasses = new long[2][AckClass.values().length];   // [acking side][class]
        public final ValueCounts handshakeRtt = hist();
        public final ValueCounts dataRtt = hist();
        public final ValueCounts clientAckDelay = hist();
        public final ValueCounts serverAckDelay = hist();
        public final ValueCounts ttfb = hist();
        public final ValueCounts responseComplete = hist();
        public final ValueCounts serverStallAckDelay = hist();
        public final ValueCounts clientStallAckDelay = hist();
        public final ValueCounts stallDuration = hist();
        /**
         * Client think time: from a response's last byte to the next request's first on the same connection, less
         * the path from the capture point to the client and back (its handshake leg). Informative: it is not
         * response time, so no cause is ranked on it (docs/causes.md).
         */
        public final ValueCounts clientThink = hist();
        /** Of its connections with a churn event: those a RST ended (Zeek history R or r). */
        public long churnResets;
        final Map<AckClass, Long> serverStallBands = new HashMap<>();
        final Map<AckClass, Long> clientStallBands = new HashMap<>();

        Endpoint(String server) {
            this.server = server;
        }

        /**
         * Connection churn with its evidence beyond the handshakes (docs/causes.md): the connections a RST ended
         * (the resetting side keeps no TIME_WAIT, a sign of a client that aborts to avoid it) and the SYNs that met
         * a 4-tuple closed less than 60 s before (a TIME_WAIT collision: the churn's count); null when churn is not
         * a finding here.
         */
        String churn() {
            for (CauseRanking.Total t : causes.ranked()) {
                if (t.cause == Cause.CONNECTION_CHURN) {
                    return String.format(java.util.Locale.ROOT, "Connection churn: %d connections carried one "
                                    + "request each and paid a handshake of %s for it; %d of them ended by RST, %d "
                                    + "SYNs reused a 4-tuple closed less than 60 s before (TIME_WAIT collisions). "
                                    + "Fix: %s", t.events, ms(t.timeLostNanos), churnResets, t.count,
                            Cause.CONNECTION_CHURN.oneLineFix());
                }
            }
            return null;
        }

        /** Findings in plain words, most important first; one "no stall" finding when there is nothing to fix. */
        public List<String> findings() {
            List<String> f = new ArrayList<>();
            if (serverHeldStalls > 0) {
                DelayedAckTimer timer = DelayedAckTimer.of(serverStallAckDelay.percentile(0.5) * 1000L);
                String hit = laterExchanges > 0 ? String.format(java.util.Locale.ROOT,
                        "%s of requests after the first on a keep-alive connection (%d of %d)",
                        pct(laterExchangesStalled, laterExchanges), laterExchangesStalled, laterExchanges)
                        : serverHeldStalls + " pieces of responses";
                f.add(String.format(java.util.Locale.ROOT,
                        "Nagle x delayed ACK: %s wait ~%s for the client's delayed ACK (%s; %s) because the "
                                + "server sends with Nagle on: it writes each response in more than one piece and "
                                + "Nagle holds the rest until the first piece is acknowledged. Fix: %s",
                        hit, ms(serverStallAckDelay.percentile(0.5) * 1000L), timer.words, band(serverStallBands),
                        timer.oneLineFix(Cause.NAGLE_SERVER_HELD)));
            }
            if (clientHeldStalls > 0) {
                DelayedAckTimer timer = DelayedAckTimer.of(clientStallAckDelay.percentile(0.5) * 1000L);
                f.add(String.format(java.util.Locale.ROOT,
                        "Nagle x delayed ACK: %d requests wait ~%s for the server's delayed ACK (%s; %s) because "
                                + "the client sends each request in more than one write with Nagle on. Fix: %s",
                        clientHeldStalls, ms(clientStallAckDelay.percentile(0.5) * 1000L), timer.words,
                        band(clientStallBands), timer.oneLineFix(Cause.NAGLE_CLIENT_HELD)));
            }
            String churn = churn();
            if (churn != null) {
                f.add(churn);
            }
            if (rtoEvents > 0) {
                f.add(String.format(java.util.Locale.ROOT,
                        "%d retransmission timeouts cost %s in total: segments or their ACKs were lost and the "
                                + "sender waited for its retransmission timer (%s).", rtoEvents, ms(rtoNanos),
                        Cause.RETRANSMISSION_TIMEOUT.fixInOneLine));
            }
            if (zeroWindowWaits > 0) {
                f.add(String.format(java.util.Locale.ROOT,
                        "%d zero-window waits cost %s in total: a receiver stopped reading and advertised a "
                                + "zero window, so its peer had to wait.", zeroWindowWaits, ms(zeroWindowNanos)));
            }
            if (serverHeldStalls == 0 && clientHeldStalls == 0) {
                f.add(0, "No Nagle x delayed-ACK stall found.");
            }
            return f;
        }
    }

    private final Map<String, Endpoint> endpoints = new HashMap<>();
    /** Connections with a churn event whose record has not come yet: its history tells whether a RST ended it. */
    private final java.util.Set<ConnectionId> churned = new java.util.HashSet<>();
    /** Server endpoint of each open connection, by its first-frame identity. */
    private final Map<ConnectionId, Endpoint> open = new HashMap<>();
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
        Endpoint endpoint;
        CapturePoint vantage;
        List<CauseEvent> causes;
    }

    private static ValueCounts hist() {
        return new ValueCounts();
    }

    @Override
    public void onFrame(Segment s, FrameAnalysis a) {
        if (!open.containsKey(a.connection)) {
            String server = a.fromOriginator ? Addresses.endpoint(s.dstHi, s.dstLo, s.dstPort)
                    : Addresses.endpoint(s.srcHi, s.srcLo, s.srcPort);
            open.put(a.connection, endpoints.computeIfAbsent(server, Endpoint::new));
        }
    }

    private Endpoint of(ConnectionId id) {
        Endpoint e = open.get(id);
        return e != null ? e : endpoints.computeIfAbsent("unknown", Endpoint::new);
    }

    @Override
    public void onRttSample(RttSample r) {
        if (r.kind() == RttSample.Kind.DATA_ACK && !r.karnAmbiguous()) {
            record(of(r.connection()).dataRtt, r.valueNanos());
        } else if (r.kind() == RttSample.Kind.HANDSHAKE_SYNACK_ACK) {
            clientSide(r.connection())[0] = r.valueNanos();
        }
    }

    @Override
    public void onAckDelay(AckDelay d) {
        Endpoint e = of(d.connection());
        record(d.ackingSide() == Side.ORIGINATOR ? e.clientAckDelay : e.serverAckDelay, d.valueNanos());
        e.ackClasses[d.ackingSide().ordinal()][d.ackClass().ordinal()]++;
    }

    @Override
    public void onStall(Stall s) {
        Endpoint e = of(s.connection());
        e.causes.stall(s);
        e.stallNanos += s.durationNanos();
        record(e.stallDuration, s.durationNanos());
        AckClass band = AckClass.delayedBand(s.ackDelayNanos());
        if (s.holdingSide() == Side.RESPONDER) {
            e.serverHeldStalls++;
            record(e.serverStallAckDelay, s.ackDelayNanos());
            e.serverStallBands.merge(band, 1L, Long::sum);
        } else {
            e.clientHeldStalls++;
            record(e.clientStallAckDelay, s.ackDelayNanos());
            e.clientStallBands.merge(band, 1L, Long::sum);
        }
    }

    @Override
    public void onLatencyEvent(LatencyEvent ev) {
        Endpoint e = of(ev.connection());
        if (ev.kind() == LatencyEvent.Kind.RETRANSMISSION_TIMEOUT) {
            e.rtoEvents++;
            e.rtoNanos += ev.durationNanos();
        } else {
            e.zeroWindowWaits++;
            e.zeroWindowNanos += ev.durationNanos();
        }
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
        of(c.connection()).causes.cause(c);
        if (c.cause() == Cause.CONNECTION_CHURN) {
            churned.add(c.connection());
        }
    }

    @Override
    public void onExchange(Exchange x) {
        Endpoint e = of(x.connection());
        e.causes.exchange(x);
        e.exchanges++;
        boolean stalled = x.stallNanos() > 0 || x.responseStallNanos() > 0;
        if (x.index() > 0) {
            e.laterExchanges++;
            if (stalled) {
                e.laterExchangesStalled++;
            }
        } else if (stalled) {
            e.firstExchangesStalled++;
        }
        if (x.ttfbNanos() >= 0) {
            record(e.ttfb, x.ttfbNanos());
        }
        if (x.completeNanos() >= 0) {
            record(e.responseComplete, x.completeNanos());
        }
        long[] c = clientSide(x.connection());
        if (c[1] >= 0) {
            record(e.clientThink, Math.max(0, x.requestStartNanos() - c[1] - Math.max(0, c[0])));
        }
        c[1] = x.responseLastNanos();
    }

    private long[] clientSide(ConnectionId id) {
        return clientSide.computeIfAbsent(id, k -> new long[] {-1, -1});
    }

    @Override
    public void onConnection(ConnectionRecord c) {
        clientSide.remove(c.id());
        Endpoint e = open.remove(c.id());
        if (e == null) {
            e = endpoints.computeIfAbsent(Addresses.endpointText(c.resp().address(), c.resp().port()),
                    Endpoint::new);
        }
        e.connections++;
        e.vantage.merge(c.vantage(), 1L, Long::sum);
        if (churned.remove(c.id()) && c.history() != null
                && (c.history().indexOf('R') >= 0 || c.history().indexOf('r') >= 0)) {
            e.churnResets++;
        }
        if (c.initialRttNanos() >= 0) {
            record(e.handshakeRtt, c.initialRttNanos());
        }
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
            ev.causes.forEach(ev.endpoint.causes::cause);
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
            ev.endpoint.connections--;
            ev.endpoint.vantage.computeIfPresent(ev.vantage, (v, n) -> n == 1 ? null : n - 1);
        }
    }

    /** Endpoints, busiest (most exchanges, then connections) first. Call after the engine's finish. */
    public List<Endpoint> endpoints() {
        for (ConnectionId id : List.copyOf(evicted.keySet())) {
            onAttemptSettled(id);        // tombstones held at the end of the input: their records are final
        }
        List<Endpoint> l = new ArrayList<>(endpoints.values());
        l.sort(Comparator.comparingLong((Endpoint e) -> e.exchanges).thenComparingLong(e -> e.connections)
                .reversed().thenComparing(e -> e.server));
        return l;
    }

    /** In µs, truncated, as the tables store them ({@code value_us} = nanoseconds / 1000). */
    private static void record(ValueCounts h, long nanos) {
        h.add(Math.max(0, nanos / 1000));
    }

    static String pct(long n, long of) {
        return of == 0 ? "0%" : String.format(java.util.Locale.ROOT, "%.1f%%", 100.0 * n / of);
    }

    /** Milliseconds with three decimals. */
    public static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    private static String band(Map<AckClass, Long> bands) {
        long total = 0;
        AckClass top = AckClass.DELAYED_OTHER;
        long topN = -1;
        for (Map.Entry<AckClass, Long> en : bands.entrySet()) {
            total += en.getValue();
            if (en.getValue() > topN) {
                topN = en.getValue();
                top = en.getKey();
            }
        }
        String name = switch (top) {
            case DELAYED_40MS -> "in the 36-50 ms band";
            case DELAYED_200MS -> "in the 180-230 ms band";
            default -> "outside the 40 ms and 200 ms bands";
        };
        return pct(topN, total) + " of them " + name;
    }
}
