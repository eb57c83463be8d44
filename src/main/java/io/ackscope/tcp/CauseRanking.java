package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The latency causes of one server endpoint ranked by the time each cost: the {@link CauseEvent}s of its connections
 * and its Nagle x delayed-ACK stalls, summed per {@link Cause}. What {@code diagnose} leads with (the diagnosis
 * starts from "requests were slow" and names what cost the most first).
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

    /** One cause of one endpoint, summed over its occurrences. */
    public static final class Total {
        public final Cause cause;
        /** Occurrences: episodes, stalls, handshakes with retransmissions. */
        public long events;
        /** Sum of the occurrences' counts (retransmissions, backoffs, zero-window segments; 1 per stall). */
        public long count;
        public long timeLostNanos;
        /** The first evidence frames, in arrival order, at most {@link CauseEvent#MAX_FRAMES}. */
        public final List<Long> frames = new ArrayList<>();
        private final Set<ConnectionId> connections = new HashSet<>();
        /** Of its stalls (Nagle x delayed ACK only): those whose ACK delay is in the 200 ms class. */
        private long stallsOf200msClass;

        Total(Cause cause) {
            this.cause = cause;
        }

        /**
         * The delayed-ACK timer that held a Nagle x delayed-ACK cause's stalls: the 200 ms class when at least half
         * of their ACK delays are {@link DelayedAckTimer#CLASS_200_FROM_NANOS} or more (the median's class); null
         * for any other cause.
         */
        public DelayedAckTimer timer() {
            if (cause != Cause.NAGLE_SERVER_HELD && cause != Cause.NAGLE_CLIENT_HELD) {
                return null;
            }
            return stallsOf200msClass * 2 >= events && events > 0 ? DelayedAckTimer.CLASS_200MS
                    : DelayedAckTimer.CLASS_40MS;
        }

        /** The fix in one line; for a stall, the one for the delaying host's timer ({@link #timer()}). */
        public String oneLineFix() {
            DelayedAckTimer t = timer();
            return t == null ? cause.oneLineFix() : t.oneLineFix(cause);
        }

        /** Connections on which the cause occurred. */
        public int connections() {
            return connections.size();
        }

        void add(CauseEvent e) {
            events++;
            count += e.count();
            timeLostNanos += e.cost();
            connections.add(e.connection());
            for (long f : e.frames()) {
                if (frames.size() < CauseEvent.MAX_FRAMES && f >= 0) {
                    frames.add(f);
                }
            }
        }
    }

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

    private final Map<Cause, Total> totals = new EnumMap<>(Cause.class);
    private long responseNanos;
    private long requests;

    void cause(CauseEvent e) {
        total(e.cause()).add(e);
        responseNanos += Math.max(0, e.outsideNanos());
    }

    void stall(Stall s) {
        CauseEvent e = CauseEvent.of(s);
        cause(e);
        Total t = total(e.cause());
        if (DelayedAckTimer.of(s.ackDelayNanos()) == DelayedAckTimer.CLASS_200MS) {
            t.stallsOf200msClass++;
        }
    }

    void exchange(Exchange x) {
        if (x.completeNanos() > 0) {
            responseNanos += x.completeNanos();
        }
        requests++;
    }

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

    private Total total(Cause c) {
        return totals.computeIfAbsent(c, Total::new);
    }

    /** The endpoint's response time the shares are of, nanoseconds (see the class comment). */
    public long responseNanos() {
        return responseNanos;
    }

    /**
     * The share 0-1 of the endpoint's response time that the causes found ({@link #ranked}) explain together: their
     * time lost summed, over the response time, at most 1 (causes that overlap in time, such as a stall inside a
     * slow server answer, are each counted whole, so this is an upper bound). The rest is unattributed: time no
     * detector accounts for.
     */
    public double explainedShare() {
        long lost = 0;
        for (Total t : ranked()) {
            lost += t.timeLostNanos;
        }
        return share(lost, responseNanos);
    }

    /** Share 0-1 of the endpoint's response time that {@code t} cost (0 when nothing was timed; at most 1). */
    public double share(Total t) {
        return share(t.timeLostNanos, responseNanos);
    }

    /** Whether {@code t} is a verdict: it cost at least {@link #VERDICT_SHARE} of the response time. */
    public boolean verdict(Total t) {
        return isVerdict(share(t));
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

    /**
     * The causes found, costliest first ({@link #costOrder}); a per-request cause on too few requests is left out
     * ({@link #finding}; its events are one per request).
     */
    public List<Total> ranked() {
        List<Total> l = new ArrayList<>();
        for (Total t : totals.values()) {
            if (finding(t.cause, t.events, requests)) {
                l.add(t);
            }
        }
        l.sort((x, y) -> costOrder(x.timeLostNanos, x.events, x.cause.ordinal(), y.timeLostNanos, y.events,
                y.cause.ordinal()));
        return l;
    }
}
