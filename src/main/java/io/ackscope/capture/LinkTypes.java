package io.ackscope.capture;

/** Names of the common LINKTYPE_ values (tcpdump's DLT names), for summaries. */
public final class LinkTypes {
    public static final int NULL = 0;
    public static final int EN10MB = 1;
    public static final int RAW_OPENBSD = 12;
    public static final int RAW = 101;
    public static final int LOOP = 108;
    public static final int LINUX_SLL = 113;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    public static final int LINUX_SLL2 = 276;

    private LinkTypes() {
    }

    /** "EN10MB", "LINUX_SLL", ..., or "LINKTYPE_n" for values not in the table. */
    public static String name(int linkType) {
        switch (linkType) {
            case NULL: return "NULL";
            case EN10MB: return "EN10MB";
            case 6: return "IEEE802";
            case 9: return "PPP";
            case 10: return "FDDI";
            case RAW_OPENBSD: return "RAW";
            case 50: return "PPP_HDLC";
            case 51: return "PPP_ETHER";
            case RAW: return "RAW";
            case 104: return "C_HDLC";
            case 105: return "IEEE802_11";
            case LOOP: return "LOOP";
            case LINUX_SLL: return "LINUX_SLL";
            case 119: return "PRISM_HEADER";
            case 127: return "IEEE802_11_RADIO";
            case 147: return "USER0";
            case 189: return "USB_LINUX";
            case 192: return "PPI";
            case 197: return "ERF";
            case 220: return "USB_LINUX_MMAPPED";
            case IPV4: return "IPV4";
            case IPV6: return "IPV6";
            case 239: return "NFLOG";
            case 249: return "USBPCAP";
            case 252: return "WIRESHARK_UPPER_PDU";
            case LINUX_SLL2: return "LINUX_SLL2";
            default: return "LINKTYPE_" + linkType;
        }
    }

    /** "EN10MB(1)". */
    public static String describe(int linkType) {
        return name(linkType) + "(" + linkType + ")";
    }
}
