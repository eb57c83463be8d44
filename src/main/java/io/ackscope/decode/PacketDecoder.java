package io.ackscope.decode;

/**
 * Flyweight decoder for one packet at a time, in the style of gopacket's DecodingLayerParser.
 *
 * <p>{@link #decode} resets every field and allocates nothing. It never throws on bad bytes: a header that is cut
 * by the snap length, violates its specification, or is of a kind ackscope does not decode ends decoding with
 * {@link #status()}, {@link #stopLayer()}, {@link #stopCause()} and {@link #stopOffset()} saying where and why, and
 * keeps everything decoded before that point. Each layer is read by a stateless package-private decoder
 * ({@code LinkDecoder}, {@code Ipv4Decoder}, {@code Ipv6ChainDecoder}, {@code TunnelDecoder}, {@code TcpDecoder},
 * {@code DatagramDecoder}) that writes this object's fields.
 * Accessors read the decoded fields; they are valid until the next {@code decode} call. One instance per thread.
 *
 * <p><b>What is decoded.</b> Link types EN10MB, LINUX_SLL, LINUX_SLL2, RAW (101, and the DLT values 12 and 14 some
 * files carry), IPV4, IPV6, NULL and LOOP; 802.1Q/802.1ad/QinQ tag stacks; MPLS label stacks;
 * IPv4 with options; IPv6 with hop-by-hop, routing, fragment, destination-options and AH extension headers and
 * the jumbo payload option; IP-in-IP (4, 41) and GRE version 0 carrying IPv4, IPv6 or Ethernet, up to
 * {@link #MAX_ENCAPSULATIONS} IP headers deep; TCP with its options; UDP; ICMP and ICMPv6 with the IP and
 * transport header quoted by error messages. Any other IP protocol ends with {@link DecodeStatus#UNSUPPORTED} at
 * the IP layer, any other ethertype or link type with {@code UNSUPPORTED} at {@link Layer#LINK}.
 *
 * <p><b>Lengths.</b> Every header is checked once against two ends before it is read: the captured bytes
 * ({@link #captureEnd()}; past it the header is {@link DecodeStatus#TRUNCATED}) and the length the enclosing header
 * reports (the frame's original length, then the IP total/payload length; past it the header is
 * {@link DecodeStatus#MALFORMED}). Ethernet padding after the IP total length is therefore never payload. An IPv4
 * total length of 0 (segmentation offload, Linux BIG TCP) means "up to the end of the frame", as tshark reads it.
 *
 * <p><b>Addresses</b> of the innermost IP header (the one the transport header belongs to) are kept as two longs
 * per address: IPv6 as the big-endian high and low 64 bits; IPv4 as the IPv4-mapped IPv6 address
 * {@code ::ffff:a.b.c.d} (high = 0, low = 0x0000_ffff_0000_0000L | (addr & 0xffffffffL)), so one flow key
 * fits both families. {@link #firstIpv4Offset()} and {@link #firstIpv6Offset()} point at the first header of each
 * family anywhere in the packet (outer tunnel header, or a quoted one), which is what tshark's {@code ip.src} with
 * {@code occurrence=f} shows.
 *
 * <p><b>Fragments.</b> There is no reassembly. The first fragment (offset 0) has its transport header decoded
 * ({@link #payloadLength()} then counts only this fragment's bytes); later fragments stop after the IP header with
 * status {@code OK} and {@link #isFragment()} true.
 *
 * <p><b>TCP.</b> {@link #hasTcp()} is true when the fixed TCP fields (ports, sequence and acknowledgment numbers,
 * flags, window: the first 16 bytes) were captured and the data offset is at least 5. The status may still be
 * {@code TRUNCATED} (options cut by the snap length) or {@code MALFORMED} (an option with an invalid length, or a
 * header longer than the IP payload); tshark still analyses such segments. With 4 to 15 bytes only the ports are
 * known ({@link #hasTcpPorts()}).
 *
 * <p><b>Quoted headers.</b> An ICMP/ICMPv6 error quotes the IP header and first transport bytes of the packet
 * that caused it. Those are not the connection's traffic: {@link #hasTcp()} stays false for them and
 * {@link #quotedTcp()} is true, with the quoted ports (and whatever else of the quoted TCP header was captured)
 * in the TCP accessors, and the quoted addresses in {@link #quotedSrcHi()} etc. The quoted part is best effort:
 * it never changes {@link #status()}.
 */
