package io.ackscope.vantage;

import io.ackscope.tcp.Addresses;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lines up two capture points: matches their connections ({@link ConnectionMatcher}) and segments
 * ({@link SegmentMatcher}), decides which point is nearer the clients, estimates the clock offset
 * ({@link ClockEstimate}), and derives one-way delays, loss per direction, and the hosts' own times from both
 * sides ({@link HostTimes}: the client's ACK delays, the server's turnarounds).
 *
 * <p>Which point is A: a client's segment reaches the point nearer the client first, and a server's segment
 * reaches it last, so over the matched segments {@code median(tY - tX)} (client to server) plus
 * {@code median(tX - tY)} (server to client) is a round trip between the points when X is nearer the clients and
 * minus one otherwise, whatever the clock offset: its sign decides. (It is the same test as "the client's SYN
 * is seen first once the clocks are aligned", and works without a handshake.)
 *
 * <p>Loss: a segment seen at one point only is lost between them when it was seen where it leaves (a client segment
 * at A, a server segment at B) and falls within the time both points saw the connection (between its first and last
 * matched segment there), so a capture that started later or stopped earlier is not counted as loss.
 */
public final class PairAnalysis {
    private PairAnalysis() {
    }

    /** Matches {@code p} and {@code q}; null when they have no connection in common. */
    public static VantagePair analyze(PointSegments p, PointSegments q) {
        return analyze(p, q, false);
    }

    /** As {@link #analyze(PointSegments, PointSegments)}; {@code swapped}: q was found nearer the clients once. */
    private static VantagePair analyze(PointSegments p, PointSegments q, boolean swapped) {
        List<ConnectionMatcher.Pair> pairs = ConnectionMatcher.match(p, q);
        if (pairs.isEmpty()) {
            return null;
        }
        List<SegmentMatcher.Result> results = new ArrayList<>();
        Samples s = new Samples();
        for (ConnectionMatcher.Pair c : pairs) {
            SegmentMatcher.Result r = SegmentMatcher.match(p, c.x(), q, c.y(), c.flip());
            results.add(r);
            s.add(p, c.x(), q, r);
        }
        if (s.toServer.n == 0 || s.toClient.n == 0) {
            return null;
        }
        if (!swapped && s.toServer.median() + s.toClient.median() < 0) {
            return analyze(q, p, true);
        }
        ClockEstimate clock = ClockEstimate.estimate(s.toServer.times(), s.toServer.values(), s.toClient.times(),
                s.toClient.values());
        return build(p, q, pairs, results, clock);
    }

    /**
     * Lines up {@code a} and {@code b} with a clock found before ({@link ClockSamples}, over more than these
     * segments): {@code a} is taken as the point nearer the clients. Null when they have no connection in common.
     */
    public static VantagePair analyze(PointSegments a, PointSegments b, ClockEstimate clock) {
        List<ConnectionMatcher.Pair> pairs = ConnectionMatcher.match(a, b);
        if (pairs.isEmpty()) {
            return null;
        }
        List<SegmentMatcher.Result> results = new ArrayList<>();
        for (ConnectionMatcher.Pair c : pairs) {
            results.add(SegmentMatcher.match(a, c.x(), b, c.y(), c.flip()));
        }
        return build(a, b, pairs, results, clock);
    }

    /**
     * Two connections, one at each point, matched: their streams at X and at Y, and the segments' partners
     * ({@link StallAcks}).
     */
    public record StreamPair(long streamX, long streamY, PointConnection x, PointConnection y, int[] partnerOfX,
                             int[] partnerOfY) {
    }

    /**
     * Matches {@code x} and {@code y} and adds every matched segment to {@code out} (X's time and Y's): what a
     * clock estimate over several parts of the input needs. Returns the connections matched.
     */
    public static List<StreamPair> sample(PointSegments x, PointSegments y, ClockSamples out) {
        List<StreamPair> matched = new ArrayList<>();
        for (ConnectionMatcher.Pair c : ConnectionMatcher.match(x, y)) {
            SegmentMatcher.Result r = SegmentMatcher.match(x, c.x(), y, c.y(), c.flip());
            int[] sx = c.x().segments();
            for (int k = 0; k < sx.length; k++) {
                int j = r.partnerOfX()[k];
                if (j >= 0) {
                    out.add(x.fromOriginator(sx[k]), x.timeNanos(sx[k]), y.timeNanos(j));
                }
            }
            matched.add(new StreamPair(c.x().stream(), c.y().stream(), c.x(), c.y(), r.partnerOfX(),
                    r.partnerOfY()));
        }
        return matched;
    }

    private static VantagePair build(PointSegments a, PointSegments b, List<ConnectionMatcher.Pair> pairs,
                                     List<SegmentMatcher.Result> results, ClockEstimate clock) {
        List<MatchedConnection> connections = new ArrayList<>();
        List<OneWayDelay> delays = new ArrayList<>();
        HostTimes.Builder acks = new HostTimes.Builder();
        HostTimes.Builder turnarounds = new HostTimes.Builder();
        Map<String, Server> servers = new LinkedHashMap<>();
        LongList ab = new LongList();
        LongList ba = new LongList();
        long lostAB = 0, lostBA = 0, onlyDown = 0;
        for (int c = 0; c < pairs.size(); c++) {
            PointConnection ca = pairs.get(c).x();
            PointConnection cb = pairs.get(c).y();
            SegmentMatcher.Result r = results.get(c);
            String server = Addresses.endpoint(ca.tuple()[2], ca.tuple()[3], ca.ports()[1]);
            Server sv = servers.computeIfAbsent(server, k -> new Server(ca));
            sv.connections++;
            int[] sa = ca.segments();
            for (int k = 0; k < sa.length; k++) {
                int i = sa[k];
                int j = r.partnerOfX()[k];
                if (j < 0) {
                    continue;
                }
                long tA = a.timeNanos(i);
                boolean aToB = a.fromOriginator(i);
                long d = aToB ? b.timeNanos(j) - tA - clock.offsetAt(tA) : tA - b.timeNanos(j) + clock.offsetAt(tA);
                (aToB ? ab : ba).add(d, tA);
                (aToB ? sv.ab : sv.ba).add(d, tA);
                delays.add(new OneWayDelay(ca.stream(), cb.stream(), aToB, tA, b.timeNanos(j), d, a.seq(i),
                        a.payloadLength(i), a.order(i), b.order(j)));
            }
            int lostHere = unmatched(a, ca, r.partnerOfX(), true);
            int lostThere = unmatched(b, cb, r.partnerOfY(), pairs.get(c).flip());
            int downHere = unmatched(a, ca, r.partnerOfX(), false);
            int downThere = unmatched(b, cb, r.partnerOfY(), !pairs.get(c).flip());
            lostAB += lostHere;
            lostBA += lostThere;
            onlyDown += downHere + downThere;
            ClientAckDelays.add(acks, a, ca, b, r.partnerOfX());
            ClientAckDelays.add(sv.acks, a, ca, b, r.partnerOfX());
            ServerTurnarounds.add(turnarounds, a, ca, b, r.partnerOfX());
            ServerTurnarounds.add(sv.turnarounds, a, ca, b, r.partnerOfX());
            connections.add(new MatchedConnection(ca.stream(), cb.stream(),
                    Addresses.endpoint(ca.tuple()[0], ca.tuple()[1], ca.ports()[0]), server,
                    pairs.get(c).byIsn(), r.matched(), lostHere, lostThere, downHere + downThere));
        }
        SourcePair row = new SourcePair(a.source(), b.source(), pairs.size(), Math.round(clock.offsetNanos() / 1e3),
                Math.round(clock.errorNanos() / 1e3), clock.driftPpm(), Percentiles.micros(ab.values(), 50),
                Percentiles.micros(ab.values(), 99), Percentiles.micros(ba.values(), 50),
                Percentiles.micros(ba.values(), 99), lostAB, lostBA);
        List<ServerTimes> perServer = new ArrayList<>();
        for (Server sv : servers.values()) {
            perServer.add(sv.build());
        }
        return new VantagePair(row, clock, List.copyOf(connections), List.copyOf(delays), acks.build(),
                turnarounds.build(), onlyDown, List.copyOf(perServer));
    }

    /** One server endpoint's samples while a pair is built. */
    private static final class Server {
        final String ip;
        final int port;
        long connections;
        final HostTimes.Builder acks = new HostTimes.Builder();
        final HostTimes.Builder turnarounds = new HostTimes.Builder();
        final LongList ab = new LongList();
        final LongList ba = new LongList();

        Server(PointConnection c) {
            ip = Addresses.format(c.tuple()[2], c.tuple()[3]);
            port = c.ports()[1];
        }

        ServerTimes build() {
            return new ServerTimes(ip, port, connections, acks.build(), turnarounds.build(), ab.values(),
                    ba.values());
        }
    }

    /**
     * Segments of {@code c} at {@code p} without a partner, sent by the originator ({@code fromOriginator}) or the
     * responder, within the span of the connection's matched segments at that point.
     */
    private static int unmatched(PointSegments p, PointConnection c, int[] partner, boolean fromOriginator) {
        int[] seg = c.segments();
        int first = -1, last = -1;
        for (int k = 0; k < seg.length; k++) {
            if (partner[k] >= 0) {
                first = first < 0 ? k : first;
                last = k;
            }
        }
        int n = 0;
        for (int k = Math.max(0, first); k <= last; k++) {
            if (partner[k] < 0 && p.fromOriginator(seg[k]) == fromOriginator) {
                n++;
            }
        }
        return n;
    }

    /** Apparent delays of matched segments, X's clock against Y's, per direction. */
    private static final class Samples {
        final LongList toServer = new LongList();
        final LongList toClient = new LongList();

        void add(PointSegments x, PointConnection cx, PointSegments y, SegmentMatcher.Result r) {
            int[] sx = cx.segments();
            for (int k = 0; k < sx.length; k++) {
                int j = r.partnerOfX()[k];
                if (j >= 0) {
                    long tx = x.timeNanos(sx[k]);
                    if (x.fromOriginator(sx[k])) {
                        toServer.add(y.timeNanos(j) - tx, tx);
                    } else {
                        toClient.add(tx - y.timeNanos(j), tx);
                    }
                }
            }
        }
    }

    /** A growable list of (value, time) pairs of longs. */
    static final class LongList {
        private long[] v = new long[256];
        private long[] t = new long[256];
        int n;

        void add(long value, long time) {
            if (n == v.length) {
                v = Arrays.copyOf(v, n * 2);
                t = Arrays.copyOf(t, n * 2);
            }
            v[n] = value;
            t[n] = time;
            n++;
        }

        long[] values() {
            return Arrays.copyOf(v, n);
        }

        long[] times() {
            return Arrays.copyOf(t, n);
        }

        long median() {
            long[] s = values();
            Arrays.sort(s);
            return s[n / 2];
        }
    }
}
