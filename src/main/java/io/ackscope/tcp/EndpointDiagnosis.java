package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code diagnose} shows of one server endpoint (responder address and port), in numbers and words: its
 * {@link EndpointAggregate.Endpoint} (connections, requests, causes ranked by time lost with their shares and
 * evidence, handshake RTT, time to first byte and response complete: the numbers of the {@code findings} and
 * {@code latency_summary} tables) and the values only {@code diagnose} shows ({@link DiagnoseExtras}). The value
 * counts it returns are not to be changed.
 */
public final class EndpointDiagnosis {
    private final String server;
    private final EndpointAggregate.Endpoint endpoint;
    private final DiagnoseExtras x;

    EndpointDiagnosis(String server, EndpointAggregate.Endpoint endpoint, DiagnoseExtras extras) {
        this.server = server;
        this.endpoint = endpoint;
        this.x = extras;
    }

    /** Its address and port as text. */
    public String server() {
        return server;
    }

    public long connections() {
        return endpoint.connections();
    }

    /** Its requests (exchanges), as its connections' records count them. */
    public long exchanges() {
        return endpoint.exchanges();
    }

    /** Its connections by where the capture point sat, in the order first seen. */
    public Map<CapturePoint, Long> capturePoints() {
        return Collections.unmodifiableMap(x.capturePoints());
    }

    /**
     * Its causes that are findings, costliest first: {@link EndpointAggregate.Endpoint#findings}, the rows of the
     * {@code findings} table.
     */
    public List<Map.Entry<Cause, ConnectionCauses.Tally>> causes() {
        return endpoint.findings();
    }

    /** The response time the causes' shares are of, µs ({@link EndpointAggregate.Endpoint#responseMicros}). */
    public long responseMicros() {
        return endpoint.responseMicros();
    }

    /** Share 0-1 of the response time that {@code t} cost ({@link CauseRanking#share}). */
    public double share(ConnectionCauses.Tally t) {
        return CauseRanking.share(t.timeLostMicros(), endpoint.responseMicros());
    }

    /**
     * The share 0-1 of the response time the causes found explain together: their time lost summed, at most 1
     * (causes that overlap in time are each counted whole, so this is an upper bound); the rest is unattributed.
     */
    public double explainedShare() {
        long lost = 0;
        for (Map.Entry<Cause, ConnectionCauses.Tally> en : causes()) {
            lost += en.getValue().timeLostMicros();
        }
        return CauseRanking.share(lost, endpoint.responseMicros());
    }

    /**
     * The delayed-ACK timer that held a Nagle x delayed-ACK cause's stalls (the class of their median ACK delay);
     * null for any other cause.
     */
    public DelayedAckTimer timer(Cause c) {
        return c == Cause.NAGLE_SERVER_HELD ? x.timer(Side.RESPONDER)
                : c == Cause.NAGLE_CLIENT_HELD ? x.timer(Side.ORIGINATOR) : null;
    }

    /** The fix of {@code c} in one line; for a stall, the one for the delaying host's timer ({@link #timer}). */
    public String oneLineFix(Cause c) {
        DelayedAckTimer t = timer(c);
        return t == null ? c.oneLineFix() : t.oneLineFix(c);
    }

    /** ACKs sent by {@code side}, per {@link AckClass} (a copy). */
    public long[] ackClasses(Side side) {
        return x.ackClasses(side);
    }

    public ValueCounts handshakeRtt() {
        return endpoint.metric(EndpointAggregate.HANDSHAKE_RTT);
    }

    /** Data RTT samples, Karn-ambiguous ones left out (the table's {@code data_rtt} keeps them). */
    public ValueCounts dataRtt() {
        return x.dataRtt();
    }

    public ValueCounts clientAckDelay() {
        return x.ackDelay(Side.ORIGINATOR);
    }

    public ValueCounts serverAckDelay() {
        return x.ackDelay(Side.RESPONDER);
    }

    public ValueCounts ttfb() {
        return endpoint.metric(EndpointAggregate.TTFB);
    }

    public ValueCounts responseComplete() {
        return endpoint.metric(EndpointAggregate.COMPLETE);
    }

    /** The stalls' durations. */
    public ValueCounts stallDuration() {
        return x.stallDuration();
    }

    /**
     * Client think time: from a response's last byte to the next request's first on the same connection, less
     * the path from the capture point to the client and back (its handshake leg). Informative: it is not
     * response time, so no cause is ranked on it (docs/causes.md).
     */
    public ValueCounts clientThink() {
        return x.clientThink();
    }

    public long serverHeldStalls() {
        return x.stalls(Side.RESPONDER);
    }

