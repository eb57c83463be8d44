package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;
import static io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV4;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV6;
import static io.ackscope.decode.Fixtures.ETHERTYPE_MPLS;
import static io.ackscope.decode.Fixtures.ETHERTYPE_VLAN;
import static io.ackscope.decode.Fixtures.ICMP;
import static io.ackscope.decode.Fixtures.SYN_IP;
import static io.ackscope.decode.Fixtures.SYN_TCP;
import static io.ackscope.decode.Fixtures.SYN_TCP_HEADER;
import static io.ackscope.decode.Fixtures.TCP;
import static io.ackscope.decode.Fixtures.UDP;
import static io.ackscope.decode.Fixtures.cat;
import static io.ackscope.decode.Fixtures.ethernet;
import static io.ackscope.decode.Fixtures.fill;
import static io.ackscope.decode.Fixtures.hex;
import static io.ackscope.decode.Fixtures.icmp;
import static io.ackscope.decode.Fixtures.ipv4;
import static io.ackscope.decode.Fixtures.ipv6;
import static io.ackscope.decode.Fixtures.ipv6Extension;
import static io.ackscope.decode.Fixtures.mplsLabel;
import static io.ackscope.decode.Fixtures.tcp;
import static io.ackscope.decode.Fixtures.u16;
import static io.ackscope.decode.Fixtures.udp;
import static io.ackscope.decode.Fixtures.vlanTag;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Every prefix of every header, cut as a snap length would cut it (original length unchanged), stops with
 * TRUNCATED at the layer of the cut header, and never throws.
 */
class TruncationTest {

    private final PacketDecoder d = new PacketDecoder();

    /** Expected layer for a capture of {@code n} bytes: the first boundary above n names the cut layer. */
    private void assertEveryPrefix(int linkType, byte[] packet, int[] boundaries, Layer[] layers) {
        for (int n = 0; n <= packet.length; n++) {
            d.decode(linkType, packet, 0, n, packet.length);
            Layer expected = Layer.NONE;
            for (int i = 0; i < boundaries.length; i++) {
                if (n < boundaries[i]) {
                    expected = layers[i];
                    break;
                }
            }
            String what = "captured " + n + " of " + packet.length;
            if (expected == Layer.NONE) {
                assertEquals(DecodeStatus.OK, d.status(), what);
            } else {
                assertEquals(DecodeStatus.TRUNCATED, d.status(), what);
                assertEquals(expected, d.stopLayer(), what);
                assertEquals(StopReasons.CUT_BY_SNAPLEN, d.stopReason(), what);
            }
        }
    }

    @Test
    void truncatedEthernetIpv4TcpIsCountedNotThrown() {
        assertEveryPrefix(LinkTypes.EN10MB, ETHERNET_IPV4_TCP_SYN,
                new int[] {SYN_IP, SYN_TCP, SYN_TCP + SYN_TCP_HEADER},
                new Layer[] {Layer.LINK, Layer.IPV4, Layer.TCP});
    }

    @Test
    void tcpFieldsAppearAsTsharkShowsThem() {
        byte[] p = ETHERNET_IPV4_TCP_SYN;
        for (int n = SYN_TCP; n < SYN_TCP + SYN_TCP_HEADER; n++) {
            d.decode(LinkTypes.EN10MB, p, 0, n, p.length);
            int tcpBytes = n - SYN_TCP;
            assertEquals(tcpBytes >= 4, d.hasTcpPorts(), "ports from 4 bytes, at " + tcpBytes);
            assertEquals(tcpBytes >= 16, d.hasTcp(), "fixed fields from 16 bytes, at " + tcpBytes);
        }
    }

    @Test
    void ipv4AddressesBecomeVisibleFieldByField() {
        byte[] p = ETHERNET_IPV4_TCP_SYN;
        for (int n = SYN_IP; n < SYN_TCP; n++) {
            d.decode(LinkTypes.EN10MB, p, 0, n, p.length);
            assertEquals(n >= SYN_IP + 4 ? SYN_IP : -1, d.firstIpv4Offset(), "captured " + n);
            assertEquals(n, d.captureEnd());
        }
    }

    @Test
    void truncatedVlanTaggedIpv6WithExtensionsIsCountedNotThrown() {
        byte[] packet = ethernet(ETHERTYPE_VLAN, cat(vlanTag(7, ETHERTYPE_IPV6),
                ipv6(0, cat(ipv6Extension(60), ipv6Extension(TCP), tcp(fill(5, 'q'))))));
        assertEveryPrefix(LinkTypes.EN10MB, packet,
                new int[] {14, 18, 58, 74, 94},
                new Layer[] {Layer.LINK, Layer.VLAN, Layer.IPV6, Layer.IPV6_EXTENSION, Layer.TCP});
    }

    @Test
    void truncatedMplsIpv4UdpIsCountedNotThrown() {
        byte[] packet = ethernet(ETHERTYPE_MPLS, cat(mplsLabel(1, false), mplsLabel(2, true),
                ipv4(UDP, udp(fill(5, 'u')))));
        // the byte after the label stack is read to tell IPv4 from IPv6, so its absence is the MPLS layer's cut
        assertEveryPrefix(LinkTypes.EN10MB, packet,
                new int[] {14, 23, 42, 50},
                new Layer[] {Layer.LINK, Layer.MPLS, Layer.IPV4, Layer.UDP});
    }

    @Test
    void truncatedCookedIcmpIsCountedNotThrown() {
        byte[] packet = cat(hex("00 00 00 01 00 06 02 00 00 00 00 02 00 00"), u16(ETHERTYPE_IPV4),
                ipv4(ICMP, icmp(8, 0, fill(8, 'e'))));
        assertEveryPrefix(LinkTypes.LINUX_SLL, packet,
                new int[] {16, 36, 44},
                new Layer[] {Layer.LINK, Layer.IPV4, Layer.ICMP});
    }

    @Test
    void truncatedLinuxCookedV2AndLoopbackHeadersAreCountedNotThrown() {
        byte[] ip = ipv4(TCP, tcp(fill(3, 't')));
        byte[] sll2 = cat(u16(ETHERTYPE_IPV4), hex("00 00 00 00 00 01 00 01 00 06 02 00 00 00 00 02 00 00"), ip);
        assertEveryPrefix(LinkTypes.LINUX_SLL2, sll2, new int[] {20, 40, 60},
                new Layer[] {Layer.LINK, Layer.IPV4, Layer.TCP});
        byte[] loop = cat(hex("00 00 00 02"), ip);
        assertEveryPrefix(LinkTypes.LOOP, loop, new int[] {4, 24, 44},
                new Layer[] {Layer.LINK, Layer.IPV4, Layer.TCP});
        assertEveryPrefix(LinkTypes.RAW, ip, new int[] {1, 20, 40},
                new Layer[] {Layer.LINK, Layer.IPV4, Layer.TCP});
    }
}
