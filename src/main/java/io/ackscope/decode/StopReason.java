package io.ackscope.decode;

/**
 * Why {@link PacketDecoder} stopped before the end of a packet. Each reason implies one {@link DecodeStatus}
 * ({@link #status()}) and has the text outputs print ({@link #text()}, the same {@code String} instance every time,
 * so counting by text allocates nothing). {@link PacketDecoder#stopOffset()} says where in the buffer the header
 * that stopped decoding starts.
 */
public enum StopReason {
    // ---- TRUNCATED / MALFORMED at any layer --------------------------------------------------------------------
    /** The capture's snap length cut this header. */
    CUT_BY_SNAPLEN(DecodeStatus.TRUNCATED, "header cut by the snap length"),
    /** The header runs past the length the enclosing header (IP total or payload length) gives. */
    BEYOND_ENCLOSING_LENGTH(DecodeStatus.MALFORMED, "header extends past the enclosing length field"),
    /** decode() was called with an offset or length outside the array. */
    BAD_BOUNDS(DecodeStatus.MALFORMED, "record bounds outside the buffer"),

    // ---- link ---------------------------------------------------------------------------------------------------
    LINK_TYPE_UNSUPPORTED(DecodeStatus.UNSUPPORTED, "link type not decoded"),
    ETHERTYPE_UNSUPPORTED(DecodeStatus.UNSUPPORTED, "ethertype not decoded"),
    LLC_UNSUPPORTED(DecodeStatus.UNSUPPORTED, "IEEE 802.3 length field (LLC frame) not decoded"),
    ADDRESS_FAMILY_UNSUPPORTED(DecodeStatus.UNSUPPORTED, "loopback address family not decoded"),
    RAW_NOT_IP(DecodeStatus.MALFORMED, "raw IP link type with an IP version other than 4 or 6"),
    MPLS_PAYLOAD_UNSUPPORTED(DecodeStatus.UNSUPPORTED, "MPLS payload is neither IPv4 nor IPv6"),

    // ---- IP -----------------------------------------------------------------------------------------------------
    IPV4_VERSION(DecodeStatus.MALFORMED, "IP version field is not 4"),
    IPV4_IHL(DecodeStatus.MALFORMED, "IPv4 header length (IHL) below 5"),
    IPV4_TOTAL_LENGTH(DecodeStatus.MALFORMED, "IPv4 total length below the header length"),
    IPV6_VERSION(DecodeStatus.MALFORMED, "IP version field is not 6"),
    /**
     * IPv6 payload length 0 with a next header other than 59 and no jumbo payload option. Linux BIG TCP captures
     * look like this; tshark 4.0 and tcpdump 4.99 do not decode the transport header either.
     */
    IPV6_ZERO_PAYLOAD_LENGTH(DecodeStatus.MALFORMED, "IPv6 payload length 0 without a jumbo payload option"),
    IP_PROTOCOL_UNSUPPORTED(DecodeStatus.UNSUPPORTED, "IP protocol not decoded"),
    TOO_MANY_ENCAPSULATIONS(DecodeStatus.UNSUPPORTED, "too many nested IP headers"),
    GRE_UNSUPPORTED(DecodeStatus.UNSUPPORTED, "GRE version, routing or protocol type not decoded"),

    // ---- transport ----------------------------------------------------------------------------------------------
    TCP_DATA_OFFSET(DecodeStatus.MALFORMED, "TCP data offset below 5"),
    TCP_OPTION_LENGTH(DecodeStatus.MALFORMED, "TCP option with an invalid length"),
    UDP_LENGTH(DecodeStatus.MALFORMED, "UDP length below 8 or past the IP payload");

    private final DecodeStatus status;
    private final String text;

    StopReason(DecodeStatus status, String text) {
        this.status = status;
        this.text = text;
    }

    /** The status a packet stopped for this reason has: TRUNCATED, MALFORMED or UNSUPPORTED. */
    public DecodeStatus status() {
        return status;
    }

    /** The text outputs print for this reason (what {@link PacketDecoder#stopReason()} returns). */
    public String text() {
        return text;
    }
}
