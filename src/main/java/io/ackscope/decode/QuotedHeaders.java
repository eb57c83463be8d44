package io.ackscope.decode;

import static io.ackscope.decode.BigEndian.i64;
import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u32;
import static io.ackscope.decode.BigEndian.u8;

/**
 * The invoking packet quoted by an ICMP or ICMPv6 error (RFC 792, RFC 4443 section 2.4): its IP header and the
 * first bytes of its transport header. Best effort: a quote is usually cut short by design, so whatever is
 * missing is simply left unset and the packet's status does not change.
 */
final class QuotedHeaders {
    private QuotedHeaders() {
    }

    /** Parses the quote in {@code [from, to)}, where {@code to} is inside the capture and the ICMP message. */
    static void parse(PacketDecoder d, byte[] b, int from, int to) {
        int q = from;
        if (to - q < 1) {
            return;
        }
        int version = u8(b, q) >>> 4; // safe: 1 byte present
        int proto;
        int t;
        if (version == 4) {
            int ihl = (u8(b, q) & 0x0f) * 4;
            if (ihl < 20 || to - q < 4) {
                return;
            }
            int totalLength = u16(b, q + 2); // safe: 4 bytes present
            if (totalLength != 0 && totalLength < ihl) {
                return;
            }
            if (d.firstIpv4Offset < 0) {
                d.firstIpv4Offset = q;
            }
            if (to - q < 20) {
                return;
            }
            // safe: 20 bytes present
            d.quotedIpVersion = 4;
            d.quotedIpOffset = q;
            d.quotedSrcHi = 0;
            d.quotedSrcLo = PacketDecoder.IPV4_MAPPED_PREFIX | u32(b, q + 12);
            d.quotedDstHi = 0;
            d.quotedDstLo = PacketDecoder.IPV4_MAPPED_PREFIX | u32(b, q + 16);
            proto = u8(b, q + 9);
            if ((u16(b, q + 6) & 0x1fff) != 0 || to - q < ihl) {
                return; // a later fragment carries no transport header; or the options were not quoted whole
            }
            t = q + ihl;
        } else if (version == 6) {
            if (d.firstIpv6Offset < 0) {
                d.firstIpv6Offset = q;
            }
            if (to - q < 40) {
                return;
            }
            // safe: 40 bytes present
            d.quotedIpVersion = 6;
            d.quotedIpOffset = q;
            d.quotedSrcHi = i64(b, q + 8);
            d.quotedSrcLo = i64(b, q + 16);
            d.quotedDstHi = i64(b, q + 24);
            d.quotedDstLo = i64(b, q + 32);
            proto = u8(b, q + 6);
            t = q + 40;
            while ((proto == IpProtocols.HOPOPTS || proto == IpProtocols.ROUTING || proto == IpProtocols.DSTOPTS
                    || proto == IpProtocols.FRAGMENT) && to - t >= 8) {
                // safe: 8 bytes present; `length` is checked before moving past them
                int length = proto == IpProtocols.FRAGMENT ? 8 : (u8(b, t + 1) + 1) * 8;
                if (proto == IpProtocols.FRAGMENT && (u16(b, t + 2) & 0xfff8) != 0) {
                    return;
                }
                if (to - t < length) {
                    return;
                }
                proto = u8(b, t);
                t += length;
            }
        } else {
            return;
        }
        transport(d, b, proto, t, to);
    }

    /** The quoted TCP or UDP header at {@code t}, of which {@code [t, to)} is present. */
    private static void transport(PacketDecoder d, byte[] b, int proto, int t, int to) {
        int n = to - t;
        if (n < 4) {
            return;
        }
        // safe: reads below are guarded by n, the bytes present from t
        if (proto == IpProtocols.TCP) {
            d.quotedTcp = true;
            d.hasTcpPorts = true;
            d.quotedTcpBytes = Math.min(n, 60);
            d.quotedTransportOffset = t;
            d.srcPort = u16(b, t);
            d.dstPort = u16(b, t + 2);
            if (n >= 8) {
                d.seq = u32(b, t + 4);
            }
            if (n >= 12) {
                d.ack = u32(b, t + 8);
            }
            if (n >= 14) {
                int offsetFlags = u16(b, t + 12);
                d.tcpHeaderLength = (offsetFlags >>> 12) * 4;
                d.tcpFlags = offsetFlags & 0x0fff;
            }
            if (n >= 16) {
                d.window = u16(b, t + 14);
            }
            if (n >= 20) {
                d.urgentPointer = u16(b, t + 18);
            }
        } else if (proto == IpProtocols.UDP) {
            d.quotedUdp = true;
            d.hasUdpPorts = true;
            d.quotedTransportOffset = t;
            d.srcPort = u16(b, t);
            d.dstPort = u16(b, t + 2);
        }
    }
}
