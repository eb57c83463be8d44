package io.ackscope.tcp;

import java.util.Set;

/**
 * The rules that rank the latency causes of one server endpoint by the time each cost ({@link #costOrder}), say
 * which are findings ({@link #finding}) and which may be the verdict ({@link #isVerdict}): the one ranking
 * {@code diagnose}, the {@code findings} table ({@link EndpointAggregate}) and the report apply.
 *
 * <p>A cause's share is its time lost over the endpoint's response time: the sum of its requests' response times
 * (first request byte to last new response byte, as {@link Exchange} measures them) plus the time lost that those
 * do not contain: the handshake retransmissions' (before the first request) and the loss recoveries' (a response
 * time ends at its last new segment, before a retransmission of its tail). A recovery in the middle of a response
 * is then counted twice in the denominator, so its share is a lower bound; stalls and zero windows lie inside the
 * response times. A share under {@link #VERDICT_SHARE} is listed but is not the verdict.
 */
public final class CauseRanking {
    /** Below this share of the endpoint's response time a cause is listed but never the verdict (1%). */
    public static final double VERDICT_SHARE = 0.01;

    /** Causes whose time lost is outside the requests' response times, so it is added to the denominator. */
    private static final Set<Cause> OUTSIDE_RESPONSE_TIME = java.util.EnumSet.of(Cause.SYN_RETRANSMISSION,
            Cause.SYNACK_RETRANSMISSION, Cause.FAST_RETRANSMIT, Cause.TAIL_LOSS_PROBE, Cause.RTO,
            Cause.SPURIOUS_RETRANSMISSION, Cause.CONNECTION_CHURN);

    /**
     * Causes found once per request (a slow answer, a long path, a queue, a connection of its own): one of them is
     * a finding only when it hit at least {@link #PATTERN_SHARE} of the endpoint's requests; fewer are a tail of slow requests, which the latency
     * distributions show, not a cause of the endpoint's latency.
     */
    private static final Set<Cause> PER_REQUEST = java.util.EnumSet.of(Cause.SERVER_PROCESSING, Cause.NETWORK_DELAY,
            Cause.QUEUEING_DELAY, Cause.CONNECTION_CHURN);
    /** Share of an endpoint's requests a per-request cause must hit to be a finding (10%). */
    public static final double PATTERN_SHARE = 0.10;

    /**
     * Whether {@code c}, found on {@code affected} of an endpoint's {@code requests} requests, is a finding: always,
     * except a per-request cause (server processing, network delay, queueing, churn) on under {@link #PATTERN_SHARE} of them.
     */
    public static boolean finding(Cause c, long affected, long requests) {
        // one connection with one request is not churn: that takes a second connection
        return !PER_REQUEST.contains(c) || (affected >= PATTERN_SHARE * requests
                && (c != Cause.CONNECTION_CHURN || affected > 1));
    }

    /**
     * Whether the time lost to {@code c} is outside the requests' response times (handshake retransmissions, loss
     * recoveries), so the share's denominator adds it (see the class comment).
     */
    public static boolean outsideResponseTime(Cause c) {
        return OUTSIDE_RESPONSE_TIME.contains(c);
    }

    /** The share 0-1 of {@code responseNanos} that {@code timeLostNanos} is (0 when nothing was timed; at most 1). */
    public static double share(long timeLostNanos, long responseNanos) {
        return responseNanos <= 0 ? 0 : Math.min(1.0, (double) timeLostNanos / responseNanos);
    }

    /**
     * The rule every reader of the ranking applies ({@code diagnose}, and the report on the {@code findings}
     * table): a cause with this share 0-1 of its endpoint's response time may be the verdict.
     */
    public static boolean isVerdict(double share) {
        return share >= VERDICT_SHARE;
    }

    /**
     * The ranking's order: most time lost first, then most events, then the cause's place in {@link Cause} (a
     * name this version does not know, {@code ordinal} -1, after the known ones), so the order is stable.
     */
    public static int costOrder(long timeLostA, long eventsA, int ordinalA, long timeLostB, long eventsB,
                                int ordinalB) {
        if (timeLostA != timeLostB) {
            return Long.compare(timeLostB, timeLostA);
        }
        if (eventsA != eventsB) {
            return Long.compare(eventsB, eventsA);
        }
        return Integer.compareUnsigned(ordinalA, ordinalB);
    }

    private CauseRanking() {
    }
}
