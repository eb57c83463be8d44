package io.ackscope.decode;

/**
 * Flyweight decoder for one packet at a time, in the style of gopacket's DecodingLayerParser.
 *
 * <p>{@link #decode} resets every field and allocates nothing. It never throws on bad bytes: a header that is cut
 * by the snap length, violates its specification, or is of a kind ackscope does not decode ends decoding with
 * {@link #status()} and {@link #stopLayer()} saying where and why, and keeps everything decoded before that point.
 * Accessors read the decoded fields; they are valid until the next {@code decode} call. One instance per thread.
 *
 * <p><b>Addresses</b> of the innermost IP header (the one the transport header belongs to) are kept as two longs
 * per address: IPv6 as the big-endian high and low 64 bits; IPv4 as the IPv4-mapped IPv6 address
 * {@code ::ffff:a.b.c.d} (high = 0, low = 0x0000_ffff_0000_0000L | (addr & 0xffffffffL)), so one flow key
 * fits both families.
 *
 * <p><b>Quoted headers.</b> An ICMP/ICMPv6 error quotes the IP header and first transport bytes of the packet
 * that caused it. Those are not the connection's traffic: {@link #hasTcp()} stays false for them and
 * {@link #quotedTcp()} is true, with the quoted ports (and whatever else of the quoted TCP header was captured)
 * in the TCP accessors.
 */
public final class PacketDecoder {

    // ---- result -------------------------------------------------------------------------------------------------
    DecodeStatus status;
    Layer stopLayer;
    String stopReason;          // a constant string: no allocation per packet

    // ---- link ---------------------------------------------------------------------------------------------------
    int linkType;
    int vlanCount;
    int outerVlanId;            // -1 when untagged
    int mplsLabelCount;
    int networkOffset;          // offset in the buffer where the first network header starts, -1 if none
    int etherType;              // ethertype (or equivalent) of the first network header, -1 if none

    // ---- first IPv4 / IPv6 header anywhere in the packet (tshark occurrence=f for ip.* / ipv6.*) ---------------
    int firstIpv4Offset;        // -1 if the packet has no IPv4 header
    int firstIpv6Offset;        // -1 if the packet has no IPv6 header

    // ---- innermost IP header (the one the transport header belongs to) ----------------------------------------
    int ipVersion;              // 4, 6, or 0 when there is no IP header
    int ipOffset;
    int ipHeaderLength;         // IPv4: IHL*4; IPv6: 40 + extension headers up to the transport header
    int ipTotalLength;          // IPv4 total length, IPv6 40 + payload length (from the header, not the capture)
    int ipProtocol;             // transport protocol number (after IPv6 extension headers), -1 if unknown
    int ttl;                    // IPv4 TTL or IPv6 hop limit
    int ipId;                   // IPv4 identification, IPv6 fragment identification, else 0
    boolean fragment;           // this packet is an IP fragment (IPv4 MF or offset != 0; IPv6 fragment header)
    int fragmentOffset;         // in bytes
    boolean moreFragments;
    long srcHi, srcLo, dstHi, dstLo;

    // ---- transport ----------------------------------------------------------------------------------------------
    boolean hasTcp;
    boolean quotedTcp;
    int quotedTcpBytes;         // bytes of the quoted TCP header present (at least 4 for ports)
    int transportOffset;        // offset of the transport header in the buffer, -1 if none
    int srcPort, dstPort;       // TCP or UDP (or quoted TCP/UDP) ports, -1 when absent
    long seq, ack;              // unsigned 32-bit values
    int tcpFlags;               // 12 bits: NS(0x100) CWR ECE URG ACK PSH RST SYN FIN(0x001), as tshark's tcp.flags
    int window;                 // raw window field (not scaled)
    int tcpHeaderLength;        // data offset * 4
    int urgentPointer;
    int payloadOffset;          // offset of the transport payload in the buffer
    int payloadLength;          // payload length from the IP length fields (tshark's tcp.len), >= 0
    int capturedPayloadLength;  // payload bytes actually present in the capture (<= payloadLength)

