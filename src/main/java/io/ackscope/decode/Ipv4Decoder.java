package io.ackscope.decode;

import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u32;
import static io.ackscope.decode.BigEndian.u8;
import static io.ackscope.decode.PacketDecoder.IPV4_MAPPED_PREFIX;
import static io.ackscope.decode.PacketDecoder.MAX_ENCAPSULATIONS;
import static io.ackscope.decode.PacketDecoder.STEP_DONE;
import static io.ackscope.decode.PacketDecoder.STEP_TRANSPORT;

/**
 * An IPv4 header (RFC 791) with its options, in a {@link PacketDecoder}. Stateless: reads at {@code d.cursor},
 * writes the innermost-IP fields of {@code d}, narrows {@code d.limit} to the datagram and returns the next step.
 */
final class Ipv4Decoder {
    private Ipv4Decoder() {
    }

    static final int MIN_HEADER = 20;

    static int decode(PacketDecoder d, byte[] b) {
        int p = d.cursor;
        if (!d.need(p, 1, Layer.IPV4)) {
            return STEP_DONE;
        }
        int versionIhl = u8(b, p); // safe: 1 byte checked above
        if (versionIhl >>> 4 != 4) {
            return d.stop(StopReason.IPV4_VERSION, Layer.IPV4, p);
        }
        int ihl = (versionIhl & 0x0f) * 4;
        if (ihl < MIN_HEADER) {
            return d.stop(StopReason.IPV4_IHL, Layer.IPV4, p);
        }
        if (!d.need(p, 4, Layer.IPV4)) {
            return STEP_DONE;
        }
        int totalLength = u16(b, p + 2); // safe: 4 bytes checked above
        int reported = d.limit - p;
        boolean fromFrame = totalLength == 0;
        if (fromFrame) {
            totalLength = reported; // offload / BIG TCP: the frame says how long the datagram is
        } else if (totalLength < ihl) {
            return d.stop(StopReason.IPV4_TOTAL_LENGTH, Layer.IPV4, p);
        }
        if (++d.ipHeaderCount > MAX_ENCAPSULATIONS) {
            return d.stop(StopReason.TOO_MANY_ENCAPSULATIONS, Layer.IPV4, p);
        }
        if (d.firstIpv4Offset < 0) {
            d.firstIpv4Offset = p; // the addresses may still be cut: readers check captureEnd()
        }
        if (!d.need(p, MIN_HEADER, Layer.IPV4)) {
            return STEP_DONE;
        }
        // safe: 20 bytes checked above
        d.ipVersion = 4;
        d.ipOffset = p;
        d.ipHeaderLength = ihl;
        d.ipTotalLength = totalLength;
        d.ipLengthFromFrame = fromFrame;
        d.ipId = u16(b, p + 4);
        int flagsOffset = u16(b, p + 6);
        d.ttl = u8(b, p + 8);
        d.ipProtocol = u8(b, p + 9);
        d.srcHi = 0;
        d.srcLo = IPV4_MAPPED_PREFIX | u32(b, p + 12);
        d.dstHi = 0;
        d.dstLo = IPV4_MAPPED_PREFIX | u32(b, p + 16);
        d.dontFragment = (flagsOffset & 0x4000) != 0;
        d.moreFragments = (flagsOffset & 0x2000) != 0;
        d.fragmentOffset = (flagsOffset & 0x1fff) * 8;
        d.fragment |= d.moreFragments || d.fragmentOffset != 0;
        if (!d.need(p, ihl, Layer.IPV4)) {
            return STEP_DONE;
        }
        // The datagram ends at the total length, or at the reported end if the total length claims more.
        d.limit = p + Math.min(totalLength, reported);
        d.cursor = p + ihl;
        if (d.fragmentOffset != 0) {
            return STEP_DONE; // a later fragment: its transport header is in the first one
        }
        return STEP_TRANSPORT;
    }
}
