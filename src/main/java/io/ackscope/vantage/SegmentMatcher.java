package io.ackscope.vantage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs the segments of one connection seen at two points. A segment is the same segment at both points when its
 * direction, sequence and acknowledgement numbers, payload length, flags and TSval agree; copies that agree on all of
 * these (a retransmission without timestamps, repeated pure ACKs) are told apart by their IP ID first, then taken
 * in order of occurrence. A segment left without a partner was seen at one point only: lost between them, or
 * outside the other capture.
 *
 * <p>Middleboxes that rewrite sequence numbers or strip TCP options break the match (the connection then matches
 * poorly and is not paired); a NAT that rewrites addresses and ports does not, since addresses are not compared
 * here.
 */
final class SegmentMatcher {
    private SegmentMatcher() {
    }

    /**
     * What matched: {@code partnerOfX[k]} is the index into {@code y} of the partner of x's k-th segment, or -1;
     * likewise {@code partnerOfY}.
     */
    record Result(int[] partnerOfX, int[] partnerOfY, int matched) {
    }

    /** Key of a segment; {@code ipId} is -1 in the second, IP-ID-blind pass. */
    record Key(boolean fromOriginator, long seq, long ack, int len, int flags, long tsVal, int ipId) {
        static Key of(PointSegments p, int i, boolean flip, boolean withIpId) {
            return new Key(p.fromOriginator(i) != flip, p.seq(i), p.ack(i), p.payloadLength(i), p.flags(i),
                    p.tsVal(i), withIpId ? p.ipId(i) : -1);
        }
    }

    /**
     * Matches connection {@code cx} of point {@code x} with {@code cy} of {@code y}.
     *
     * @param flip the two points chose opposite originators for the connection
     */
    static Result match(PointSegments x, PointConnection cx, PointSegments y, PointConnection cy, boolean flip) {
        int[] sx = cx.segments();
        int[] sy = cy.segments();
        int[] px = new int[sx.length];
        int[] py = new int[sy.length];
        Arrays.fill(px, -1);
        Arrays.fill(py, -1);
        int matched = pass(x, sx, px, y, sy, py, flip, true);
        matched += pass(x, sx, px, y, sy, py, flip, false);
        return new Result(px, py, matched);
    }

    /**
     * One pass over the segments still without a partner; returns the pairs it made. Within each group of copies
     * with one key, when one point has more copies than the other, its first ones are left out: a sender repeats a
     * segment until a copy gets through, so the copies that arrived are the last ones sent.
     */
    private static int pass(PointSegments x, int[] sx, int[] px, PointSegments y, int[] sy, int[] py, boolean flip,
                            boolean withIpId) {
        Map<Key, List<Integer>> xs = group(x, sx, px, flip, withIpId);
        Map<Key, List<Integer>> ys = group(y, sy, py, false, withIpId);
        int made = 0;
        for (Map.Entry<Key, List<Integer>> e : xs.entrySet()) {
            List<Integer> gx = e.getValue();
            List<Integer> gy = ys.get(e.getKey());
            if (gy == null) {
                continue;
            }
            int n = Math.min(gx.size(), gy.size());
            int skipX = gx.size() - n;
            int skipY = gy.size() - n;
            for (int i = 0; i < n; i++) {
                int kx = gx.get(skipX + i);
                int ky = gy.get(skipY + i);
                px[kx] = sy[ky];
                py[ky] = sx[kx];
                made++;
            }
        }
        return made;
    }

    /** Positions of the segments without a partner, by key, in capture order. */
    private static Map<Key, List<Integer>> group(PointSegments p, int[] s, int[] partner, boolean flip,
                                                 boolean withIpId) {
        Map<Key, List<Integer>> out = new HashMap<>();
        for (int k = 0; k < s.length; k++) {
            if (partner[k] < 0) {
                out.computeIfAbsent(Key.of(p, s[k], flip, withIpId), u -> new ArrayList<>()).add(k);
            }
        }
        return out;
    }
}
