package io.ackscope.decode;

import static io.ackscope.decode.BigEndian.i32;
import static io.ackscope.decode.BigEndian.i64;
import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u32;
import static io.ackscope.decode.BigEndian.u8;
import static io.ackscope.decode.PacketDecoder.MAX_ENCAPSULATIONS;
import static io.ackscope.decode.PacketDecoder.STEP_DONE;
import static io.ackscope.decode.PacketDecoder.STEP_TRANSPORT;

/**
 * An IPv6 header (RFC 8200) and its extension-header chain (hop-by-hop with the jumbo payload option of RFC 2675,
 * routing, fragment, destination options, AH) in a {@link PacketDecoder}. Stateless: reads at {@code d.cursor},
 * writes the innermost-IP fields of {@code d}, narrows {@code d.limit} to the payload and returns the next step.
 */
final class Ipv6ChainDecoder {
    private Ipv6ChainDecoder() {
    }

    static final int HEADER = 40;
    private static final int EXTENSION_MIN = 8;
    private static final int OPTION_PAD1 = 0, OPTION_JUMBO = 0xc2;

    static int decode(PacketDecoder d, byte[] b) {
        int p = d.cursor;
        if (!d.need(p, 1, Layer.IPV6)) {
            return STEP_DONE;
        }
        if (u8(b, p) >>> 4 != 6) { // safe: 1 byte checked above
            return d.stop(StopReason.IPV6_VERSION, Layer.IPV6, p);
        }
        if (++d.ipHeaderCount > MAX_ENCAPSULATIONS) {
            return d.stop(StopReason.TOO_MANY_ENCAPSULATIONS, Layer.IPV6, p);
        }
        if (d.firstIpv6Offset < 0) {
            d.firstIpv6Offset = p; // the addresses may still be cut: readers check captureEnd()
        }
        if (!d.need(p, HEADER, Layer.IPV6)) {
            return STEP_DONE;
        }
        // safe: 40 bytes checked above
        int payloadLength = u16(b, p + 4);
        d.ipVersion = 6;
        d.ipOffset = p;
        d.ttl = u8(b, p + 7);
        d.dontFragment = false; // an IPv4 header outside this one (a tunnel) does not speak for it
        d.srcHi = i64(b, p + 8);
        d.srcLo = i64(b, p + 16);
        d.dstHi = i64(b, p + 24);
        d.dstLo = i64(b, p + 32);
        int reportedPayload = d.limit - p - HEADER;
        d.ipTotalLength = HEADER + payloadLength;
        if (payloadLength != 0) {
            d.limit = p + HEADER + Math.min(payloadLength, reportedPayload);
        } // else: a jumbo payload option may give the length; until then the frame bounds the extension headers
        return extensions(d, b, p, u8(b, p + 6), payloadLength);
    }

    /**
     * The extension headers after the fixed header at {@code p}, starting with next header {@code first}; then the
     * jumbo payload length check, and the step for the transport header.
     */
    private static int extensions(PacketDecoder d, byte[] b, int p, int first, int payloadLength) {
        long jumbo = -1;
        int jumboAt = -1;
        int next = first;
        int q = p + HEADER;
        int fragOffset = 0;
        boolean extension = true;
        while (extension) {
            switch (next) {
                case IpProtocols.HOPOPTS:
                case IpProtocols.ROUTING:
                case IpProtocols.FRAGMENT:
                case IpProtocols.DSTOPTS:
                case IpProtocols.AH: {
                    if (!d.need(q, EXTENSION_MIN, Layer.IPV6_EXTENSION)) {
                        return STEP_DONE;
                    }
                    // safe: 8 bytes checked above; `length` is checked before anything past them is read
                    int length = next == IpProtocols.FRAGMENT ? 8
                            : next == IpProtocols.AH ? (u8(b, q + 1) + 2) * 4 : (u8(b, q + 1) + 1) * 8;
                    if (!d.need(q, length, Layer.IPV6_EXTENSION)) {
                        return STEP_DONE;
                    }
                    if (next == IpProtocols.HOPOPTS && payloadLength == 0) {
                        jumbo = jumboPayloadLength(b, q + 2, q + length);
                        jumboAt = q;
                    } else if (next == IpProtocols.FRAGMENT) {
                        int offsetFlags = u16(b, q + 2);
                        fragOffset = offsetFlags & 0xfff8;
                        d.moreFragments = (offsetFlags & 0x0001) != 0;
                        d.fragmentOffset = fragOffset;
                        d.ipId = i32(b, q + 4);
                        // an atomic fragment (offset 0, M clear, RFC 6946) is a whole datagram
                        d.fragment |= d.moreFragments || fragOffset != 0;
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
        d.ipHeaderLength = q - p;
        d.ipProtocol = next;
        d.cursor = q;
        if (payloadLength == 0) {
            if (jumbo >= 0) {
                d.ipTotalLength = (int) Math.min(HEADER + jumbo, Integer.MAX_VALUE);
                d.limit = p + (int) Math.min(HEADER + jumbo, d.limit - p);
                if (d.limit < q) {
                    return d.stop(StopReason.BEYOND_ENCLOSING_LENGTH, Layer.IPV6_EXTENSION, jumboAt);
                }
            } else if (next != IpProtocols.NONE) {
                return d.stop(StopReason.IPV6_ZERO_PAYLOAD_LENGTH, Layer.IPV6, p);
            }
        }
        if (fragOffset != 0) {
            return STEP_DONE; // a later fragment: its transport header is in the first one
        }
        return STEP_TRANSPORT;
    }

    /** The jumbo payload length in a hop-by-hop options area [from, to), or -1 if it has none. */
    private static long jumboPayloadLength(byte[] b, int from, int to) {
        int o = from;
        while (o < to) {
            int type = u8(b, o); // safe: o < to <= captured end of the extension header
            if (type == OPTION_PAD1) {
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
            if (type == OPTION_JUMBO && length == 4) {
                return u32(b, o + 2);
            }
            o += 2 + length;
        }
        return -1;
    }
}
