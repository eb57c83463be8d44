package io.ackscope.vantage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the connections two capture points both saw. Candidates share the 4-tuple (either way round), or, through a
 * NAT that rewrote one side's addresses, both initial sequence numbers (and the originator's first TSval when both
 * points have one). The capture times are not compared, since the two clocks may differ by any amount; instead a
 * candidate must share segments: at least {@link #SHARED} / 2 of x's segments (or half of them, when it has fewer
 * than {@link #SHARED}; at least one) must occur at y with the same numbers ({@link SegmentMatcher.Key}), so two
 * captures that overlap only in part still pair their common connections. A 4-tuple reused later in the captures is a different
 * connection with other numbers, so it does not match. Each connection is paired at most once, best score first.
 */
final class ConnectionMatcher {
    /** Twice the segments a candidate must share (fewer when the connection at x has fewer). */
    static final int SHARED = 32;

    private ConnectionMatcher() {
    }

    /**
     * A pair of connections.
     *
     * @param flip  the points chose opposite originators
     * @param byIsn found through the initial sequence numbers, the 4-tuples differing (a NAT between the points)
     */
    record Pair(PointConnection x, PointConnection y, boolean flip, boolean byIsn, int score) {
    }

    static List<Pair> match(PointSegments x, PointSegments y) {
        Map<String, List<PointConnection>> byTuple = new HashMap<>();
        Map<String, List<PointConnection>> byIsn = new HashMap<>();
        for (PointConnection c : y.connections()) {
            byTuple.computeIfAbsent(tupleKey(c.tuple(), c.ports()), k -> new ArrayList<>()).add(c);
            if (c.origIsn() >= 0 && c.respIsn() >= 0) {
                byIsn.computeIfAbsent(c.origIsn() + "/" + c.respIsn(), k -> new ArrayList<>()).add(c);
            }
        }
        Map<Long, Set<SegmentMatcher.Key>> keysOfY = new HashMap<>();
        List<Pair> candidates = new ArrayList<>();
        for (PointConnection cx : x.connections()) {
            for (PointConnection cy : byTuple.getOrDefault(tupleKey(cx.tuple(), cx.ports()), List.of())) {
                boolean flip = cy.ports()[0] != cx.ports()[0] || !Arrays.equals(cy.tuple(), cx.tuple());
                score(x, cx, y, cy, flip, false, keysOfY, candidates);
            }
            if (cx.origIsn() >= 0 && cx.respIsn() >= 0) {
                for (PointConnection cy : byIsn.getOrDefault(cx.origIsn() + "/" + cx.respIsn(), List.of())) {
                    boolean sameTuple = Arrays.equals(cy.tuple(), cx.tuple()) && Arrays.equals(cy.ports(), cx.ports());
                    boolean tsAgree = cx.origFirstTsVal() < 0 || cy.origFirstTsVal() < 0
                            || cx.origFirstTsVal() == cy.origFirstTsVal();
                    if (!sameTuple && tsAgree) {
                        score(x, cx, y, cy, false, true, keysOfY, candidates);
                    }
                }
            }
        }
        candidates.sort(Comparator.comparingInt(Pair::score).reversed()
                .thenComparingLong(p -> p.x().stream()).thenComparingLong(p -> p.y().stream()));
        Set<Long> usedX = new HashSet<>();
        Set<Long> usedY = new HashSet<>();
        List<Pair> out = new ArrayList<>();
        for (Pair p : candidates) {
            if (!usedX.contains(p.x().stream()) && !usedY.contains(p.y().stream())) {
                usedX.add(p.x().stream());
                usedY.add(p.y().stream());
                out.add(p);
            }
        }
        out.sort(Comparator.comparingLong(p -> p.x().stream()));
        return out;
    }

    private static void score(PointSegments x, PointConnection cx, PointSegments y, PointConnection cy, boolean flip,
                              boolean byIsn, Map<Long, Set<SegmentMatcher.Key>> keysOfY, List<Pair> out) {
        Set<SegmentMatcher.Key> keys = keysOfY.computeIfAbsent(cy.stream(), s -> {
            Set<SegmentMatcher.Key> k = new HashSet<>();
            for (int i : cy.segments()) {
                k.add(SegmentMatcher.Key.of(y, i, false, false));
            }
            return k;
        });
        int hits = 0;
        for (int i : cx.segments()) {
            if (keys.contains(SegmentMatcher.Key.of(x, i, flip, false))) {
                hits++;
            }
        }
        if (hits > 0 && 2 * hits >= Math.min(SHARED, cx.segments().length)) {
            out.add(new Pair(cx, cy, flip, byIsn, hits));
        }
    }

    /** The 4-tuple with its two endpoints in a fixed order, so both orientations give one key. */
    static String tupleKey(long[] t, int[] ports) {
        String a = t[0] + ":" + t[1] + ":" + ports[0];
        String b = t[2] + ":" + t[3] + ":" + ports[1];
        return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
    }
}
