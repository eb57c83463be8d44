package io.ackscope.decode;

/**
 * LINKTYPE_ values (the link-layer header type of a pcap file header or pcapng Interface Description Block) that
 * {@link PacketDecoder} decodes. See https://www.tcpdump.org/linktypes.html.
 */
public final class LinkTypes {
    private LinkTypes() {
    }

    /** BSD loopback: 4-byte address family in the byte order of the machine that captured. */
    public static final int NULL = 0;
    /** Ethernet (DIX or 802.3), possibly with 802.1Q/802.1ad tags. */
    public static final int EN10MB = 1;
    /** Raw IP as DLT_RAW is numbered on most platforms; some files carry the DLT value instead of 101. */
    public static final int RAW_DLT12 = 12;
    /** Raw IP as DLT_RAW is numbered on OpenBSD; some files carry the DLT value instead of 101. */
    public static final int RAW_DLT14 = 14;
    /** Raw IP: the packet starts with an IPv4 or IPv6 header, told apart by the version nibble. */
    public static final int RAW = 101;
    /** OpenBSD loopback: 4-byte address family in network byte order. */
    public static final int LOOP = 108;
    /** Linux "cooked" capture v1: 16-byte header with the protocol type at offset 14. */
    public static final int LINUX_SLL = 113;
    /** Raw IPv4 only. */
    public static final int IPV4 = 228;
    /** Raw IPv6 only. */
    public static final int IPV6 = 229;
    /** Linux "cooked" capture v2: 20-byte header with the protocol type at offset 0. */
    public static final int LINUX_SLL2 = 276;

    /** A short name for messages and reports ("EN10MB", "LINUX_SLL"...), or "LINKTYPE_n" for others. */
    public static String name(int linkType) {
        switch (linkType) {
            case NULL: return "NULL";
            case EN10MB: return "EN10MB";
            case RAW_DLT12:
            case RAW_DLT14:
            case RAW: return "RAW";
            case LOOP: return "LOOP";
            case LINUX_SLL: return "LINUX_SLL";
            case IPV4: return "IPV4";
            case IPV6: return "IPV6";
            case LINUX_SLL2: return "LINUX_SLL2";
            default: return "LINKTYPE_" + linkType;
        }
    }
}
