package io.ackscope.probe;

/**
 * Flyweight view of one received Ethernet frame, decoded only as far as the probes need: IPv4, then either TCP or
 * an ICMP error that quotes an IPv4 + TCP header.
 *
 * <p>{@link #wrap} resets every field, checks each header's length once against the captured bytes, and never
 * throws on any content: a frame that is not IPv4, is cut short, or carries something else leaves
 * {@link #kind()} at {@link #OTHER}. Values stay valid until the next {@code wrap}. One instance per thread.
 */
final class ReplyView {

    /** Not a frame the probes use (not IPv4, truncated, malformed, or another protocol). */
    static final int OTHER = 0;
    /** An IPv4 TCP segment. */
    static final int TCP = 1;
    /** An ICMP error (time exceeded, destination unreachable) quoting an IPv4 TCP header. */
    static final int ICMP_ERROR = 2;

    static final int ICMP_UNREACHABLE = 3;
    static final int ICMP_TIME_EXCEEDED = 11;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88a8;
    private static final int PROTO_ICMP = 1;
    private static final int PROTO_TCP = 6;
    /** ICMP header before the quoted datagram: type, code, checksum, 4 unused bytes (RFC 792). */
    private static final int ICMP_HEADER = 8;
    /** Quoted TCP bytes needed: ports and sequence number (RFC 792 guarantees 8). */
    private static final int QUOTED_TCP_BYTES = 8;

    private int kind;
    private int ipLength;
    private int ttl;
    private int ipId;
    private boolean dontFragment;
    private int src;
    private int dst;
    private int srcPort;
    private int dstPort;
    private long seq;
    private long ack;
    private int flags;
    private int window;
    private int icmpType;
    private int icmpCode;
    private int quotedSrc;
    private int quotedDst;
    private int quotedSrcPort;
    private int quotedDstPort;
    private long quotedSeq;

    /**
     * Decodes the Ethernet frame {@code b[off .. off + len)}.
     *
     * @return {@link #kind()}
     */
    int wrap(byte[] b, int off, int len) {
        kind = OTHER;
        ipLength = ttl = ipId = src = dst = 0;
        dontFragment = false;
        srcPort = dstPort = flags = window = icmpType = icmpCode = 0;
        quotedSrc = quotedDst = quotedSrcPort = quotedDstPort = 0;
        seq = ack = quotedSeq = 0;

        int end = off + Math.min(len, b.length - off);
        int p = off + 12;
        if (p + 2 > end) {
            return kind;
        }
        int etherType = u16(b, p);
        p += 2;
        for (int tags = 0; (etherType == ETHERTYPE_VLAN || etherType == ETHERTYPE_QINQ) && tags < 2; tags++) {
            if (p + 4 > end) {
                return kind;
            }
            etherType = u16(b, p + 2);
            p += 4;
        }
        if (etherType != ETHERTYPE_IPV4) {
            return kind;
        }
        int ihl = ipv4HeaderLength(b, p, end);
        if (ihl == 0) {
            return kind;
        }
        // 20 <= ihl and p + ihl <= end: every read below within the header is in bounds
        ipLength = u16(b, p + 2);
        ipId = u16(b, p + 4);
        dontFragment = (b[p + 6] & 0x40) != 0;
        boolean firstFragment = (u16(b, p + 6) & 0x1fff) == 0;
        ttl = b[p + 8] & 0xff;
        int protocol = b[p + 9] & 0xff;
        src = s32(b, p + 12);
        dst = s32(b, p + 16);
        int t = p + ihl;
        if (!firstFragment) {
            return kind;
        }
        if (protocol == PROTO_TCP) {
            if (t + 20 > end) {
                return kind;
            }
            srcPort = u16(b, t);
            dstPort = u16(b, t + 2);
            seq = u32(b, t + 4);
            ack = u32(b, t + 8);
            flags = ((b[t + 12] & 0x01) << 8) | (b[t + 13] & 0xff);
            window = u16(b, t + 14);
            kind = TCP;
        } else if (protocol == PROTO_ICMP) {
            if (t + ICMP_HEADER > end) {
                return kind;
            }
            int type = b[t] & 0xff;
            if (type != ICMP_TIME_EXCEEDED && type != ICMP_UNREACHABLE) {
                return kind;
            }
            int q = t + ICMP_HEADER;
            int qihl = ipv4HeaderLength(b, q, end);
            if (qihl == 0 || (b[q + 9] & 0xff) != PROTO_TCP || q + qihl + QUOTED_TCP_BYTES > end) {
                return kind;
            }
            icmpType = type;
            icmpCode = b[t + 1] & 0xff;
            quotedSrc = s32(b, q + 12);
            quotedDst = s32(b, q + 16);
            int qt = q + qihl;
            quotedSrcPort = u16(b, qt);
            quotedDstPort = u16(b, qt + 2);
            quotedSeq = u32(b, qt + 4);
            kind = ICMP_ERROR;
        }
        return kind;
    }

    /** IHL * 4 of an IPv4 header at {@code p} that is complete before {@code end}, or 0 if it is not. */
    private static int ipv4HeaderLength(byte[] b, int p, int end) {
        if (p + 20 > end || (b[p] & 0xf0) != 0x40) {
            return 0;
        }
        int ihl = (b[p] & 0x0f) * 4;
        return ihl < 20 || p + ihl > end ? 0 : ihl;
    }

    int kind() { return kind; }
    /** IPv4 total length from the header. */
    int ipLength() { return ipLength; }
    int ttl() { return ttl; }
    int ipId() { return ipId; }
    boolean dontFragment() { return dontFragment; }
    /** IPv4 source address, big-endian in an int. */
    int src() { return src; }
    int dst() { return dst; }
    int srcPort() { return srcPort; }
    int dstPort() { return dstPort; }
    long seq() { return seq; }
    long ack() { return ack; }
    /** TCP flags, 9 bits as tshark's {@code tcp.flags} (NS 0x100 ... FIN 0x001). */
    int flags() { return flags; }
    int window() { return window; }
    int icmpType() { return icmpType; }
    int icmpCode() { return icmpCode; }
    int quotedSrc() { return quotedSrc; }
    int quotedDst() { return quotedDst; }
    int quotedSrcPort() { return quotedSrcPort; }
    int quotedDstPort() { return quotedDstPort; }
    long quotedSeq() { return quotedSeq; }

    private static int u16(byte[] b, int p) {
        return ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
    }

    private static int s32(byte[] b, int p) {
        return ((b[p] & 0xff) << 24) | ((b[p + 1] & 0xff) << 16) | ((b[p + 2] & 0xff) << 8) | (b[p + 3] & 0xff);
    }

    private static long u32(byte[] b, int p) {
        return s32(b, p) & 0xffffffffL;
    }
}
