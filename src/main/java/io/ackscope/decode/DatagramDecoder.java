package io.ackscope.decode;

import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u8;

/**
 * The other transports in a {@link PacketDecoder}: UDP (RFC 768), and ICMP (RFC 792) and ICMPv6 (RFC 4443) with
 * the headers an error message quotes ({@link QuotedHeaders}). Stateless: reads at {@code d.cursor}, writes the
 * transport fields of {@code d}; the message ends at {@code d.limit}.
 */
final class DatagramDecoder {
    private DatagramDecoder() {
    }

    private static final int UDP_HEADER = 8;
    private static final int ICMP_HEADER = 8;

    static void udp(PacketDecoder d, byte[] b) {
        int t = d.cursor;
        int avail = d.transportWithPorts(b);
        d.hasUdpPorts = avail >= 4;
        if (!d.need(t, UDP_HEADER, Layer.UDP)) {
            return;
        }
        d.hasUdp = true;
        d.udpLength = u16(b, t + 4); // safe: 8 bytes checked above
        d.payloadOffset = t + UDP_HEADER;
        int datagram = Math.min(Math.max(d.udpLength, UDP_HEADER), d.transportLength);
        d.payloadLength = Math.max(0, datagram - UDP_HEADER);
        d.capturedPayloadLength = Math.max(0, Math.min(avail, datagram) - UDP_HEADER);
        // In a first fragment the UDP length covers the whole datagram, so only "below 8" can be checked there.
        if (d.udpLength < UDP_HEADER || (d.udpLength > d.transportLength && !d.moreFragments)) {
            d.stop(StopReason.UDP_LENGTH, Layer.UDP, t);
        }
    }

    /** ICMP ({@code layer} {@link Layer#ICMP}) or ICMPv6 ({@link Layer#ICMPV6}). */
    static void icmp(PacketDecoder d, byte[] b, Layer layer) {
        int t = d.cursor;
        d.transportOffset = t;
        d.transportLength = d.limit - t;
        if (!d.need(t, ICMP_HEADER, layer)) {
            return;
        }
        d.hasIcmp = true;
        int type = u8(b, t); // safe: 8 bytes checked above
        d.icmpType = type;
        d.icmpCode = u8(b, t + 1);
        d.payloadOffset = t + ICMP_HEADER;
        d.payloadLength = d.transportLength - ICMP_HEADER;
        d.capturedPayloadLength = d.available(t) - ICMP_HEADER;
        boolean error = layer == Layer.ICMP
                ? type == 3 || type == 4 || type == 5 || type == 11 || type == 12
                : type >= 1 && type <= 4;
        if (error) {
            QuotedHeaders.parse(d, b, t + ICMP_HEADER, Math.min(d.captureEnd, d.limit));
        }
    }
}
