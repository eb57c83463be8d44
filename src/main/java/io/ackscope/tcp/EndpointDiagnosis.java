package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything {@code diagnose} knows about one server endpoint (responder address and port): its latency values in
 * µs as the tables store them ({@code value_us} = nanoseconds / 1000, {@link ValueCounts}), its ACK classes, its
 * stalls and other latency events, its causes ranked by time lost ({@link CauseRanking}), and its findings in words.
 * {@link Diagnosis} fills it; readers get numbers and words, and the value counts it returns are not to be changed.
 */
public final class EndpointDiagnosis {
    private final String server;
    private long connections;
    private long exchanges;
    /** Exchanges after the first on their connection, and of those the stalled ones. */
    private long laterExchanges, laterExchangesStalled;
    private long serverHeldStalls, clientHeldStalls;
    private long rtoEvents, rtoNanos, zeroWindowWaits, zeroWindowNanos;
    private long stallNanos;
    private final Map<CapturePoint, Long> vantage = new LinkedHashMap<>();
    private final CauseRanking causes = new CauseRanking();
    private final long[][] ackClasses = new long[2][AckClass.values().length];   // [acking side][class]
    private final ValueCounts handshakeRtt = new ValueCounts();
    private final ValueCounts dataRtt = new ValueCounts();
    private final ValueCounts clientAckDelay = new ValueCounts();
    private final ValueCounts serverAckDelay = new ValueCounts();
    private final ValueCounts ttfb = new ValueCounts();
    private final ValueCounts responseComplete = new ValueCounts();
    private final ValueCounts serverStallAckDelay = new ValueCounts();
    private final ValueCounts clientStallAckDelay = new ValueCounts();
    private final ValueCounts stallDuration = new ValueCounts();
    private final ValueCounts clientThink = new ValueCounts();
    /** Of its connections with a churn event: those a RST ended (Zeek history R or r). */
    private long churnResets;
    private final Map<AckClass, Long> serverStallBands = new HashMap<>();
    private final Map<AckClass, Long> clientStallBands = new HashMap<>();

    EndpointDiagnosis(String server) {
        this.server = server;
    }

    // ---- filled by Diagnosis -------------------------------------------------------------------------------------

    /** In µs, truncated, as the tables store them ({@code value_us} = nanoseconds / 1000). */
    private static void record(ValueCounts h, long nanos) {
        h.add(Math.max(0, nanos / 1000));
    }

    void dataRtt(long nanos) {
        record(dataRtt, nanos);
    }

    void ackDelay(AckDelay d) {
        record(d.ackingSide() == Side.ORIGINATOR ? clientAckDelay : serverAckDelay, d.valueNanos());
        ackClasses[d.ackingSide().ordinal()][d.ackClass().ordinal()]++;
    }

    void stall(Stall s) {
        causes.stall(s);
        stallNanos += s.durationNanos();
        record(stallDuration, s.durationNanos());
        AckClass band = AckClass.delayedBand(s.ackDelayNanos());
        if (s.holdingSide() == Side.RESPONDER) {
            serverHeldStalls++;
            record(serverStallAckDelay, s.ackDelayNanos());
            serverStallBands.merge(band, 1L, Long::sum);
        } else {
            clientHeldStalls++;
            record(clientStallAckDelay, s.ackDelayNanos());
            clientStallBands.merge(band, 1L, Long::sum);
        }
    }

    void latencyEvent(LatencyEvent ev) {
        if (ev.kind() == LatencyEvent.Kind.RETRANSMISSION_TIMEOUT) {
            rtoEvents++;
            rtoNanos += ev.durationNanos();
        } else {
            zeroWindowWaits++;
            zeroWindowNanos += ev.durationNanos();
        }
    }

    void cause(CauseEvent c) {
        causes.cause(c);
    }

    void exchange(Exchange x) {
        causes.exchange(x);
        exchanges++;
        boolean stalled = x.stallNanos() > 0 || x.responseStallNanos() > 0;
        if (x.index() > 0) {
            laterExchanges++;
            if (stalled) {
                laterExchangesStalled++;
            }
        }
        if (x.ttfbNanos() >= 0) {
            record(ttfb, x.ttfbNanos());
        }
        if (x.completeNanos() >= 0) {
            record(responseComplete, x.completeNanos());
        }
    }

    /** Client think time, ns (see {@link #clientThink()}). */
    void clientThink(long nanos) {
        record(clientThink, nanos);
    }

    /** A finished connection; {@code churned}: it had a churn event (a RST ending it then counts). */
    void connection(ConnectionRecord c, boolean churned) {
        connections++;
        vantage.merge(c.vantage(), 1L, Long::sum);
        if (churned && c.history() != null && (c.history().indexOf('R') >= 0 || c.history().indexOf('r') >= 0)) {
            churnResets++;
        }
        if (c.initialRttNanos() >= 0) {
            record(handshakeRtt, c.initialRttNanos());
        }
    }

    /** Takes back a connection counted at {@code point} (a revived attempt's first record). */
    void takeBack(CapturePoint point) {
        connections--;
        vantage.computeIfPresent(point, (v, n) -> n == 1 ? null : n - 1);
    }

    // ---- read ----------------------------------------------------------------------------------------------------

    /** Its address and port as text. */
    public String server() {
        return server;
    }

    public long connections() {
        return connections;
    }

