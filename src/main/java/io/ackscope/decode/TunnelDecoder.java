package io.ackscope.decode;

import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.PacketDecoder.STEP_DONE;
import static io.ackscope.decode.PacketDecoder.STEP_ETHERNET;
import static io.ackscope.decode.PacketDecoder.STEP_IPV4;
import static io.ackscope.decode.PacketDecoder.STEP_IPV6;

/**
 * Tunnels in a {@link PacketDecoder}: GRE version 0 (RFC 2784/2890) carrying IPv4, IPv6 or Ethernet. IP-in-IP
 * (protocols 4 and 41) needs no header of its own: the IP decoders follow it, counting against
 * {@link PacketDecoder#MAX_ENCAPSULATIONS}. Stateless: reads at {@code d.cursor} and returns the next step.
 */
final class TunnelDecoder {
    private TunnelDecoder() {
    }

    private static final int GRE_MIN_HEADER = 4;
    private static final int ETHERTYPE_TRANSPARENT_ETHERNET = 0x6558;

    /** GRE version 0: optional checksum, key and sequence words, then the protocol type. */
    static int gre(PacketDecoder d, byte[] b) {
        int p = d.cursor;
        if (!d.need(p, GRE_MIN_HEADER, Layer.GRE)) {
            return STEP_DONE;
        }
        int flags = u16(b, p); // safe: 4 bytes checked above
        int protocol = u16(b, p + 2);
        if ((flags & 0x0007) != 0 || (flags & 0x4000) != 0) {
            // version 1 is PPTP's enhanced GRE (PPP inside); the routing bit is deprecated (RFC 2784)
            return d.stop(StopReason.GRE_UNSUPPORTED, Layer.GRE, p);
        }
        int length = GRE_MIN_HEADER + ((flags & 0x8000) != 0 ? 4 : 0) + ((flags & 0x2000) != 0 ? 4 : 0)
                + ((flags & 0x1000) != 0 ? 4 : 0);
        if (!d.need(p, length, Layer.GRE)) {
            return STEP_DONE;
        }
        d.cursor = p + length;
        switch (protocol) {
            case LinkDecoder.ETHERTYPE_IPV4:
                return STEP_IPV4;
            case LinkDecoder.ETHERTYPE_IPV6:
                return STEP_IPV6;
            case ETHERTYPE_TRANSPARENT_ETHERNET:
                return STEP_ETHERNET;
            default:
                return d.stop(StopReason.GRE_UNSUPPORTED, Layer.GRE, p);
        }
    }
}