public final class PacketDecoder {

    /** The low 64 bits of {@code ::ffff:0.0.0.0}: OR an IPv4 address into it to get the mapped form. */
    public static final long IPV4_MAPPED_PREFIX = 0x0000_ffff_0000_0000L;

    /** Most IP headers (outer plus tunnelled) followed in one packet; deeper nesting is {@code UNSUPPORTED}. */
    public static final int MAX_ENCAPSULATIONS = 8;

    // Decode steps: what the bytes at `cursor` are. Each layer decoder returns the next one.
    static final int STEP_DONE = 0, STEP_ETHERNET = 1, STEP_ETHERTYPE = 2, STEP_IPV4 = 3, STEP_IPV6 = 4,
            STEP_GRE = 5, STEP_TRANSPORT = 6;

    // ---- result -------------------------------------------------------------------------------------------------
    DecodeStatus status;
    Layer stopLayer;
    StopReason stopCause;       // null when status is OK
    int stopOffset;             // where the header that stopped decoding starts in the buffer, -1 when OK

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
    boolean ipLengthFromFrame;  // the IP length field was 0 (offload / BIG TCP): ipTotalLength comes from the frame
    int ipProtocol;             // transport protocol number (after IPv6 extension headers), -1 if unknown
    int ttl;                    // IPv4 TTL or IPv6 hop limit
    int ipId;                   // IPv4 identification, IPv6 fragment identification, else 0
    boolean fragment;           // this packet is an IP fragment (IPv4 MF or offset != 0; IPv6 fragment header)
    int fragmentOffset;         // in bytes
    boolean moreFragments;
    boolean dontFragment;       // IPv4 DF bit; false for IPv6
    long srcHi, srcLo, dstHi, dstLo;
    int ipHeaderCount;          // IP headers decoded (more than 1 in a tunnel), quoted ones not counted

    // ---- transport ----------------------------------------------------------------------------------------------
    boolean hasTcp;
    boolean hasTcpPorts;        // srcPort/dstPort hold TCP ports (own, truncated, or quoted)
    boolean quotedTcp;
    int quotedTcpBytes;         // bytes of the quoted TCP header present (at least 4 for ports)
    int transportOffset;        // offset of the transport header in the buffer, -1 if none
    int transportLength;        // bytes of transport header + payload the IP header reports, -1 if no transport
    int srcPort, dstPort;       // TCP or UDP (or quoted TCP/UDP) ports, -1 when absent
    long seq, ack;              // unsigned 32-bit values
    int tcpFlags;               // 12 bits as tshark's tcp.flags: reserved(0xe00) AE/NS(0x100) CWR ... FIN(0x001)
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
    boolean tcpOptionsSet;      // some option field above differs from its reset value (TcpOptions sets it)

    boolean hasUdp;
    boolean hasUdpPorts;        // srcPort/dstPort hold UDP ports (own, truncated, or quoted)
    boolean quotedUdp;
    int udpLength;

    boolean hasIcmp;            // ICMP or ICMPv6
    int icmpType, icmpCode;

    // ---- quoted IP header of an ICMP/ICMPv6 error -----------------------------------------------------------------
    int quotedIpVersion;        // 4, 6, or 0 when nothing is quoted
    int quotedIpOffset;         // -1 when nothing is quoted
    int quotedTransportOffset;  // offset of the quoted TCP/UDP header, -1 if none
    long quotedSrcHi, quotedSrcLo, quotedDstHi, quotedDstLo;