    /** Its requests (exchanges). */
    public long exchanges() {
        return exchanges;
    }

    /** Its connections by where the capture point sat, in the order first seen. */
    public Map<CapturePoint, Long> vantage() {
        return Collections.unmodifiableMap(vantage);
    }

    /** The causes found on its connections, to rank by time lost. */
    public CauseRanking causes() {
        return causes;
    }

    /** ACKs sent by {@code side}, per {@link AckClass} (a copy). */
    public long[] ackClasses(Side side) {
        return ackClasses[side.ordinal()].clone();
    }

    public ValueCounts handshakeRtt() {
        return handshakeRtt;
    }

    /** Data RTT samples, Karn-ambiguous ones left out. */
    public ValueCounts dataRtt() {
        return dataRtt;
    }

    public ValueCounts clientAckDelay() {
        return clientAckDelay;
    }

    public ValueCounts serverAckDelay() {
        return serverAckDelay;
    }

    public ValueCounts ttfb() {
        return ttfb;
    }

    public ValueCounts responseComplete() {
        return responseComplete;
    }

    /** The stalls' durations. */
    public ValueCounts stallDuration() {
        return stallDuration;
    }

    /**
     * Client think time: from a response's last byte to the next request's first on the same connection, less
     * the path from the capture point to the client and back (its handshake leg). Informative: it is not
     * response time, so no cause is ranked on it (docs/causes.md).
     */
    public ValueCounts clientThink() {
        return clientThink;
    }

    public long serverHeldStalls() {
        return serverHeldStalls;
    }

    public long clientHeldStalls() {
        return clientHeldStalls;
    }

    /** The stalls' time, ns. */
    public long stallNanos() {
        return stallNanos;
    }

    /** Of its connections with a churn event: those a RST ended (Zeek history R or r). */
    public long churnResets() {
        return churnResets;
    }

    // ---- in words ------------------------------------------------------------------------------------------------

    /**
     * Connection churn with its evidence beyond the handshakes (docs/causes.md): the connections a RST ended
     * (the resetting side keeps no TIME_WAIT, a sign of a client that aborts to avoid it) and the SYNs that met
     * a 4-tuple closed less than 60 s before (a TIME_WAIT collision: the churn's count); null when churn is not
     * a finding here.
     */
    String churn() {
        for (CauseRanking.Total t : causes.ranked()) {
            if (t.cause == Cause.CONNECTION_CHURN) {
                return String.format(Locale.ROOT, "Connection churn: %d connections carried one "
                                + "request each and paid a handshake of %s for it; %d of them ended by RST, %d "
                                + "SYNs reused a 4-tuple closed less than 60 s before (TIME_WAIT collisions). "
                                + "Fix: %s", t.events, Diagnosis.ms(t.timeLostNanos), churnResets, t.count,
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
            String hit = laterExchanges > 0 ? String.format(Locale.ROOT,
                    "%s of requests after the first on a keep-alive connection (%d of %d)",
                    pct(laterExchangesStalled, laterExchanges), laterExchangesStalled, laterExchanges)
                    : serverHeldStalls + " pieces of responses";
            f.add(String.format(Locale.ROOT,
                    "Nagle x delayed ACK: %s wait ~%s for the client's delayed ACK (%s; %s) because the "
                            + "server sends with Nagle on: it writes each response in more than one piece and "
                            + "Nagle holds the rest until the first piece is acknowledged. Fix: %s",
                    hit, Diagnosis.ms(serverStallAckDelay.percentile(0.5) * 1000L), timer.words,
                    band(serverStallBands), timer.oneLineFix(Cause.NAGLE_SERVER_HELD)));
        }
        if (clientHeldStalls > 0) {
            DelayedAckTimer timer = DelayedAckTimer.of(clientStallAckDelay.percentile(0.5) * 1000L);
            f.add(String.format(Locale.ROOT,
                    "Nagle x delayed ACK: %d requests wait ~%s for the server's delayed ACK (%s; %s) because "
                            + "the client sends each request in more than one write with Nagle on. Fix: %s",
                    clientHeldStalls, Diagnosis.ms(clientStallAckDelay.percentile(0.5) * 1000L), timer.words,
                    band(clientStallBands), timer.oneLineFix(Cause.NAGLE_CLIENT_HELD)));
        }
        String churn = churn();
        if (churn != null) {
            f.add(churn);
        }
        if (rtoEvents > 0) {
            f.add(String.format(Locale.ROOT,
                    "%d retransmission timeouts cost %s in total: segments or their ACKs were lost and the "
                            + "sender waited for its retransmission timer (%s).", rtoEvents, Diagnosis.ms(rtoNanos),
                    Cause.RETRANSMISSION_TIMEOUT.fixInOneLine));
        }
        if (zeroWindowWaits > 0) {
            f.add(String.format(Locale.ROOT,
                    "%d zero-window waits cost %s in total: a receiver stopped reading and advertised a "
                            + "zero window, so its peer had to wait.", zeroWindowWaits, Diagnosis.ms(zeroWindowNanos)));
        }
        if (serverHeldStalls == 0 && clientHeldStalls == 0) {
            f.add(0, "No Nagle x delayed-ACK stall found.");
        }
        return f;
    }

    static String pct(long n, long of) {
        return of == 0 ? "0%" : String.format(Locale.ROOT, "%.1f%%", 100.0 * n / of);
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
