package io.ackscope.vantage;

/** Copies of a point's segments with what a middlebox would change, for the matching tests. */
final class PointSegmentsCopies {
    private PointSegmentsCopies() {
    }

    /**
     * The segments as seen behind a source NAT: every client address becomes {@code ipv4} (an IPv4 address as an
     * int) and every client port {@code port + its connection's stream}; sequence numbers, timestamps and times
     * unchanged.
     */
    static PointSegments rewriteClient(PointSegments p, long ipv4, int port) {
        PointSegments c = new PointSegments(p.source());
        for (PointConnection pc : p.connections()) {
            long[] tuple = pc.tuple().clone();
            tuple[0] = 0;
            tuple[1] = 0x0000_ffff_0000_0000L | ipv4;
            int[] ports = {port + (int) pc.stream(), pc.ports()[1]};
            for (int i : pc.segments()) {
                c.add(pc.stream(), p.fromOriginator(i), p.seq(i), p.ack(i), p.payloadLength(i), p.flags(i),
                        p.tsVal(i), p.ipId(i), p.timeNanos(i), p.captureOrder(i), tuple, ports);
            }
        }
        return c;
    }

    /** The segments with their TSvals (and, with {@code ipIdToo}, their IP IDs) removed, as a capture without them. */
    static PointSegments withoutTsVal(PointSegments p, boolean ipIdToo) {
        PointSegments c = new PointSegments(p.source());
        for (PointConnection pc : p.connections()) {
            for (int i : pc.segments()) {
                c.add(pc.stream(), p.fromOriginator(i), p.seq(i), p.ack(i), p.payloadLength(i), p.flags(i), -1,
                        ipIdToo ? 0 : p.ipId(i), p.timeNanos(i), p.captureOrder(i), pc.tuple(), pc.ports());
            }
        }
        return c;
    }

    /** Only the segments captured at or after {@code fromNanos}: a capture started later. */
    static PointSegments from(PointSegments p, long fromNanos) {
        PointSegments c = new PointSegments(p.source());
        for (PointConnection pc : p.connections()) {
            for (int i : pc.segments()) {
                if (p.timeNanos(i) >= fromNanos) {
                    c.add(pc.stream(), p.fromOriginator(i), p.seq(i), p.ack(i), p.payloadLength(i), p.flags(i),
                            p.tsVal(i), p.ipId(i), p.timeNanos(i), p.captureOrder(i), pc.tuple(), pc.ports());
                }
            }
        }
        return c;
    }
}
