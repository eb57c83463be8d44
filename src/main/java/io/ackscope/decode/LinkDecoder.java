package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;

import static io.ackscope.decode.BigEndian.i32;
import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u8;
import static io.ackscope.decode.PacketDecoder.STEP_DONE;
import static io.ackscope.decode.PacketDecoder.STEP_ETHERNET;
import static io.ackscope.decode.PacketDecoder.STEP_ETHERTYPE;
import static io.ackscope.decode.PacketDecoder.STEP_IPV4;
import static io.ackscope.decode.PacketDecoder.STEP_IPV6;

/**
 * The link layer of a {@link PacketDecoder}: the record's link-type header (Ethernet, Linux SLL/SLL2, BSD
 * loopback, raw IP), 802.1Q/802.1ad tag stacks and MPLS label stacks, up to the first network header. Stateless:
 * each step reads at {@code d.cursor}, writes the link fields of {@code d} and returns the next step.
 */
final class LinkDecoder {
    private LinkDecoder() {
    }

    private static final int ETHERNET_HEADER = 14;
    private static final int SLL_HEADER = 16;
    private static final int SLL2_HEADER = 20;
    private static final int LOOPBACK_HEADER = 4;
    private static final int VLAN_TAG = 4;
    private static final int MPLS_LABEL = 4;

    static final int ETHERTYPE_IPV4 = 0x0800;
    static final int ETHERTYPE_IPV6 = 0x86dd;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88a8;
    private static final int ETHERTYPE_QINQ_OLD = 0x9100;
    private static final int ETHERTYPE_MPLS = 0x8847;
    private static final int ETHERTYPE_MPLS_MULTICAST = 0x8848;
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

    /** The link-type header at {@code d.cursor}; returns the step for what follows it. */
    static int linkHeader(PacketDecoder d, byte[] b, int type) {
        int p = d.cursor;
        switch (type) {
            case LinkTypes.EN10MB:
                return STEP_ETHERNET;
            case LinkTypes.LINUX_SLL: {
                if (!d.need(p, SLL_HEADER, Layer.LINK)) {
                    return STEP_DONE;
                }
                // safe: 16 bytes checked above
                int arphrd = u16(b, p + 2);
                int protocol = u16(b, p + 14);
                d.cursor = p + SLL_HEADER;
                return cookedProtocol(d, arphrd, protocol, p);
            }
            case LinkTypes.LINUX_SLL2: {
                if (!d.need(p, SLL2_HEADER, Layer.LINK)) {
                    return STEP_DONE;
                }
                // safe: 20 bytes checked above
                int protocol = u16(b, p);
                int arphrd = u16(b, p + 8);
                d.cursor = p + SLL2_HEADER;
                return cookedProtocol(d, arphrd, protocol, p);
            }
            case LinkTypes.NULL:
            case LinkTypes.LOOP:
                return loopback(d, b, type);
            case LinkTypes.RAW:
            case LinkTypes.RAW_OPENBSD:
            case DLT_RAW_14: {
                if (!d.need(p, 1, Layer.LINK)) {
                    return STEP_DONE;
                }
                int version = u8(b, p) >>> 4; // safe: 1 byte checked above
                if (version == 4) {
                    return network(d, ETHERTYPE_IPV4, STEP_IPV4);
                }
                if (version == 6) {
                    return network(d, ETHERTYPE_IPV6, STEP_IPV6);
                }
                return d.stop(StopReason.RAW_NOT_IP, Layer.LINK, p);
            }
            case LinkTypes.IPV4:
                return network(d, ETHERTYPE_IPV4, STEP_IPV4);
            case LinkTypes.IPV6:
                return network(d, ETHERTYPE_IPV6, STEP_IPV6);
            default:
                return d.stop(StopReason.LINK_TYPE_UNSUPPORTED, Layer.LINK, p);
        }
    }