    public long clientHeldStalls() {
        return x.stalls(Side.ORIGINATOR);
    }

    /** The stalls' time, µs, as {@code latency_summary.stall_us} has it ({@link EndpointAggregate#stallMicros}). */
    public long stallMicros() {
        return endpoint.stallMicros();
    }

    /** Of its connections with a churn event: those a RST ended (Zeek history R or r). */
    public long churnResets() {
        return x.churnResets();
    }

    // ---- in words ------------------------------------------------------------------------------------------------

    /**
     * Connection churn with its evidence beyond the handshakes (docs/causes.md): the connections a RST ended
     * (the resetting side keeps no TIME_WAIT, a sign of a client that aborts to avoid it) and the SYNs that met
     * a 4-tuple closed less than 60 s before (a TIME_WAIT collision: the churn's count); null when churn is not
     * a finding here.
     */
    String churn() {
        for (Map.Entry<Cause, ConnectionCauses.Tally> en : causes()) {
            ConnectionCauses.Tally t = en.getValue();
            if (en.getKey() == Cause.CONNECTION_CHURN) {
                return String.format(Locale.ROOT, "Connection churn: %d connections carried one "
                                + "request each and paid a handshake of %s for it; %d of them ended by RST, %d "
                                + "SYNs reused a 4-tuple closed less than 60 s before (TIME_WAIT collisions). "
                                + "Fix: %s", t.events(), Diagnosis.ms(t.timeLostMicros() * 1000), x.churnResets(),
                        t.count(),
                        Cause.CONNECTION_CHURN.oneLineFix());
            }
        }
        return null;
    }

    /** Findings in plain words, most important first; one "no stall" finding when there is nothing to fix. */
    public List<String> findings() {
        List<String> f = new ArrayList<>();
        if (serverHeldStalls() > 0) {
            ValueCounts ackDelay = x.stallAckDelay(Side.RESPONDER);
            DelayedAckTimer timer = DelayedAckTimer.of(ackDelay.percentile(0.5) * 1000L);
            long later = x.laterExchanges(), stalled = x.laterExchangesStalled();
            String hit = later > 0 ? String.format(Locale.ROOT,
                    "%s of requests after the first on a keep-alive connection (%d of %d)",
                    pct(stalled, later), stalled, later)
                    : serverHeldStalls() + " pieces of responses";
            f.add(String.format(Locale.ROOT,
                    "Nagle x delayed ACK: %s wait ~%s for the client's delayed ACK (%s; %s) because the "
                            + "server sends with Nagle on: it writes each response in more than one piece and "
                            + "Nagle holds the rest until the first piece is acknowledged. Fix: %s",
                    hit, Diagnosis.ms(ackDelay.percentile(0.5) * 1000L), timer.words,
                    band(x.stallBands(Side.RESPONDER)), timer.oneLineFix(Cause.NAGLE_SERVER_HELD)));
        }
        if (clientHeldStalls() > 0) {
            ValueCounts ackDelay = x.stallAckDelay(Side.ORIGINATOR);
            DelayedAckTimer timer = DelayedAckTimer.of(ackDelay.percentile(0.5) * 1000L);
            f.add(String.format(Locale.ROOT,
                    "Nagle x delayed ACK: %d requests wait ~%s for the server's delayed ACK (%s; %s) because "
                            + "the client sends each request in more than one write with Nagle on. Fix: %s",
                    clientHeldStalls(), Diagnosis.ms(ackDelay.percentile(0.5) * 1000L), timer.words,
                    band(x.stallBands(Side.ORIGINATOR)), timer.oneLineFix(Cause.NAGLE_CLIENT_HELD)));
        }
        String churn = churn();
        if (churn != null) {
            f.add(churn);
        }
        if (x.rtoEvents() > 0) {
            f.add(String.format(Locale.ROOT,
                    "%d retransmission timeouts cost %s in total: segments or their ACKs were lost and the "
                            + "sender waited for its retransmission timer (%s).", x.rtoEvents(),
                    Diagnosis.ms(x.rtoNanos()), Cause.RETRANSMISSION_TIMEOUT.fixInOneLine));
        }
        if (x.zeroWindowWaits() > 0) {
            f.add(String.format(Locale.ROOT,
                    "%d zero-window waits cost %s in total: a receiver stopped reading and advertised a "
                            + "zero window, so its peer had to wait.", x.zeroWindowWaits(),
                    Diagnosis.ms(x.zeroWindowNanos())));
        }
        if (serverHeldStalls() == 0 && clientHeldStalls() == 0) {
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