    // TCP options (-1 / false when absent)
    int mss;
    int windowScale;
    boolean sackPermitted;
    boolean hasTimestamps;
    long tsVal, tsEcr;          // unsigned 32-bit
    int sackBlockCount;         // 0..4
    final long[] sackLeft = new long[4];
    final long[] sackRight = new long[4];
    boolean hasFastOpen;
    int fastOpenCookieLength;   // 0 for a cookie request

    boolean hasUdp;
    int udpLength;

    boolean hasIcmp;            // ICMP or ICMPv6
    int icmpType, icmpCode;

    /**
     * Decodes one packet. Resets every field first; allocates nothing; never throws on any content of
     * {@code buf[off .. off + capLen)}.
     *
     * @param linkType LINKTYPE_ value of the record
     * @param buf      array holding the packet
     * @param off      offset of the packet's first byte
     * @param capLen   captured bytes available
     * @param origLen  length on the wire (may exceed capLen when the snap length cut the packet)
     */
    public void decode(int linkType, byte[] buf, int off, int capLen, long origLen) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public DecodeStatus status() { return status; }
    public Layer stopLayer() { return stopLayer; }
    /** Why decoding stopped (a constant string), or null when {@link #status()} is OK. */
    public String stopReason() { return stopReason; }

    public int linkType() { return linkType; }
    public int vlanCount() { return vlanCount; }
    public int outerVlanId() { return outerVlanId; }
    public int mplsLabelCount() { return mplsLabelCount; }
    public int networkOffset() { return networkOffset; }
    public int etherType() { return etherType; }

    public int firstIpv4Offset() { return firstIpv4Offset; }
    public int firstIpv6Offset() { return firstIpv6Offset; }

    public int ipVersion() { return ipVersion; }
    public int ipOffset() { return ipOffset; }
    public int ipHeaderLength() { return ipHeaderLength; }
    public int ipTotalLength() { return ipTotalLength; }
    public int ipProtocol() { return ipProtocol; }
    public int ttl() { return ttl; }
    public int ipId() { return ipId; }
    public boolean isFragment() { return fragment; }
    public int fragmentOffset() { return fragmentOffset; }
    public boolean moreFragments() { return moreFragments; }
    public long srcHi() { return srcHi; }
    public long srcLo() { return srcLo; }
    public long dstHi() { return dstHi; }
    public long dstLo() { return dstLo; }

    public boolean hasTcp() { return hasTcp; }
    public boolean quotedTcp() { return quotedTcp; }
    public int quotedTcpBytes() { return quotedTcpBytes; }
    public int transportOffset() { return transportOffset; }
    public int srcPort() { return srcPort; }
    public int dstPort() { return dstPort; }
    public long seq() { return seq; }
    public long ack() { return ack; }
    public int tcpFlags() { return tcpFlags; }
    public int window() { return window; }
    public int tcpHeaderLength() { return tcpHeaderLength; }
    public int urgentPointer() { return urgentPointer; }
    public int payloadOffset() { return payloadOffset; }
    public int payloadLength() { return payloadLength; }
    public int capturedPayloadLength() { return capturedPayloadLength; }

    public int mss() { return mss; }
    public int windowScale() { return windowScale; }
    public boolean sackPermitted() { return sackPermitted; }
    public boolean hasTimestamps() { return hasTimestamps; }
    public long tsVal() { return tsVal; }
    public long tsEcr() { return tsEcr; }
    public int sackBlockCount() { return sackBlockCount; }
    public long sackLeft(int i) { return sackLeft[i]; }
    public long sackRight(int i) { return sackRight[i]; }
    public boolean hasFastOpen() { return hasFastOpen; }
    public int fastOpenCookieLength() { return fastOpenCookieLength; }

    public boolean hasUdp() { return hasUdp; }
    public int udpLength() { return udpLength; }

    public boolean hasIcmp() { return hasIcmp; }
    public int icmpType() { return icmpType; }
    public int icmpCode() { return icmpCode; }

    /** TCP flag bits as in tshark's {@code tcp.flags}. */
    public static final int FIN = 0x001, SYN = 0x002, RST = 0x004, PSH = 0x008, ACK = 0x010, URG = 0x020,
            ECE = 0x040, CWR = 0x080, NS = 0x100;
}