    /** A decoder that has decoded nothing yet: every field at its reset value. */
    public PacketDecoder() {
        tcpOptionsSet = true;
        quotedIpOffset = 0;
        reset(-1);
    }

    // ---- walk state (valid during decode only) -------------------------------------------------------------------
    int captureEnd;             // first offset past the captured bytes
    int limit;                  // first offset past what the enclosing header reports (frame, then IP length)
    int cursor;                 // where the next header starts
    int nextEtherType;          // for STEP_ETHERTYPE: the type of the header at cursor

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
        reset(linkType);
        if (buf == null || off < 0 || capLen < 0 || capLen > buf.length - off) {
            captureEnd = Math.max(off, 0);
            stop(StopReason.BAD_BOUNDS, Layer.NONE, captureEnd);
            return;
        }
        // From here on every read is inside [off, captureEnd), which lies inside buf: each step below checks the
        // bytes it reads against captureEnd (and against limit <= the reported length) before reading them.
        captureEnd = off + capLen;
        limit = (int) Math.min((long) off + Math.max(origLen, capLen), Integer.MAX_VALUE);
        cursor = off;
        // Each step decodes one header at `cursor` and returns what follows it. Every step either consumes bytes or
        // stops, and IP headers are counted against MAX_ENCAPSULATIONS, so the loop ends.
        int step = LinkDecoder.linkHeader(this, buf, linkType);
        while (step != STEP_DONE) {
            switch (step) {
                case STEP_ETHERNET:
                    step = LinkDecoder.ethernet(this, buf);
                    break;
                case STEP_ETHERTYPE:
                    step = LinkDecoder.etherType(this, buf);
                    break;
                case STEP_IPV4:
                    step = Ipv4Decoder.decode(this, buf);
                    break;
                case STEP_IPV6:
                    step = Ipv6ChainDecoder.decode(this, buf);
                    break;
                case STEP_GRE:
                    step = TunnelDecoder.gre(this, buf);
                    break;
                case STEP_TRANSPORT:
                    step = transport(buf);
                    break;
                default:
                    throw new AssertionError(step);
            }
        }
    }

    private void reset(int linkType) {
        status = DecodeStatus.OK;
        stopLayer = Layer.NONE;
        stopCause = null;
        stopOffset = -1;

        this.linkType = linkType;
        vlanCount = 0;
        outerVlanId = -1;
        mplsLabelCount = 0;
        networkOffset = -1;
        etherType = -1;

        resetIp();
        resetTransport();
        if (tcpOptionsSet) { // most packets carry none: skip the stores when the last one had none either
            resetTcpOptions();
        }
        if (quotedIpOffset >= 0) { // set whenever a quote was parsed at all
            quotedIpVersion = 0;
            quotedIpOffset = -1;
            quotedTransportOffset = -1;
            quotedSrcHi = quotedSrcLo = quotedDstHi = quotedDstLo = 0;
        }

        captureEnd = 0;
        limit = 0;
        cursor = 0;
        nextEtherType = -1;
    }

    private void resetIp() {
        firstIpv4Offset = -1;
        firstIpv6Offset = -1;
        ipVersion = 0;
        ipOffset = -1;
        ipHeaderLength = 0;
        ipTotalLength = 0;
        ipLengthFromFrame = false;
        ipProtocol = -1;
        ttl = 0;
        ipId = 0;
        fragment = false;
        fragmentOffset = 0;
        moreFragments = false;
        dontFragment = false;
        srcHi = srcLo = dstHi = dstLo = 0;
        ipHeaderCount = 0;
    }

    private void resetTransport() {
        hasTcp = false;
        hasTcpPorts = false;
        quotedTcp = false;
        quotedTcpBytes = 0;
        transportOffset = -1;
        transportLength = -1;
        srcPort = dstPort = -1;
        seq = ack = 0;
        tcpFlags = 0;
        window = 0;
        tcpHeaderLength = 0;
        urgentPointer = 0;
        payloadOffset = -1;
        payloadLength = 0;
        capturedPayloadLength = 0;
        hasUdp = false;
        hasUdpPorts = false;
        quotedUdp = false;
        udpLength = 0;
        hasIcmp = false;
        icmpType = icmpCode = -1;
    }

    private void resetTcpOptions() {
        mss = -1;
        windowScale = -1;
        sackPermitted = false;
        hasTimestamps = false;
        tsVal = tsEcr = 0;
        for (int i = 0; i < sackBlockCount; i++) { // entries past the count are already zero
            sackLeft[i] = 0;
            sackRight[i] = 0;
        }
        sackBlockCount = 0;
        hasFastOpen = false;
        fastOpenCookieLength = -1;
        tcpOptionsSet = false;
    }

    /**
     * Records why decoding stopped, in the header of {@code layer} starting at {@code offset}; returns
     * {@link #STEP_DONE} so layer decoders can {@code return d.stop(...)}.
     */
    int stop(StopReason reason, Layer layer, int offset) {
        status = reason.status();
        stopLayer = layer;
        stopCause = reason;
        stopOffset = offset;
        return STEP_DONE;
    }

    /**
     * Checks that {@code n} bytes at {@code p} are inside both the reported length and the capture. If not, records
     * MALFORMED (past the enclosing length field: the packet itself is wrong) or TRUNCATED (cut by the snap length)
     * and returns false. Written as subtractions so that no sum can overflow.
     */
    boolean need(int p, int n, Layer layer) {
        if (n > limit - p) {
            stop(StopReason.BEYOND_ENCLOSING_LENGTH, layer, p);
            return false;
        }
        if (n > captureEnd - p) {
            stop(StopReason.CUT_BY_SNAPLEN, layer, p);
            return false;
        }
        return true;
    }

    /** Bytes of the transport header at {@code t} that are both captured and inside the IP payload. */
    int available(int t) {
        return Math.min(captureEnd, limit) - t;
    }

    /**
     * Records the transport header at {@code cursor} (its offset, and the length the IP header gives it) and reads
     * its first two 16-bit fields as the ports when they are available.
     *
     * @return the bytes available at the header ({@link #available})
     */
    int transportWithPorts(byte[] b) {
        int t = cursor;
        transportOffset = t;
        transportLength = limit - t;
        int avail = available(t);
        if (avail >= 4) {
            srcPort = BigEndian.u16(b, t); // safe: 4 bytes available
            dstPort = BigEndian.u16(b, t + 2);
        }
        return avail;
    }

    /** The header after an IP header, whose payload starts at {@code cursor} and ends at {@code limit}. */
    private int transport(byte[] b) {
        switch (ipProtocol) {
            case IpProtocols.TCP:
                TcpDecoder.decode(this, b);
                return STEP_DONE;
            case IpProtocols.UDP:
                DatagramDecoder.udp(this, b);
                return STEP_DONE;
            case IpProtocols.ICMP:
                DatagramDecoder.icmp(this, b, Layer.ICMP);
                return STEP_DONE;
            case IpProtocols.ICMPV6:
                DatagramDecoder.icmp(this, b, Layer.ICMPV6);
                return STEP_DONE;
            case IpProtocols.IPIP:
                return STEP_IPV4;
            case IpProtocols.IPV6:
                return STEP_IPV6;
            case IpProtocols.GRE:
                return STEP_GRE;
            case IpProtocols.NONE:
                return STEP_DONE;
            default:
                return stop(StopReason.IP_PROTOCOL_UNSUPPORTED, ipVersion == 4 ? Layer.IPV4 : Layer.IPV6, ipOffset);
        }
    }

    // ---- accessors ------------------------------------------------------------------------------------------------

    /** The first offset past the captured bytes of the last decoded packet. */
    public int captureEnd() { return captureEnd; }

    public DecodeStatus status() { return status; }
    public Layer stopLayer() { return stopLayer; }
    /** Why decoding stopped (the text of {@link #stopCause()}, a constant string), or null when {@link #status()} is OK. */
    public String stopReason() { return stopCause == null ? null : stopCause.text(); }
    /** Why decoding stopped, or null when {@link #status()} is OK. */
    public StopReason stopCause() { return stopCause; }
    /**
     * Where in the buffer the header that stopped decoding starts (the header of {@link #stopLayer()}; for a frame
     * whose bounds are outside the buffer, the clamped offset), -1 when {@link #status()} is OK. Like the other
     * offsets it counts from the buffer's start: subtract {@code off} for the offset in the frame.
     */
    public int stopOffset() { return stopOffset; }

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
    /** The IP length field was 0 (segmentation offload, BIG TCP): {@link #ipTotalLength()} is taken from the frame. */
    public boolean ipLengthFromFrame() { return ipLengthFromFrame; }
    public int ipProtocol() { return ipProtocol; }
    public int ttl() { return ttl; }
    public int ipId() { return ipId; }
    public boolean isFragment() { return fragment; }
    public int fragmentOffset() { return fragmentOffset; }
    public boolean moreFragments() { return moreFragments; }
    /** The IPv4 header's don't-fragment bit (false for IPv6). */
    public boolean dontFragment() { return dontFragment; }
    public long srcHi() { return srcHi; }
    public long srcLo() { return srcLo; }
    public long dstHi() { return dstHi; }
    public long dstLo() { return dstLo; }
    /** IP headers decoded: 1 for plain IP, more in IP-in-IP or GRE tunnels (quoted headers not counted). */
    public int ipHeaderCount() { return ipHeaderCount; }

    public boolean hasTcp() { return hasTcp; }
    /**
     * {@link #srcPort()} and {@link #dstPort()} are TCP ports: of a decoded TCP header, of one cut after its ports
     * (4 to 15 bytes), or of one quoted in an ICMP error.
     */
    public boolean hasTcpPorts() { return hasTcpPorts; }
    public boolean quotedTcp() { return quotedTcp; }
    public int quotedTcpBytes() { return quotedTcpBytes; }
    public int transportOffset() { return transportOffset; }
    /**
     * Bytes of transport header plus payload that the IP header reports (IPv4 total length minus IHL, IPv6 payload
     * length minus extension headers; bounded by the frame's original length), -1 when there is no transport
     * header. tshark's {@code tcp.len} is this minus {@link #tcpHeaderLength()} and is absent when that is negative.
     */
    public int transportLength() { return transportLength; }
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

    /** A whole UDP header was captured (it may still be {@code MALFORMED}: see {@link #status()}). */
    public boolean hasUdp() { return hasUdp; }
    /** {@link #srcPort()} and {@link #dstPort()} are UDP ports (own header, cut one, or quoted in an ICMP error). */
    public boolean hasUdpPorts() { return hasUdpPorts; }
    public boolean quotedUdp() { return quotedUdp; }
    public int udpLength() { return udpLength; }

    public boolean hasIcmp() { return hasIcmp; }
    public int icmpType() { return icmpType; }
    public int icmpCode() { return icmpCode; }

    /** Version of the IP header quoted by an ICMP/ICMPv6 error (4 or 6), 0 when nothing is quoted. */
    public int quotedIpVersion() { return quotedIpVersion; }
    public int quotedIpOffset() { return quotedIpOffset; }
    /** Offset of the quoted TCP or UDP header, -1 if none was quoted. */
    public int quotedTransportOffset() { return quotedTransportOffset; }
    /** Quoted addresses, in the same two-long form as {@link #srcHi()}. */
    public long quotedSrcHi() { return quotedSrcHi; }
    public long quotedSrcLo() { return quotedSrcLo; }
    public long quotedDstHi() { return quotedDstHi; }
    public long quotedDstLo() { return quotedDstLo; }

    /** TCP flag bits as in tshark's {@code tcp.flags}. */
    public static final int FIN = 0x001, SYN = 0x002, RST = 0x004, PSH = 0x008, ACK = 0x010, URG = 0x020,
            ECE = 0x040, CWR = 0x080, NS = 0x100;
}
