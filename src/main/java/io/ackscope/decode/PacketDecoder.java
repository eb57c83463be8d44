package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;

import static io.ackscope.decode.BigEndian.i32;
import static io.ackscope.decode.BigEndian.i64;
import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u32;
import static io.ackscope.decode.BigEndian.u8;

/**
 * Flyweight decoder for one packet at a time, in the style of gopacket's DecodingLayerParser.
 *
 * <p>{@link #decode} resets every field and allocates nothing. It never throws on bad bytes: a header that is cut
 * by the snap length, violates its specification, or is of a kind ackscope does not decode ends decoding with
 * {@link #status()} and {@link #stopLayer()} saying where and why, and keeps everything decoded before that point.
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

    private static final int ETHERNET_HEADER = 14;
    private static final int SLL_HEADER = 16;
    private static final int SLL2_HEADER = 20;
    private static final int LOOPBACK_HEADER = 4;
    private static final int VLAN_TAG = 4;
    private static final int MPLS_LABEL = 4;
    private static final int IPV4_MIN_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    private static final int IPV6_EXTENSION_MIN = 8;
    private static final int TCP_MIN_HEADER = 20;
    /** Bytes of TCP header up to and including the window: what tshark needs to show anything beyond the ports. */
    private static final int TCP_FIXED_FIELDS = 16;
    private static final int UDP_HEADER = 8;
    private static final int ICMP_HEADER = 8;
    private static final int GRE_MIN_HEADER = 4;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86dd;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88a8;
    private static final int ETHERTYPE_QINQ_OLD = 0x9100;
    private static final int ETHERTYPE_MPLS = 0x8847;
    private static final int ETHERTYPE_MPLS_MULTICAST = 0x8848;
    private static final int ETHERTYPE_TRANSPARENT_ETHERNET = 0x6558;
    /** Ethertype values below this are IEEE 802.3 length fields. */
    private static final int ETHERTYPE_MIN = 0x0600;

    /**
     * DLT_RAW as BSD/OS and OpenBSD number it; some files carry it instead of LINKTYPE_RAW (tshark reads it as raw
     * IP). {@link LinkTypes#RAW_OPENBSD} is 12, DLT_RAW as most other platforms number it.
     */
    private static final int DLT_RAW_14 = 14;
    private static final int ARPHRD_NETLINK = 824;
    /** A NULL/LOOP header value above this is an ethertype, not an address family. */
    private static final int IEEE_802_3_MAX_LENGTH = 1500;

    /** BSD address families in a NULL/LOOP header (AF_INET6 differs between the BSDs). */
    private static final int AF_INET = 2, AF_INET6_NETBSD_OPENBSD = 24, AF_INET6_FREEBSD = 28,
            AF_INET6_DARWIN = 30;

    private static final int PROTO_HOPOPTS = 0, PROTO_ICMP = 1, PROTO_IPIP = 4, PROTO_TCP = 6, PROTO_UDP = 17,
            PROTO_IPV6 = 41, PROTO_ROUTING = 43, PROTO_FRAGMENT = 44, PROTO_GRE = 47, PROTO_AH = 51,
            PROTO_ICMPV6 = 58, PROTO_NONE = 59, PROTO_DSTOPTS = 60;

    private static final int IPV6_OPTION_PAD1 = 0, IPV6_OPTION_JUMBO = 0xc2;

    // Decode steps: what the bytes at `cursor` are.
    private static final int STEP_DONE = 0, STEP_ETHERNET = 1, STEP_ETHERTYPE = 2, STEP_IPV4 = 3, STEP_IPV6 = 4,
            STEP_GRE = 5;

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
    boolean ipLengthFromFrame;  // the IP length field was 0 (offload / BIG TCP): ipTotalLength comes from the frame
    int ipProtocol;             // transport protocol number (after IPv6 extension headers), -1 if unknown
    int ttl;                    // IPv4 TTL or IPv6 hop limit
    int ipId;                   // IPv4 identification, IPv6 fragment identification, else 0
    boolean fragment;           // this packet is an IP fragment (IPv4 MF or offset != 0; IPv6 fragment header)
    int fragmentOffset;         // in bytes
    boolean moreFragments;
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
    private int captureEnd;     // first offset past the captured bytes
    private int limit;          // first offset past what the enclosing header reports (frame, then IP length)
    private int cursor;         // where the next header starts
    private int nextEtherType;  // for STEP_ETHERTYPE: the type of the header at cursor

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
            stop(DecodeStatus.MALFORMED, Layer.NONE, StopReasons.BAD_BOUNDS);
            return;
        }
        // From here on every read is inside [off, captureEnd), which lies inside buf: each step below checks the
        // bytes it reads against captureEnd (and against limit <= the reported length) before reading them.
        captureEnd = off + capLen;
        limit = (int) Math.min((long) off + Math.max(origLen, capLen), Integer.MAX_VALUE);
        cursor = off;
        // Each step decodes one header at `cursor` and returns what follows it. Every step either consumes bytes or
        // stops, and IP headers are counted against MAX_ENCAPSULATIONS, so the loop ends.
        int step = linkStep(buf, linkType);
        while (step != STEP_DONE) {
            switch (step) {
                case STEP_ETHERNET:
                    step = ethernet(buf);
                    break;
                case STEP_ETHERTYPE:
                    step = etherTypeStep(buf);
                    break;
                case STEP_IPV4:
                    step = ipv4(buf);
                    break;
                case STEP_IPV6:
                    step = ipv6(buf);
                    break;
                case STEP_GRE:
                    step = gre(buf);
                    break;
                default:
                    throw new AssertionError(step);
            }
        }
    }

    private void reset(int linkType) {
        status = DecodeStatus.OK;
        stopLayer = Layer.NONE;
        stopReason = null;

        this.linkType = linkType;
        vlanCount = 0;
        outerVlanId = -1;
        mplsLabelCount = 0;
        networkOffset = -1;
        etherType = -1;

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
        srcHi = srcLo = dstHi = dstLo = 0;
        ipHeaderCount = 0;

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

        if (tcpOptionsSet) { // most packets carry none: skip the stores when the last one had none either
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

        hasUdp = false;
        hasUdpPorts = false;
        quotedUdp = false;
        udpLength = 0;

        hasIcmp = false;
        icmpType = icmpCode = -1;

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

    /** Records why decoding stopped; returns {@link #STEP_DONE} so callers can {@code return stop(...)}. */
    private int stop(DecodeStatus s, Layer layer, String reason) {
        status = s;
        stopLayer = layer;
        stopReason = reason;
        return STEP_DONE;
    }

    /**
     * Checks that {@code n} bytes at {@code p} are inside both the reported length and the capture. If not, records
     * MALFORMED (past the enclosing length field: the packet itself is wrong) or TRUNCATED (cut by the snap length)
     * and returns false. Written as subtractions so that no sum can overflow.
     */
    private boolean need(int p, int n, Layer layer) {
        if (n > limit - p) {
            stop(DecodeStatus.MALFORMED, layer, StopReasons.BEYOND_ENCLOSING_LENGTH);
            return false;
        }
        if (n > captureEnd - p) {
            stop(DecodeStatus.TRUNCATED, layer, StopReasons.CUT_BY_SNAPLEN);
            return false;
        }
        return true;
    }

    // ---- link layer -------------------------------------------------------------------------------------------------

    private int linkStep(byte[] b, int type) {
        int p = cursor;
        switch (type) {
            case LinkTypes.EN10MB:
                return STEP_ETHERNET;
            case LinkTypes.LINUX_SLL: {
                if (!need(p, SLL_HEADER, Layer.LINK)) {
                    return STEP_DONE;
                }
                // safe: 16 bytes checked above
                int arphrd = u16(b, p + 2);
                int protocol = u16(b, p + 14);
                cursor = p + SLL_HEADER;
                return cookedProtocol(arphrd, protocol);
            }
            case LinkTypes.LINUX_SLL2: {
                if (!need(p, SLL2_HEADER, Layer.LINK)) {
                    return STEP_DONE;
                }
                // safe: 20 bytes checked above
                int protocol = u16(b, p);
                int arphrd = u16(b, p + 8);
                cursor = p + SLL2_HEADER;
                return cookedProtocol(arphrd, protocol);
            }
            case LinkTypes.NULL:
            case LinkTypes.LOOP: {
                if (!need(p, LOOPBACK_HEADER, Layer.LINK)) {
                    return STEP_DONE;
                }
                int value = i32(b, p); // safe: 4 bytes checked above
                if (type == LinkTypes.NULL) {
                    value = nullHeaderValue(Integer.reverseBytes(value));
                }
                cursor = p + LOOPBACK_HEADER;
                if (type == LinkTypes.NULL && value > IEEE_802_3_MAX_LENGTH) {
                    nextEtherType = value & 0xffff; // some NULL captures put an ethertype here (not LOOP ones)
                    return STEP_ETHERTYPE;
                }
                if (value == AF_INET) {
                    return network(ETHERTYPE_IPV4, STEP_IPV4);
                }
                if (value == AF_INET6_NETBSD_OPENBSD || value == AF_INET6_FREEBSD || value == AF_INET6_DARWIN) {
                    return network(ETHERTYPE_IPV6, STEP_IPV6);
                }
                return stop(DecodeStatus.UNSUPPORTED, Layer.LINK, StopReasons.ADDRESS_FAMILY_UNSUPPORTED);
            }
            case LinkTypes.RAW:
            case LinkTypes.RAW_OPENBSD:
            case DLT_RAW_14: {
                if (!need(p, 1, Layer.LINK)) {
                    return STEP_DONE;
                }
                int version = u8(b, p) >>> 4; // safe: 1 byte checked above
                if (version == 4) {
                    return network(ETHERTYPE_IPV4, STEP_IPV4);
                }
                if (version == 6) {
                    return network(ETHERTYPE_IPV6, STEP_IPV6);
                }
                return stop(DecodeStatus.MALFORMED, Layer.LINK, StopReasons.RAW_NOT_IP);
            }
            case LinkTypes.IPV4:
                return network(ETHERTYPE_IPV4, STEP_IPV4);
            case LinkTypes.IPV6:
                return network(ETHERTYPE_IPV6, STEP_IPV6);
            default:
                return stop(DecodeStatus.UNSUPPORTED, Layer.LINK, StopReasons.LINK_TYPE_UNSUPPORTED);
        }
    }

    /**
     * The value of a NULL header read little-endian, normalised as tshark does: the header is in the byte order of
     * the machine that captured, so a value with its upper half set was written the other way round (or is a
     * 16-bit AF value in the upper half, as IRIX writes it), and a 16-bit value with a zero low byte is swapped.
     */
    static int nullHeaderValue(int v) {
        if ((v & 0xffff_0000) != 0) {
            if ((v & 0xff00_0000) == 0 && (v & 0x00ff_0000) < 0x0006_0000) {
                return v >>> 16;
            }
            return Integer.reverseBytes(v);
        }
        if ((v & 0x0000_00ff) == 0 && (v & 0x0000_ff00) < 0x0000_0600) {
            return Short.reverseBytes((short) v) & 0xffff;
        }
        return v;
    }

    /** Records the first network header (at {@code cursor}) once, and passes {@code step} through. */
    private int network(int type, int step) {
        if (networkOffset < 0) {
            networkOffset = cursor;
            etherType = type;
        }
        return step;
    }

    /** Linux cooked headers: the protocol field is an ethertype unless it is below 0x0600 or the device is netlink. */
    private int cookedProtocol(int arphrd, int protocol) {
        if (arphrd == ARPHRD_NETLINK || protocol < ETHERTYPE_MIN) {
            return stop(DecodeStatus.UNSUPPORTED, Layer.LINK, StopReasons.ETHERTYPE_UNSUPPORTED);
        }
        nextEtherType = protocol;
        return STEP_ETHERTYPE;
    }

    private int ethernet(byte[] b) {
        int p = cursor;
        if (!need(p, ETHERNET_HEADER, Layer.LINK)) {
            return STEP_DONE;
        }
        int type = u16(b, p + 12); // safe: 14 bytes checked above
        if (type < ETHERTYPE_MIN) {
            return stop(DecodeStatus.UNSUPPORTED, Layer.LINK, StopReasons.LLC_UNSUPPORTED);
        }
        cursor = p + ETHERNET_HEADER;
        nextEtherType = type;
        return STEP_ETHERTYPE;
    }

    /** VLAN tags and MPLS labels at {@code cursor}, then the network header they announce. */
    private int etherTypeStep(byte[] b) {
        int type = nextEtherType;
        while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD) {
            int p = cursor;
            if (!need(p, VLAN_TAG, Layer.VLAN)) {
                return STEP_DONE;
            }
            // safe: 4 bytes checked above
            if (vlanCount == 0) {
                outerVlanId = u16(b, p) & 0x0fff;
            }
            vlanCount++;
            type = u16(b, p + 2);
            cursor = p + VLAN_TAG;
        }
        switch (type) {
            case ETHERTYPE_IPV4:
                return network(type, STEP_IPV4);
            case ETHERTYPE_IPV6:
                return network(type, STEP_IPV6);
            case ETHERTYPE_MPLS:
            case ETHERTYPE_MPLS_MULTICAST:
                network(type, STEP_DONE);
                return mpls(b);
            default:
                network(type, STEP_DONE);
                return stop(DecodeStatus.UNSUPPORTED, Layer.LINK, StopReasons.ETHERTYPE_UNSUPPORTED);
        }
    }

    /** An MPLS label stack up to its bottom-of-stack bit, then IPv4 or IPv6 told apart by the version nibble. */
    private int mpls(byte[] b) {
        boolean bottom = false;
        while (!bottom) {
            int p = cursor;
            if (!need(p, MPLS_LABEL, Layer.MPLS)) {
                return STEP_DONE;
            }
            bottom = (u8(b, p + 2) & 0x01) != 0; // safe: 4 bytes checked above
            mplsLabelCount++;
            cursor = p + MPLS_LABEL;
        }
        if (!need(cursor, 1, Layer.MPLS)) {
            return STEP_DONE;
        }
        int version = u8(b, cursor) >>> 4; // safe: 1 byte checked above
        if (version == 4) {
            return STEP_IPV4;
        }
        if (version == 6) {
            return STEP_IPV6;
        }
        return stop(DecodeStatus.UNSUPPORTED, Layer.MPLS, StopReasons.MPLS_PAYLOAD_UNSUPPORTED);
    }

    /** GRE version 0 (RFC 2784/2890): optional checksum, key and sequence words, then the protocol type. */
    private int gre(byte[] b) {
        int p = cursor;
        if (!need(p, GRE_MIN_HEADER, Layer.GRE)) {
            return STEP_DONE;
        }
        int flags = u16(b, p); // safe: 4 bytes checked above
        int protocol = u16(b, p + 2);
        if ((flags & 0x0007) != 0 || (flags & 0x4000) != 0) {
            // version 1 is PPTP's enhanced GRE (PPP inside); the routing bit is deprecated (RFC 2784)
            return stop(DecodeStatus.UNSUPPORTED, Layer.GRE, StopReasons.GRE_UNSUPPORTED);
        }
        int length = GRE_MIN_HEADER + ((flags & 0x8000) != 0 ? 4 : 0) + ((flags & 0x2000) != 0 ? 4 : 0)
                + ((flags & 0x1000) != 0 ? 4 : 0);
        if (!need(p, length, Layer.GRE)) {
            return STEP_DONE;
        }
        cursor = p + length;
        switch (protocol) {
            case ETHERTYPE_IPV4:
                return STEP_IPV4;
            case ETHERTYPE_IPV6:
                return STEP_IPV6;
            case ETHERTYPE_TRANSPARENT_ETHERNET:
                return STEP_ETHERNET;
            default:
                return stop(DecodeStatus.UNSUPPORTED, Layer.GRE, StopReasons.GRE_UNSUPPORTED);
        }
    }

    // ---- IP -----------------------------------------------------------------------------------------------------

    private int ipv4(byte[] b) {
        int p = cursor;
        if (!need(p, 1, Layer.IPV4)) {
            return STEP_DONE;
        }
        int versionIhl = u8(b, p); // safe: 1 byte checked above
        if (versionIhl >>> 4 != 4) {
            return stop(DecodeStatus.MALFORMED, Layer.IPV4, StopReasons.IPV4_VERSION);
        }
        int ihl = (versionIhl & 0x0f) * 4;
        if (ihl < IPV4_MIN_HEADER) {
            return stop(DecodeStatus.MALFORMED, Layer.IPV4, StopReasons.IPV4_IHL);
        }
        if (!need(p, 4, Layer.IPV4)) {
            return STEP_DONE;
        }
        int totalLength = u16(b, p + 2); // safe: 4 bytes checked above
        int reported = limit - p;
        boolean fromFrame = totalLength == 0;
        if (fromFrame) {
            totalLength = reported; // offload / BIG TCP: the frame says how long the datagram is
        } else if (totalLength < ihl) {
            return stop(DecodeStatus.MALFORMED, Layer.IPV4, StopReasons.IPV4_TOTAL_LENGTH);
        }
        if (++ipHeaderCount > MAX_ENCAPSULATIONS) {
            return stop(DecodeStatus.UNSUPPORTED, Layer.IPV4, StopReasons.TOO_MANY_ENCAPSULATIONS);
        }
        if (firstIpv4Offset < 0) {
            firstIpv4Offset = p; // the addresses may still be cut: readers check captureEnd()
        }
        if (!need(p, IPV4_MIN_HEADER, Layer.IPV4)) {
            return STEP_DONE;
        }
        // safe: 20 bytes checked above
        ipVersion = 4;
        ipOffset = p;
        ipHeaderLength = ihl;
        ipTotalLength = totalLength;
        ipLengthFromFrame = fromFrame;
        ipId = u16(b, p + 4);
        int flagsOffset = u16(b, p + 6);
        ttl = u8(b, p + 8);
        ipProtocol = u8(b, p + 9);
        srcHi = 0;
        srcLo = IPV4_MAPPED_PREFIX | u32(b, p + 12);
        dstHi = 0;
        dstLo = IPV4_MAPPED_PREFIX | u32(b, p + 16);
        moreFragments = (flagsOffset & 0x2000) != 0;
        fragmentOffset = (flagsOffset & 0x1fff) * 8;
        fragment |= moreFragments || fragmentOffset != 0;
        if (!need(p, ihl, Layer.IPV4)) {
            return STEP_DONE;
        }
        // The datagram ends at the total length, or at the reported end if the total length claims more.
        limit = p + Math.min(totalLength, reported);
        cursor = p + ihl;
        if (fragmentOffset != 0) {
            return STEP_DONE; // a later fragment: its transport header is in the first one
        }
        return protocol(b, ipProtocol, Layer.IPV4);
    }

    private int ipv6(byte[] b) {
        int p = cursor;
        if (!need(p, 1, Layer.IPV6)) {
            return STEP_DONE;
        }
        if (u8(b, p) >>> 4 != 6) { // safe: 1 byte checked above
            return stop(DecodeStatus.MALFORMED, Layer.IPV6, StopReasons.IPV6_VERSION);
        }
        if (++ipHeaderCount > MAX_ENCAPSULATIONS) {
            return stop(DecodeStatus.UNSUPPORTED, Layer.IPV6, StopReasons.TOO_MANY_ENCAPSULATIONS);
        }
        if (firstIpv6Offset < 0) {
            firstIpv6Offset = p; // the addresses may still be cut: readers check captureEnd()
        }
        if (!need(p, IPV6_HEADER, Layer.IPV6)) {
            return STEP_DONE;
        }
        // safe: 40 bytes checked above
        int payloadLength = u16(b, p + 4);
        int next = u8(b, p + 6);
        ipVersion = 6;
        ipOffset = p;
        ttl = u8(b, p + 7);
        srcHi = i64(b, p + 8);
        srcLo = i64(b, p + 16);
        dstHi = i64(b, p + 24);
        dstLo = i64(b, p + 32);
        int reportedPayload = limit - p - IPV6_HEADER;
        ipTotalLength = IPV6_HEADER + payloadLength;
        if (payloadLength != 0) {
            limit = p + IPV6_HEADER + Math.min(payloadLength, reportedPayload);
        } // else: a jumbo payload option may give the length; until then the frame bounds the extension headers
        long jumbo = -1;

        int q = p + IPV6_HEADER;
        int fragOffset = 0;
        boolean extension = true;
        while (extension) {
            switch (next) {
                case PROTO_HOPOPTS:
                case PROTO_ROUTING:
                case PROTO_FRAGMENT:
                case PROTO_DSTOPTS:
                case PROTO_AH: {
                    if (!need(q, IPV6_EXTENSION_MIN, Layer.IPV6_EXTENSION)) {
                        return STEP_DONE;
                    }
                    // safe: 8 bytes checked above; `length` is checked before anything past them is read
                    int length = next == PROTO_FRAGMENT ? 8
                            : next == PROTO_AH ? (u8(b, q + 1) + 2) * 4 : (u8(b, q + 1) + 1) * 8;
                    if (!need(q, length, Layer.IPV6_EXTENSION)) {
                        return STEP_DONE;
                    }
                    if (next == PROTO_HOPOPTS && payloadLength == 0) {
                        jumbo = jumboPayloadLength(b, q + 2, q + length);
                    } else if (next == PROTO_FRAGMENT) {
                        int offsetFlags = u16(b, q + 2);
                        fragOffset = offsetFlags & 0xfff8;
                        moreFragments = (offsetFlags & 0x0001) != 0;
                        fragmentOffset = fragOffset;
                        ipId = i32(b, q + 4);
                        // an atomic fragment (offset 0, M clear, RFC 6946) is a whole datagram
                        fragment |= moreFragments || fragOffset != 0;
                    }
                    next = u8(b, q);
                    q += length;
                    if (fragOffset != 0) {
                        extension = false; // a later fragment: the rest is payload bytes, not headers
                    }
                    break;
                }
                default:
                    extension = false;
            }
        }
        ipHeaderLength = q - p;
        ipProtocol = next;
        cursor = q;
        if (payloadLength == 0) {
            if (jumbo >= 0) {
                ipTotalLength = (int) Math.min(IPV6_HEADER + jumbo, Integer.MAX_VALUE);
                limit = p + (int) Math.min(IPV6_HEADER + jumbo, limit - p);
                if (limit < q) {
                    return stop(DecodeStatus.MALFORMED, Layer.IPV6_EXTENSION, StopReasons.BEYOND_ENCLOSING_LENGTH);
                }
            } else if (next != PROTO_NONE) {
                return stop(DecodeStatus.MALFORMED, Layer.IPV6, StopReasons.IPV6_ZERO_PAYLOAD_LENGTH);
            }
        }
        if (fragOffset != 0) {
            return STEP_DONE; // a later fragment: its transport header is in the first one
        }
        return protocol(b, next, Layer.IPV6);
    }

    /** The jumbo payload length in a hop-by-hop options area [from, to), or -1 if it has none. */
    private static long jumboPayloadLength(byte[] b, int from, int to) {
        int o = from;
        while (o < to) {
            int type = u8(b, o); // safe: o < to <= captured end of the extension header
            if (type == IPV6_OPTION_PAD1) {
                o++;
                continue;
            }
            if (o + 2 > to) {
                return -1;
            }
            int length = u8(b, o + 1);
            if (o + 2 + length > to) {
                return -1;
            }
            if (type == IPV6_OPTION_JUMBO && length == 4) {
                return u32(b, o + 2);
            }
            o += 2 + length;
        }
        return -1;
    }

    /** What follows an IP header whose payload starts at {@code cursor} and ends at {@code limit}. */
    private int protocol(byte[] b, int proto, Layer ipLayer) {
        switch (proto) {
            case PROTO_TCP:
                tcp(b);
                return STEP_DONE;
            case PROTO_UDP:
                udp(b);
                return STEP_DONE;
            case PROTO_ICMP:
                icmp(b, Layer.ICMP);
                return STEP_DONE;
            case PROTO_ICMPV6:
                icmp(b, Layer.ICMPV6);
                return STEP_DONE;
            case PROTO_IPIP:
                return STEP_IPV4;
            case PROTO_IPV6:
                return STEP_IPV6;
            case PROTO_GRE:
                return STEP_GRE;
            case PROTO_NONE:
                return STEP_DONE;
            default:
                return stop(DecodeStatus.UNSUPPORTED, ipLayer, StopReasons.IP_PROTOCOL_UNSUPPORTED);
        }
    }

    // ---- transport ----------------------------------------------------------------------------------------------

    /** Bytes of the transport header at {@code t} that are both captured and inside the IP payload. */
    private int available(int t) {
        return Math.min(captureEnd, limit) - t;
    }

    private void tcp(byte[] b) {
        int t = cursor;
        transportOffset = t;
        transportLength = limit - t;
        int avail = available(t);
        if (avail >= 4) {
            hasTcpPorts = true;
            srcPort = u16(b, t); // safe: 4 bytes available
            dstPort = u16(b, t + 2);
        }
        if (avail < TCP_FIXED_FIELDS) {
            need(t, TCP_MIN_HEADER, Layer.TCP); // records TRUNCATED or MALFORMED
            return;
        }
        // safe: 16 bytes available
        seq = u32(b, t + 4);
        ack = u32(b, t + 8);
        int offsetFlags = u16(b, t + 12);
        int headerLength = (offsetFlags >>> 12) * 4;
        tcpHeaderLength = headerLength;
        tcpFlags = offsetFlags & 0x0fff;
        window = u16(b, t + 14);
        if (headerLength < TCP_MIN_HEADER) {
            stop(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.TCP_DATA_OFFSET);
            return;
        }
        hasTcp = true;
        payloadOffset = t + headerLength;
        payloadLength = Math.max(0, transportLength - headerLength);
        capturedPayloadLength = Math.max(0, avail - headerLength);
        if (!need(t, TCP_MIN_HEADER, Layer.TCP)) {
            return;
        }
        urgentPointer = u16(b, t + 18); // safe: 20 bytes checked above
        // Options: only those lying wholly inside the header, the IP payload and the capture are read.
        boolean optionsValid = TcpOptions.parse(this, b, t + TCP_MIN_HEADER, t + Math.min(headerLength, avail),
                t + headerLength);
        if (!need(t, headerLength, Layer.TCP)) {
            return;
        }
        if (!optionsValid) {
            stop(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.TCP_OPTION_LENGTH);
        }
    }

    private void udp(byte[] b) {
        int t = cursor;
        transportOffset = t;
        transportLength = limit - t;
        int avail = available(t);
        if (avail >= 4) {
            hasUdpPorts = true;
            srcPort = u16(b, t); // safe: 4 bytes available
            dstPort = u16(b, t + 2);
        }
        if (!need(t, UDP_HEADER, Layer.UDP)) {
            return;
        }
        hasUdp = true;
        udpLength = u16(b, t + 4); // safe: 8 bytes checked above
        payloadOffset = t + UDP_HEADER;
        int datagram = Math.min(Math.max(udpLength, UDP_HEADER), transportLength);
        payloadLength = Math.max(0, datagram - UDP_HEADER);
        capturedPayloadLength = Math.max(0, Math.min(avail, datagram) - UDP_HEADER);
        // In a first fragment the UDP length covers the whole datagram, so only "below 8" can be checked there.
        if (udpLength < UDP_HEADER || (udpLength > transportLength && !moreFragments)) {
            stop(DecodeStatus.MALFORMED, Layer.UDP, StopReasons.UDP_LENGTH);
        }
    }

    private void icmp(byte[] b, Layer layer) {
        int t = cursor;
        transportOffset = t;
        transportLength = limit - t;
        if (!need(t, ICMP_HEADER, layer)) {
            return;
        }
        hasIcmp = true;
        icmpType = u8(b, t); // safe: 8 bytes checked above
        icmpCode = u8(b, t + 1);
        payloadOffset = t + ICMP_HEADER;
        payloadLength = transportLength - ICMP_HEADER;
        capturedPayloadLength = available(t) - ICMP_HEADER;
        boolean error = layer == Layer.ICMP
                ? icmpType == 3 || icmpType == 4 || icmpType == 5 || icmpType == 11 || icmpType == 12
                : icmpType >= 1 && icmpType <= 4;
        if (error) {
            QuotedHeaders.parse(this, b, t + ICMP_HEADER, Math.min(captureEnd, limit));
        }
    }

    // ---- accessors ------------------------------------------------------------------------------------------------

    /** The first offset past the captured bytes of the last decoded packet. */
    public int captureEnd() { return captureEnd; }

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
    /** The IP length field was 0 (segmentation offload, BIG TCP): {@link #ipTotalLength()} is taken from the frame. */
    public boolean ipLengthFromFrame() { return ipLengthFromFrame; }
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
