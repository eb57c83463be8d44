package io.ackscope.probe;

/**
 * Writes Ethernet + IPv4 + TCP SYN frames for one probe target, with both checksums filled in.
 *
 * <p>Everything that stays the same for a run (addresses, destination port, window, TCP options) is fixed at
 * construction; {@link #write} fills in what changes per probe (TTL, IP id, source port, sequence number).
 * Layout (RFC 791, RFC 9293): Ethernet II header (14 bytes), IPv4 header without options (20 bytes), TCP header
 * (20 bytes plus the options, padded to a multiple of 4), no payload.
 */
public final class SynPacket {

    /** Ethernet II header: destination MAC, source MAC, ethertype. */
    public static final int ETHERNET_HEADER = 14;
    /** IPv4 header without options (IHL 5). */
    public static final int IPV4_HEADER = 20;
    /** TCP header without options (data offset 5). */
    public static final int TCP_HEADER = 20;
    /** Largest TCP options block (data offset 15). */
    public static final int MAX_TCP_OPTIONS = 40;

    /** The options ackscope sends by default: MSS 1460 (kind 2, length 4), as a minimal modern SYN carries. */
    public static final byte[] DEFAULT_OPTIONS = {2, 4, (byte) 0x05, (byte) 0xb4};
    /** Window of ackscope's SYNs (Linux's initial window for a 1460-byte MSS). */
    public static final int DEFAULT_WINDOW = 64240;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int PROTO_TCP = 6;
    private static final int TCP_SYN = 0x02;
    private static final int IP_DF = 0x4000;

    private final byte[] dstMac;
    private final byte[] srcMac;
    private final int srcIp;
    private final int dstIp;
    private final int dstPort;
    private final int window;
    private final boolean dontFragment;
    private final byte[] options;
    private final int optionsLength;  // options padded with zero bytes (end of option list) to a multiple of 4

    /**
     * @param dstMac  next hop's MAC (all zero on Linux loopback)
     * @param srcMac  outgoing interface's MAC
     * @param srcIp   IPv4 source address, big-endian in an int
     * @param dstIp   IPv4 destination address, big-endian in an int
     * @param dstPort destination TCP port
     * @param window  TCP window field
     * @param dontFragment set the IPv4 DF flag
     * @param options raw TCP option bytes (at most 40), padded here to a multiple of 4
     */
    public SynPacket(byte[] dstMac, byte[] srcMac, int srcIp, int dstIp, int dstPort, int window,
                     boolean dontFragment, byte[] options) {
        if (dstMac.length != 6 || srcMac.length != 6) {
            throw new IllegalArgumentException("MAC addresses have 6 bytes");
        }
        if (options.length > MAX_TCP_OPTIONS) {
            throw new IllegalArgumentException("TCP options are at most " + MAX_TCP_OPTIONS + " bytes");
        }
        checkPort(dstPort);
        if (window < 0 || window > 0xffff) {
            throw new IllegalArgumentException("window out of range: " + window);
        }
        this.dstMac = dstMac.clone();
        this.srcMac = srcMac.clone();
        this.srcIp = srcIp;
        this.dstIp = dstIp;
        this.dstPort = dstPort;
        this.window = window;
        this.dontFragment = dontFragment;
        this.options = options.clone();
        this.optionsLength = (options.length + 3) & ~3;
    }

    /** Bytes of every frame this writer produces. */
    public int frameLength() {
        return ETHERNET_HEADER + IPV4_HEADER + TCP_HEADER + optionsLength;
    }

    /** IPv4 total length of every packet this writer produces (hping3's {@code len}). */
    public int ipLength() {
        return IPV4_HEADER + TCP_HEADER + optionsLength;
    }

    /**
     * Writes one SYN at the start of {@code buf}.
     *
     * @return the frame length
     */
    public int write(byte[] buf, int ttl, int ipId, int srcPort, long seq) {
        if (ttl < 1 || ttl > 255) {
            throw new IllegalArgumentException("TTL out of range: " + ttl);
        }
        checkPort(srcPort);
        int len = frameLength();
        if (buf.length < len) {
            throw new IllegalArgumentException("buffer of " + buf.length + " bytes cannot hold " + len);
        }
        // Ethernet II
        System.arraycopy(dstMac, 0, buf, 0, 6);
        System.arraycopy(srcMac, 0, buf, 6, 6);
        put16(buf, 12, ETHERTYPE_IPV4);

        // IPv4
        int ip = ETHERNET_HEADER;
        buf[ip] = 0x45;                                  // version 4, IHL 5
        buf[ip + 1] = 0;                                 // DSCP/ECN
        put16(buf, ip + 2, ipLength());                  // total length
        put16(buf, ip + 4, ipId & 0xffff);               // identification
        put16(buf, ip + 6, dontFragment ? IP_DF : 0);    // flags, fragment offset 0
        buf[ip + 8] = (byte) ttl;
        buf[ip + 9] = PROTO_TCP;
        put16(buf, ip + 10, 0);                          // checksum, computed below
        put32(buf, ip + 12, srcIp);
        put32(buf, ip + 16, dstIp);
        put16(buf, ip + 10, checksum(buf, ip, IPV4_HEADER, 0));

        // TCP
        int tcp = ip + IPV4_HEADER;
        int tcpLength = TCP_HEADER + optionsLength;
        put16(buf, tcp, srcPort);
        put16(buf, tcp + 2, dstPort);
        put32(buf, tcp + 4, (int) seq);
        put32(buf, tcp + 8, 0);                          // acknowledgment number
        buf[tcp + 12] = (byte) ((tcpLength / 4) << 4);   // data offset, reserved bits 0
        buf[tcp + 13] = TCP_SYN;
        put16(buf, tcp + 14, window);
        put16(buf, tcp + 16, 0);                         // checksum, computed below
        put16(buf, tcp + 18, 0);                         // urgent pointer
        System.arraycopy(options, 0, buf, tcp + TCP_HEADER, options.length);
        for (int i = options.length; i < optionsLength; i++) {
            buf[tcp + TCP_HEADER + i] = 0;               // end of option list padding
        }
        put16(buf, tcp + 16, checksum(buf, tcp, tcpLength, pseudoHeaderSum(srcIp, dstIp, PROTO_TCP, tcpLength)));
        return len;
    }

    /** Sum of the IPv4 pseudo-header (RFC 9293 section 3.1) as 16-bit words, not yet folded. */
    static int pseudoHeaderSum(int srcIp, int dstIp, int protocol, int length) {
        return (srcIp >>> 16) + (srcIp & 0xffff) + (dstIp >>> 16) + (dstIp & 0xffff) + protocol + length;
    }

    /**
     * Internet checksum (RFC 1071) of {@code len} bytes at {@code off}, starting from the partial sum
     * {@code initial}: the one's complement of the one's-complement sum of the 16-bit words, an odd last byte
     * padded with zero.
     */
    public static int checksum(byte[] b, int off, int len, int initial) {
        long sum = initial & 0xffffffffL;
        int end = off + (len & ~1);
        for (int i = off; i < end; i += 2) {
            sum += ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
        }
        if ((len & 1) != 0) {
            sum += (b[off + len - 1] & 0xff) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int) (~sum & 0xffff);
    }

    private static void checkPort(int port) {
        if (port < 0 || port > 0xffff) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    static void put32(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
