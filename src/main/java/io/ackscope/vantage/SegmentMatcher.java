package io.ackscope.vantage;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
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

    /** One pass over the segments still without a partner; returns the pairs it made. */
    private static int pass(PointSegments x, int[] sx, int[] px, PointSegments y, int[] sy, int[] py, boolean flip,
                            boolean withIpId) {
        Map<Key, ArrayDeque<Integer>> ys = new HashMap<>();
        for (int k = 0; k < sy.length; k++) {
            if (py[k] < 0) {
                ys.computeIfAbsent(Key.of(y, sy[k], false, withIpId), u -> new ArrayDeque<>()).add(k);
            }
        }
        int made = 0;
        for (int k = 0; k < sx.length; k++) {
            if (px[k] >= 0) {
                continue;
            }
            ArrayDeque<Integer> q = ys.get(Key.of(x, sx[k], flip, withIpId));
            if (q != null && !q.isEmpty()) {
                int j = q.poll();
                px[k] = sy[j];
                py[j] = sx[k];
                made++;
            }
        }
        return made;
    }
}
