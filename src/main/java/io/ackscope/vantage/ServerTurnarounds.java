package io.ackscope.vantage;

/**
 * The server's turnarounds as {@link HostTimes}: from the last segment of a client's request to the first segment of
 * the server's answer. At the server's point (B) that is the server host's own time; at the client's point (A) it
 * is that plus a round trip (what a client-side capture calls the time to first byte).
 *
 * <p>A sample is a server data segment that follows client data in A's order with no server data in between (the
 * start of an answer), paired with the last client data segment before it; both seen at both points, and the
 * client segment's first copy (a retransmitted request is left out: which copy the server answered is not known).
 * A sample is marked when the request was the connection's first (its handshake just done, the server's caches
 * perhaps cold).
 */
final class ServerTurnarounds {
    private ServerTurnarounds() {
    }

    /**
     * Adds the samples of one connection.
     *
     * @param partner for each of {@code ca}'s segments (by position), its partner's index in {@code b}, or -1
     */
    static void add(HostTimes.Builder out, PointSegments a, PointConnection ca, PointSegments b, int[] partner) {
        int[] seg = ca.segments();
        int request = -1;
        boolean retransmitted = false;
        int answers = 0;
        long highest = -1;
        for (int k = 0; k < seg.length; k++) {
            int i = seg[k];
            if (a.payloadLength(i) == 0) {
                continue;
            }
            if (a.fromOriginator(i)) {
                long end = (a.seq(i) + a.payloadLength(i)) & 0xffff_ffffL;
                // 32-bit sequence comparison: a copy of data already seen is a retransmission
                boolean again = highest >= 0 && (int) (end - highest) <= 0;
                if (!again) {
                    highest = end;
                }
                retransmitted = (request >= 0 && retransmitted) || again;
                request = k;
            } else if (request >= 0) {
                if (!retransmitted && partner[request] >= 0 && partner[k] >= 0) {
                    out.add(a.timeNanos(i) - a.timeNanos(seg[request]),
                            b.timeNanos(partner[k]) - b.timeNanos(partner[request]), answers == 0);
                }
                answers++;
                request = -1;
            }
        }
    }
}
