package io.ackscope.decode;

/**
 * The texts of the {@link StopReason}s, as {@link PacketDecoder#stopReason()} returns them. Each is the very
 * {@code String} instance {@link StopReason#text()} holds, so {@code d.stopReason() == StopReasons.X} holds when
 * decoding stopped for reason X. New code should use {@link PacketDecoder#stopCause()} and the enum.
 */
public final class StopReasons {
    private StopReasons() {
    }

    public static final String CUT_BY_SNAPLEN = StopReason.CUT_BY_SNAPLEN.text();
    public static final String BEYOND_ENCLOSING_LENGTH = StopReason.BEYOND_ENCLOSING_LENGTH.text();
    public static final String BAD_BOUNDS = StopReason.BAD_BOUNDS.text();

    public static final String LINK_TYPE_UNSUPPORTED = StopReason.LINK_TYPE_UNSUPPORTED.text();
    public static final String ETHERTYPE_UNSUPPORTED = StopReason.ETHERTYPE_UNSUPPORTED.text();
    public static final String LLC_UNSUPPORTED = StopReason.LLC_UNSUPPORTED.text();
    public static final String ADDRESS_FAMILY_UNSUPPORTED = StopReason.ADDRESS_FAMILY_UNSUPPORTED.text();
    public static final String RAW_NOT_IP = StopReason.RAW_NOT_IP.text();
    public static final String MPLS_PAYLOAD_UNSUPPORTED = StopReason.MPLS_PAYLOAD_UNSUPPORTED.text();

    public static final String IPV4_VERSION = StopReason.IPV4_VERSION.text();
    public static final String IPV4_IHL = StopReason.IPV4_IHL.text();
    public static final String IPV4_TOTAL_LENGTH = StopReason.IPV4_TOTAL_LENGTH.text();
    public static final String IPV6_VERSION = StopReason.IPV6_VERSION.text();
    public static final String IPV6_ZERO_PAYLOAD_LENGTH = StopReason.IPV6_ZERO_PAYLOAD_LENGTH.text();
    public static final String IP_PROTOCOL_UNSUPPORTED = StopReason.IP_PROTOCOL_UNSUPPORTED.text();
    public static final String TOO_MANY_ENCAPSULATIONS = StopReason.TOO_MANY_ENCAPSULATIONS.text();
    public static final String GRE_UNSUPPORTED = StopReason.GRE_UNSUPPORTED.text();

    public static final String TCP_DATA_OFFSET = StopReason.TCP_DATA_OFFSET.text();
    public static final String TCP_OPTION_LENGTH = StopReason.TCP_OPTION_LENGTH.text();
    public static final String UDP_LENGTH = StopReason.UDP_LENGTH.text();
}