    /** A NULL or LOOP header: an address family (or, in some NULL captures, an ethertype). */
    private static int loopback(PacketDecoder d, byte[] b, int type) {
        int p = d.cursor;
        if (!d.need(p, LOOPBACK_HEADER, Layer.LINK)) {
            return STEP_DONE;
        }
        int value = i32(b, p); // safe: 4 bytes checked above
        if (type == LinkTypes.NULL) {
            value = nullHeaderValue(Integer.reverseBytes(value));
        }
        d.cursor = p + LOOPBACK_HEADER;
        if (type == LinkTypes.NULL && value > IEEE_802_3_MAX_LENGTH) {
            d.nextEtherType = value & 0xffff; // some NULL captures put an ethertype here (not LOOP ones)
            return STEP_ETHERTYPE;
        }
        if (value == AF_INET) {
            return network(d, ETHERTYPE_IPV4, STEP_IPV4);
        }
        if (value == AF_INET6_NETBSD_OPENBSD || value == AF_INET6_FREEBSD || value == AF_INET6_DARWIN) {
            return network(d, ETHERTYPE_IPV6, STEP_IPV6);
        }
        return d.stop(StopReason.ADDRESS_FAMILY_UNSUPPORTED, Layer.LINK, p);
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

    /** Records the first network header (at {@code d.cursor}) once, and passes {@code step} through. */
    private static int network(PacketDecoder d, int type, int step) {
        if (d.networkOffset < 0) {
            d.networkOffset = d.cursor;
            d.etherType = type;
        }
        return step;
    }

    /** Linux cooked headers: the protocol field is an ethertype unless it is below 0x0600 or the device is netlink. */
    private static int cookedProtocol(PacketDecoder d, int arphrd, int protocol, int header) {
        if (arphrd == ARPHRD_NETLINK || protocol < ETHERTYPE_MIN) {
            return d.stop(StopReason.ETHERTYPE_UNSUPPORTED, Layer.LINK, header);
        }
        d.nextEtherType = protocol;
        return STEP_ETHERTYPE;
    }

    /** An Ethernet II header at {@code d.cursor} (also the payload of GRE transparent Ethernet bridging). */
    static int ethernet(PacketDecoder d, byte[] b) {
        int p = d.cursor;
        if (!d.need(p, ETHERNET_HEADER, Layer.LINK)) {
            return STEP_DONE;
        }
        int type = u16(b, p + 12); // safe: 14 bytes checked above
        if (type < ETHERTYPE_MIN) {
            return d.stop(StopReason.LLC_UNSUPPORTED, Layer.LINK, p);
        }
        d.cursor = p + ETHERNET_HEADER;
        d.nextEtherType = type;
        return STEP_ETHERTYPE;
    }

    /** VLAN tags and MPLS labels at {@code d.cursor}, then the network header they announce. */
    static int etherType(PacketDecoder d, byte[] b) {
        int type = d.nextEtherType;
        while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD) {
            int p = d.cursor;
            if (!d.need(p, VLAN_TAG, Layer.VLAN)) {
                return STEP_DONE;
            }
            // safe: 4 bytes checked above
            if (d.vlanCount == 0) {
                d.outerVlanId = u16(b, p) & 0x0fff;
            }
            d.vlanCount++;
            type = u16(b, p + 2);
            d.cursor = p + VLAN_TAG;
        }
        switch (type) {
            case ETHERTYPE_IPV4:
                return network(d, type, STEP_IPV4);
            case ETHERTYPE_IPV6:
                return network(d, type, STEP_IPV6);
            case ETHERTYPE_MPLS:
            case ETHERTYPE_MPLS_MULTICAST:
                network(d, type, STEP_DONE);
                return mpls(d, b);
            default:
                network(d, type, STEP_DONE);
                return d.stop(StopReason.ETHERTYPE_UNSUPPORTED, Layer.LINK, d.cursor);
        }
    }

    /** An MPLS label stack up to its bottom-of-stack bit, then IPv4 or IPv6 told apart by the version nibble. */
    private static int mpls(PacketDecoder d, byte[] b) {
        boolean bottom = false;
        while (!bottom) {
            int p = d.cursor;
            if (!d.need(p, MPLS_LABEL, Layer.MPLS)) {
                return STEP_DONE;
            }
            bottom = (u8(b, p + 2) & 0x01) != 0; // safe: 4 bytes checked above
            d.mplsLabelCount++;
            d.cursor = p + MPLS_LABEL;
        }
        if (!d.need(d.cursor, 1, Layer.MPLS)) {
            return STEP_DONE;
        }
        int version = u8(b, d.cursor) >>> 4; // safe: 1 byte checked above
        if (version == 4) {
            return STEP_IPV4;
        }
        if (version == 6) {
            return STEP_IPV6;
        }
        return d.stop(StopReason.MPLS_PAYLOAD_UNSUPPORTED, Layer.MPLS, d.cursor);
    }
}
