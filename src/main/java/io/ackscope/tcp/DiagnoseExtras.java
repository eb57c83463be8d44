package io.ackscope.tcp;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code diagnose} shows of one server endpoint beside its {@link EndpointAggregate.Endpoint}, values the
 * tables do not have: ACKs per {@link AckClass} and side, ACK delay by acking side, data RTT without Karn-ambiguous
 * samples, the stalls by holding side with their ACK delays, bands and delayed-ACK timers (which choose the fix),
 * client think time, retransmission timeouts and zero-window waits, connections a RST ended after churn, and where
 * the capture point sat. Values in µs as the tables store them ({@code nanoseconds / 1000}); filled by
 * {@link Diagnosis} as events come, read by {@link EndpointDiagnosis}.
 */
final class DiagnoseExtras {
    /** Exchanges after the first on their connection, and of those the stalled ones. */
    private long laterExchanges, laterExchangesStalled;
    private long rtoEvents, rtoNanos, zeroWindowWaits, zeroWindowNanos;
    /** Of its connections with a churn event: those a RST ended (Zeek history R or r). */
    private long churnResets;
    private final Map<CapturePoint, Long> capturePoints = new LinkedHashMap<>();
    private final long[][] ackClasses = new long[2][AckClass.values().length];   // [acking side][class]
    private final ValueCounts dataRtt = new ValueCounts();
    private final ValueCounts[] ackDelay = {new ValueCounts(), new ValueCounts()};          // [acking side]
    private final ValueCounts[] stallAckDelay = {new ValueCounts(), new ValueCounts()};     // [holding side]
    private final ValueCounts stallDuration = new ValueCounts();
    private final ValueCounts clientThink = new ValueCounts();
    /** Stalls per holding side, and of those the ones whose ACK delay is of the 200 ms-class timer. */
    private final long[] stalls = new long[2], stalls200ms = new long[2];
    @SuppressWarnings("unchecked")
    private final Map<AckClass, Long>[] stallBands = new Map[] {new EnumMap<>(AckClass.class),
            new EnumMap<>(AckClass.class)};

    /** In µs, truncated, as the tables store them ({@code value_us} = nanoseconds / 1000). */
    private static void record(ValueCounts h, long nanos) {
        h.add(Math.max(0, nanos / 1000));
    }

    void dataRtt(long nanos) {
        record(dataRtt, nanos);
    }

    void ackDelay(AckDelay d) {
        record(ackDelay[d.ackingSide().ordinal()], d.valueNanos());
        ackClasses[d.ackingSide().ordinal()][d.ackClass().ordinal()]++;
    }

    void stall(Stall s) {
        int side = s.holdingSide().ordinal();
        record(stallDuration, s.durationNanos());
        stalls[side]++;
        record(stallAckDelay[side], s.ackDelayNanos());
        stallBands[side].merge(AckClass.delayedBand(s.ackDelayNanos()), 1L, Long::sum);
        if (DelayedAckTimer.of(s.ackDelayNanos()) == DelayedAckTimer.CLASS_200MS) {
            stalls200ms[side]++;
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

    void exchange(Exchange x) {
        if (x.index() > 0) {
            laterExchanges++;
            if (x.stallNanos() > 0 || x.responseStallNanos() > 0) {
                laterExchangesStalled++;
            }
        }
    }

    /** Client think time, ns (see {@link EndpointDiagnosis#clientThink()}). */
    void clientThink(long nanos) {
        record(clientThink, nanos);
    }

    /** A finished connection; {@code churned}: it had a churn event (a RST ending it then counts). */
    void connection(ConnectionRecord c, boolean churned) {
        capturePoints.merge(c.capturePoint(), 1L, Long::sum);
        if (churned && c.history() != null && (c.history().indexOf('R') >= 0 || c.history().indexOf('r') >= 0)) {
            churnResets++;
        }
    }

    // ---- read by EndpointDiagnosis ----------------------------------------------------------------------------

    /** Its connections by where the capture point sat, in the order first seen (not to be changed). */
    Map<CapturePoint, Long> capturePoints() {
        return capturePoints;
    }

    /** ACKs sent by {@code side}, per {@link AckClass} (a copy). */
    long[] ackClasses(Side side) {
        return ackClasses[side.ordinal()].clone();
    }

    ValueCounts dataRtt() {
        return dataRtt;
    }

    /** ACK delays of the ACKs {@code side} sent. */
    ValueCounts ackDelay(Side side) {
        return ackDelay[side.ordinal()];
    }

    /** The ACK delays that ended the stalls {@code side} held. */
    ValueCounts stallAckDelay(Side side) {
        return stallAckDelay[side.ordinal()];
    }

    /** The stalls {@code side} held, per {@link AckClass#delayedBand} of their ACK delay. */
    Map<AckClass, Long> stallBands(Side side) {
        return stallBands[side.ordinal()];
    }

    ValueCounts stallDuration() {
        return stallDuration;
    }

    ValueCounts clientThink() {
        return clientThink;
    }

    /** The stalls {@code side} held. */
    long stalls(Side side) {
        return stalls[side.ordinal()];
    }

    long churnResets() {
        return churnResets;
    }

    /** Exchanges after the first on their connection. */
    long laterExchanges() {
        return laterExchanges;
    }

    /** Of {@link #laterExchanges}, those stalled. */
    long laterExchangesStalled() {
        return laterExchangesStalled;
    }

    long rtoEvents() {
        return rtoEvents;
    }

    long rtoNanos() {
        return rtoNanos;
    }

    long zeroWindowWaits() {
        return zeroWindowWaits;
    }

    long zeroWindowNanos() {
        return zeroWindowNanos;
    }

    /**
     * The delayed-ACK timer that held the stalls of side {@code side}: the 200 ms class when at least half of their
     * ACK delays are {@link DelayedAckTimer#CLASS_200_FROM_NANOS} or more (the median's class).
     */
    DelayedAckTimer timer(Side side) {
        int s = side.ordinal();
        return stalls[s] > 0 && stalls200ms[s] * 2 >= stalls[s] ? DelayedAckTimer.CLASS_200MS
                : DelayedAckTimer.CLASS_40MS;
    }
}
