package io.ackscope.decode;

/**
 * The reasons {@link PacketDecoder#stopReason()} can give. They are constants, so a per-packet stop allocates
 * nothing and outputs can count packets by reason with an identity map.
 */
public final class StopReasons {
    private StopReasons() {
    }

    // ---- TRUNCATED / MALFORMED at any layer --------------------------------------------------------------------
    /** TRUNCATED: the capture's snap length cut this header. */
    public static final String CUT_BY_SNAPLEN = "header cut by the snap length";
    /** MALFORMED: the header runs past the length the enclosing header (IP total or payload length) gives. */
    public static final String BEYOND_ENCLOSING_LENGTH = "header extends past the enclosing length field";
    /** MALFORMED: decode() was called with an offset or length outside the array. */
    public static final String BAD_BOUNDS = "record bounds outside the buffer";

    // ---- link ---------------------------------------------------------------------------------------------------
    public static final String LINK_TYPE_UNSUPPORTED = "link type not decoded";
    public static final String ETHERTYPE_UNSUPPORTED = "ethertype not decoded";
    public static final String LLC_UNSUPPORTED = "IEEE 802.3 length field (LLC frame) not decoded";
    public static final String ADDRESS_FAMILY_UNSUPPORTED = "loopback address family not decoded";
    public static final String RAW_NOT_IP = "raw IP link type with an IP version other than 4 or 6";
    public static final String MPLS_PAYLOAD_UNSUPPORTED = "MPLS payload is neither IPv4 nor IPv6";

    // ---- IP -----------------------------------------------------------------------------------------------------
    public static final String IPV4_VERSION = "IP version field is not 4";
    public static final String IPV4_IHL = "IPv4 header length (IHL) below 5";
    public static final String IPV4_TOTAL_LENGTH = "IPv4 total length below the header length";
    public static final String IPV6_VERSION = "IP version field is not 6";
    /**
     * IPv6 payload length 0 with a next header other than 59 and no jumbo payload option. Linux BIG TCP captures
     * look like this; tshark 4.0 and tcpdump 4.99 do not decode the transport header either.
     */
    public static final String IPV6_ZERO_PAYLOAD_LENGTH = "IPv6 payload length 0 without a jumbo payload option";
    public static final String IP_PROTOCOL_UNSUPPORTED = "IP protocol not decoded";
    public static final String TOO_MANY_ENCAPSULATIONS = "too many nested IP headers";
    public static final String GRE_UNSUPPORTED = "GRE version, routing or protocol type not decoded";

    // ---- transport ----------------------------------------------------------------------------------------------
    public static final String TCP_DATA_OFFSET = "TCP data offset below 5";
    public static final String TCP_OPTION_LENGTH = "TCP option with an invalid length";
    public static final String UDP_LENGTH = "UDP length below 8 or past the IP payload";
}
