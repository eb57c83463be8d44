package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.SYN;

import java.util.HashSet;
import java.util.Set;

/**
 * What one source (one capture point) shows about which endpoints are servers, and the decision of a connection's
 * roles from it. A connection whose handshake was captured has its roles from the handshake; one that was already
 * open when the capture started is decided by the first of these rules that tells its two endpoints apart
 * ({@link ConnectionRecord.OriginatorRule}, in this order; docs/causes.md "Roles"):
 * <ol>
 *   <li>{@code SYN} / {@code SYN_ACK}: the first frame is a SYN (its sender is the client) or a SYN/ACK (its
 *       receiver is);</li>
 *   <li>{@code LISTENER}: exactly one endpoint answered SYNs of other connections in the same source;</li>
 *   <li>{@code APPLICATION}: the first frame carries an HTTP/1.x request line or a TLS ClientHello (its sender is
 *       the client) or a status line or ServerHello (its sender is the server); else exactly one endpoint is seen,
 *       anywhere in the source, receiving requests or sending responses;</li>
 *   <li>{@code WELL_KNOWN_PORT}: exactly one port is below 1024;</li>
 *   <li>{@code EPHEMERAL_PORT}: exactly one port is in an ephemeral range (IANA 49152-65535, Linux 32768-60999,
 *       so 32768-65535): the other endpoint is the server;</li>
 *   <li>{@code FIRST_PACKET}: the sender of the first frame is the client.</li>
 * </ol>
 *
 * <p>The evidence is gathered by {@link #observe} over the whole source before the connections are decided (a first
 * pass), so a connection is decided alike wherever the capture starts. Each set holds at most
 * {@link #MAX_ENDPOINTS} endpoints (the bytes are attacker-controlled); past that, further endpoints are not noted
 * and their connections fall to the later rules. {@link #NONE} decides by the frame and ports alone.
 */
public final class RoleEvidence implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Endpoints kept per set. */
    public static final int MAX_ENDPOINTS = 1 << 16;
    /** The lowest port of the ephemeral ranges: Linux's default 32768-60999, IANA's 49152-65535. */
    public static final int EPHEMERAL_LOW = 32768;
    /** Ports below this are well-known (IANA system ports). */
    public static final int WELL_KNOWN_LIMIT = 1024;

    /** No evidence: roles from the first frame and the ports. Never observes. */
    public static final RoleEvidence NONE = new RoleEvidence();

    private final Set<Endpoint> listeners = new HashSet<>();
    private final Set<Endpoint> answerers = new HashSet<>();

    /** One endpoint: address (as {@link Segment} holds it) and port. */
    private record Endpoint(long hi, long lo, int port) implements java.io.Serializable {
        /**
         * The record's own equality and hash, written out (one set add per SYN/ACK and per request or response: the
         * generated methods go through method handles C1 does not inline). The hash is the generated one's value,
         * so the sets keep the order, and at {@link #MAX_ENDPOINTS} the members, they had.
         */
        @Override
        public boolean equals(Object o) {
            return this == o || o instanceof Endpoint e && e.hi == hi && e.lo == lo && e.port == port;
        }

        @Override
        public int hashCode() {
            return (Long.hashCode(hi) * 31 + Long.hashCode(lo)) * 31 + port;
        }
    }

    /** A decided role: the rule and whether the first frame's sender is the originator (client). */
    public record Role(ConnectionRecord.OriginatorRule rule, boolean senderIsOriginator) {
    }

    private static final Role[][] ROLES = new Role[ConnectionRecord.OriginatorRule.values().length][2];

    static {
        for (ConnectionRecord.OriginatorRule r : ConnectionRecord.OriginatorRule.values()) {
            ROLES[r.ordinal()][0] = new Role(r, false);
            ROLES[r.ordinal()][1] = new Role(r, true);
        }
    }

    private static Role role(ConnectionRecord.OriginatorRule r, boolean senderIsOriginator) {
        return ROLES[r.ordinal()][senderIsOriginator ? 1 : 0];
    }

    /**
     * Whether {@link #observe} can note anything of a segment with TCP flags {@code flags} and {@code payloadLength}
     * payload bytes: a SYN/ACK, or a segment with a payload (its prefix is part of it).
     */
    public static boolean mayShow(int flags, int payloadLength) {
        return (flags & (SYN | ACK)) == (SYN | ACK) || payloadLength > 0;
    }

    /** Notes what {@code s} shows: a SYN/ACK's sender listens; a request's receiver and a response's sender serve. */
    public void observe(Segment s) {
        if (this == NONE || !mayShow(s.flags, s.payloadPrefixLength)) {
            return;
        }
        if ((s.flags & (SYN | ACK)) == (SYN | ACK)) {
            add(listeners, s.srcHi, s.srcLo, s.srcPort);
        }
        if (s.payloadPrefixLength > 0) {
            int app = application(s.payloadPrefix, s.payloadPrefixLength);
            if (app > 0) {
                add(answerers, s.dstHi, s.dstLo, s.dstPort);
            } else if (app < 0) {
                add(answerers, s.srcHi, s.srcLo, s.srcPort);
            }
        }
    }

    private static void add(Set<Endpoint> set, long hi, long lo, int port) {
        if (set.size() < MAX_ENDPOINTS) {
            set.add(new Endpoint(hi, lo, port));
        }
    }

    /** Adds everything {@code other} noted (the same source seen by another task), within the bounds. */
    public void addAll(RoleEvidence other) {
        if (this == NONE) {
            throw new IllegalStateException("NONE holds no evidence");
        }
        for (Endpoint e : other.listeners) {
            add(listeners, e.hi, e.lo, e.port);
        }
        for (Endpoint e : other.answerers) {
            add(answerers, e.hi, e.lo, e.port);
        }
    }

    /** Endpoints that answered SYNs. */
    public int listeners() {
        return listeners.size();
    }

    /** Endpoints seen receiving requests or sending responses. */
    public int answerers() {
        return answerers.size();
    }

    /**
     * +1 when {@code b} starts like a client's first bytes (an HTTP/1.x request line, a TLS ClientHello), -1 like a
     * server's (a status line, a TLS ServerHello), 0 otherwise.
     */
    static int application(byte[] b, int len) {
        if (len >= 6 && b[0] == 0x16 && b[1] == 0x03 && b[2] <= 0x04) {
            return b[5] == 0x01 ? 1 : b[5] == 0x02 ? -1 : 0;
        }
        if (HttpStartLine.isStatusLine(b, 0, len)) {
            return -1;
        }
        return HttpPeek.isRequest(b, len) ? 1 : 0;
    }

    /** The roles of a connection whose first captured frame is {@code first}, by the rules of the class comment. */
    public Role decide(Segment first) {
        int f = first.flags & (SYN | ACK);
        if (f == SYN) {
            return role(ConnectionRecord.OriginatorRule.SYN, true);
        } else if (f == (SYN | ACK)) {
            return role(ConnectionRecord.OriginatorRule.SYN_ACK, false);
        }
        int byEvidence = either(listeners, first);
        if (byEvidence != 0) {
            return role(ConnectionRecord.OriginatorRule.LISTENER, byEvidence > 0);
        }
        int app = first.payloadPrefixLength > 0 ? application(first.payloadPrefix, first.payloadPrefixLength) : 0;
        if (app == 0) {
            app = either(answerers, first);
        }
        if (app != 0) {
            return role(ConnectionRecord.OriginatorRule.APPLICATION, app > 0);
        }
        boolean srcLow = first.srcPort < WELL_KNOWN_LIMIT;
        boolean dstLow = first.dstPort < WELL_KNOWN_LIMIT;
        if (srcLow != dstLow) {
            return role(ConnectionRecord.OriginatorRule.WELL_KNOWN_PORT, dstLow);
        }
        boolean srcEphemeral = first.srcPort >= EPHEMERAL_LOW;
        boolean dstEphemeral = first.dstPort >= EPHEMERAL_LOW;
        if (srcEphemeral != dstEphemeral) {
            return role(ConnectionRecord.OriginatorRule.EPHEMERAL_PORT, srcEphemeral);
        }
        return role(ConnectionRecord.OriginatorRule.FIRST_PACKET, true);
    }

    /** +1 when only the receiver of {@code s} is in {@code set} (the sender is the client), -1 only the sender, 0. */
    private static int either(Set<Endpoint> set, Segment s) {
        if (set.isEmpty()) {
            return 0;
        }
        boolean src = set.contains(new Endpoint(s.srcHi, s.srcLo, s.srcPort));
        boolean dst = set.contains(new Endpoint(s.dstHi, s.dstLo, s.dstPort));
        return src == dst ? 0 : dst ? 1 : -1;
    }
}
