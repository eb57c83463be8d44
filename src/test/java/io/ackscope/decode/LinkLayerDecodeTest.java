package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;
import static io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN;
import static io.ackscope.decode.Fixtures.ETHERTYPE_ARP;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV4;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV6;
import static io.ackscope.decode.Fixtures.ETHERTYPE_MPLS;
import static io.ackscope.decode.Fixtures.ETHERTYPE_QINQ;
import static io.ackscope.decode.Fixtures.ETHERTYPE_QINQ_OLD;
import static io.ackscope.decode.Fixtures.ETHERTYPE_VLAN;
import static io.ackscope.decode.Fixtures.TCP;
import static io.ackscope.decode.Fixtures.cat;
import static io.ackscope.decode.Fixtures.ethernet;
import static io.ackscope.decode.Fixtures.hex;
import static io.ackscope.decode.Fixtures.ipv4;
import static io.ackscope.decode.Fixtures.ipv6;
import static io.ackscope.decode.Fixtures.mplsLabel;
import static io.ackscope.decode.Fixtures.tcp;
import static io.ackscope.decode.Fixtures.u16;
import static io.ackscope.decode.Fixtures.vlanTag;
import static io.ackscope.decode.Fixtures.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LinkLayerDecodeTest {

    private final PacketDecoder d = new PacketDecoder();

    private static final byte[] IPV4_TCP = ipv4(TCP, tcp(new byte[] {'h', 'i'}));
    private static final byte[] IPV6_TCP = ipv6(TCP, tcp(new byte[] {'h', 'i'}));

    private void decode(int linkType, byte[] packet) {
        d.decode(linkType, packet, 0, packet.length, packet.length);
    }

    private void assertIpv4TcpAt(int ipOffset) {
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(Layer.NONE, d.stopLayer());
        assertEquals(4, d.ipVersion());
        assertEquals(ipOffset, d.ipOffset());
        assertEquals(ipOffset, d.firstIpv4Offset());
        assertTrue(d.hasTcp());
        assertEquals(1234, d.srcPort());
        assertEquals(80, d.dstPort());
        assertEquals(2, d.payloadLength());
    }

    @Test
    void decodesTheCanonicalEthernetSyn() {
        decode(LinkTypes.EN10MB, ETHERNET_IPV4_TCP_SYN);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(0x0800, d.etherType());
        assertEquals(14, d.networkOffset());
        assertEquals(-1, d.outerVlanId());
        assertEquals(0, d.srcHi());
        assertEquals(0x0000_ffff_c0a8_0001L, d.srcLo());
        assertEquals(0x0000_ffff_c0a8_00c7L, d.dstLo());
        assertEquals(64, d.ttl());
        assertEquals(0x1c46, d.ipId());
        assertEquals(60, d.ipTotalLength());
        assertEquals(40972, d.srcPort());
        assertEquals(80, d.dstPort());
        assertEquals(225062702L, d.seq());
        assertEquals(PacketDecoder.SYN, d.tcpFlags());
        assertEquals(64240, d.window());
        assertEquals(40, d.tcpHeaderLength());
        assertEquals(1460, d.mss());
        assertEquals(7, d.windowScale());
        assertTrue(d.sackPermitted());
        assertTrue(d.hasTimestamps());
        assertEquals(667468L, d.tsVal());
        assertEquals(0L, d.tsEcr());
        assertEquals(0, d.payloadLength());
        assertEquals(74, d.captureEnd());
    }

    @Test
    void decodesLinuxCookedV1() {
        byte[] sll = cat(
                hex("00 00"),                   // packet type: to us
                hex("00 01"),                   // ARPHRD_ETHER
                hex("00 06"),                   // address length 6
                hex("02 00 00 00 00 02 00 00"), // address, padded to 8
                u16(ETHERTYPE_IPV4),            // protocol
                IPV4_TCP);
        decode(LinkTypes.LINUX_SLL, sll);
        assertIpv4TcpAt(16);
    }

    @Test
    void decodesLinuxCookedV2() {
        byte[] sll2 = cat(
                u16(ETHERTYPE_IPV6),            // protocol
                hex("00 00"),                   // reserved
                hex("00 00 00 02"),             // interface index
                hex("00 01"),                   // ARPHRD_ETHER
                hex("04"),                      // packet type: outgoing
                hex("06"),                      // address length 6
                hex("02 00 00 00 00 02 00 00"), // address, padded to 8
                IPV6_TCP);
        decode(LinkTypes.LINUX_SLL2, sll2);
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(6, d.ipVersion());
        assertEquals(20, d.firstIpv6Offset());
        assertTrue(d.hasTcp());
    }

    @Test
    void cookedNetlinkIsUnsupported() {
        byte[] sll = cat(hex("00 04", "03 38", "00 00", "00 00 00 00 00 00 00 00"), // outgoing, ARPHRD_NETLINK 824
                u16(0x0000), zeros(16));         // netlink protocol
        decode(LinkTypes.LINUX_SLL, sll);
        assertEquals(DecodeStatus.UNSUPPORTED, d.status());
        assertEquals(Layer.LINK, d.stopLayer());
    }

    @Test
    void decodesRawIpUnderEveryRawNumbering() {
        for (int linkType : new int[] {LinkTypes.RAW, LinkTypes.RAW_OPENBSD, 14 /* DLT_RAW on OpenBSD */}) {
            decode(linkType, IPV4_TCP);
            assertIpv4TcpAt(0);
            decode(linkType, IPV6_TCP);
            assertEquals(6, d.ipVersion(), "link type " + linkType);
            assertTrue(d.hasTcp());
        }
    }

    @Test
    void rawIpWithAnotherVersionIsMalformed() {
        decode(LinkTypes.RAW, cat(hex("55"), zeros(39)));
        assertEquals(DecodeStatus.MALFORMED, d.status());
        assertEquals(Layer.LINK, d.stopLayer());
        assertEquals(StopReasons.RAW_NOT_IP, d.stopReason());
    }

    @Test
    void ipv4AndIpv6LinkTypesCheckTheVersion() {
        decode(LinkTypes.IPV4, IPV4_TCP);
        assertIpv4TcpAt(0);
        decode(LinkTypes.IPV6, IPV6_TCP);
        assertTrue(d.hasTcp());
        decode(LinkTypes.IPV4, IPV6_TCP);
        assertEquals(DecodeStatus.MALFORMED, d.status());
        assertEquals(StopReasons.IPV4_VERSION, d.stopReason());
        decode(LinkTypes.IPV6, IPV4_TCP);
        assertEquals(StopReasons.IPV6_VERSION, d.stopReason());
    }

    @Test
    void nullHeaderIsReadInEitherByteOrder() {
        byte[] littleEndianInet = hex("02 00 00 00"); // AF_INET written by a little-endian host
        byte[] bigEndianInet = hex("00 00 00 02");    // AF_INET written by a big-endian host
        decode(LinkTypes.NULL, cat(littleEndianInet, IPV4_TCP));
        assertIpv4TcpAt(4);
        decode(LinkTypes.NULL, cat(bigEndianInet, IPV4_TCP));
        assertIpv4TcpAt(4);
        for (int af6 : new int[] {24, 28, 30}) { // AF_INET6 on NetBSD/OpenBSD, FreeBSD, Darwin
            decode(LinkTypes.NULL, cat(new byte[] {(byte) af6, 0, 0, 0}, IPV6_TCP));
            assertEquals(6, d.ipVersion(), "AF " + af6);
            decode(LinkTypes.NULL, cat(new byte[] {0, 0, 0, (byte) af6}, IPV6_TCP));
            assertEquals(6, d.ipVersion(), "AF " + af6 + " big-endian");
            assertTrue(d.hasTcp());
        }
    }

    @Test
    void nullHeaderHoldingAnEthertypeIsFollowed() {
        decode(LinkTypes.NULL, cat(hex("0f 00 08 00"), IPV4_TCP)); // as in pcpp__null_loopback.pcap frame 3
        assertIpv4TcpAt(4);
    }

    @Test
    void unknownAddressFamilyIsUnsupported() {
        decode(LinkTypes.NULL, cat(hex("07 00 00 00"), IPV4_TCP)); // AF 7 (OSI)
        assertEquals(DecodeStatus.UNSUPPORTED, d.status());
        assertEquals(Layer.LINK, d.stopLayer());
        assertEquals(StopReasons.ADDRESS_FAMILY_UNSUPPORTED, d.stopReason());
    }

    @Test
    void loopHeaderIsNetworkByteOrder() {
        decode(LinkTypes.LOOP, cat(hex("00 00 00 02"), IPV4_TCP));
        assertIpv4TcpAt(4);
        decode(LinkTypes.LOOP, cat(hex("00 00 00 18"), IPV6_TCP)); // AF_INET6 24
        assertEquals(6, d.ipVersion());
        decode(LinkTypes.LOOP, cat(hex("02 00 00 00"), IPV4_TCP)); // little-endian is not LOOP
        assertEquals(DecodeStatus.UNSUPPORTED, d.status());
    }

    @Test
    void arpIsUnsupportedAtTheLinkLayer() {
        decode(LinkTypes.EN10MB, ethernet(ETHERTYPE_ARP, zeros(28)));
        assertEquals(DecodeStatus.UNSUPPORTED, d.status());
        assertEquals(Layer.LINK, d.stopLayer());
        assertEquals(StopReasons.ETHERTYPE_UNSUPPORTED, d.stopReason());
        assertEquals(ETHERTYPE_ARP, d.etherType());
        assertEquals(14, d.networkOffset());
        assertEquals(0, d.ipVersion());
    }

    @Test
    void ieee8023LengthFieldIsUnsupported() {
        decode(LinkTypes.EN10MB, ethernet(46, zeros(46))); // length 46, LLC follows
        assertEquals(DecodeStatus.UNSUPPORTED, d.status());
        assertEquals(StopReasons.LLC_UNSUPPORTED, d.stopReason());
    }

    @Test
    void unknownLinkTypeIsUnsupported() {
        decode(147, IPV4_TCP); // LINKTYPE_USER0
        assertEquals(DecodeStatus.UNSUPPORTED, d.status());
        assertEquals(Layer.LINK, d.stopLayer());
        assertEquals(StopReasons.LINK_TYPE_UNSUPPORTED, d.stopReason());
        assertEquals(147, d.linkType());
    }

    @Test
    void vlanStacksOfEveryTagTypeAreSkipped() {
        byte[] qinqinq = ethernet(ETHERTYPE_QINQ, cat(
                vlanTag(100, ETHERTYPE_QINQ_OLD),   // outer 802.1ad tag, VLAN 100
                vlanTag(200, ETHERTYPE_VLAN),       // 0x9100 tag, VLAN 200
                vlanTag(300, ETHERTYPE_IPV4),       // inner 802.1Q tag, VLAN 300
                IPV4_TCP));
        decode(LinkTypes.EN10MB, qinqinq);
        assertIpv4TcpAt(26);
        assertEquals(3, d.vlanCount());
        assertEquals(100, d.outerVlanId());
        assertEquals(ETHERTYPE_IPV4, d.etherType());
        assertEquals(26, d.networkOffset());
    }

    @Test
    void mplsLabelStackIsSkippedToTheIpVersionNibble() {
        byte[] ipv4OverMpls = ethernet(ETHERTYPE_MPLS, cat(mplsLabel(16, false), mplsLabel(17, true), IPV4_TCP));
        decode(LinkTypes.EN10MB, ipv4OverMpls);
        assertIpv4TcpAt(22);
        assertEquals(2, d.mplsLabelCount());
        assertEquals(ETHERTYPE_MPLS, d.etherType());
        assertEquals(14, d.networkOffset());

        byte[] ipv6OverMpls = ethernet(ETHERTYPE_MPLS, cat(mplsLabel(16, true), IPV6_TCP));
        decode(LinkTypes.EN10MB, ipv6OverMpls);
        assertEquals(6, d.ipVersion());
        assertTrue(d.hasTcp());
    }

    @Test
    void mplsPseudowireIsUnsupported() {
        byte[] pseudowire = ethernet(ETHERTYPE_MPLS, cat(mplsLabel(16, true), hex("00 00 00 00"), // control word
                ethernet(ETHERTYPE_IPV4, IPV4_TCP)));
        decode(LinkTypes.EN10MB, pseudowire);
        assertEquals(DecodeStatus.UNSUPPORTED, d.status());
        assertEquals(Layer.MPLS, d.stopLayer());
    }

    @Test
    void decodesAPacketInTheMiddleOfALargerArray() {
        byte[] big = new byte[1000];
        Arrays.fill(big, (byte) 0xee);
        System.arraycopy(ETHERNET_IPV4_TCP_SYN, 0, big, 300, ETHERNET_IPV4_TCP_SYN.length);
        d.decode(LinkTypes.EN10MB, big, 300, ETHERNET_IPV4_TCP_SYN.length, ETHERNET_IPV4_TCP_SYN.length);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(314, d.ipOffset());
        assertEquals(334, d.transportOffset());
        assertEquals(374, d.payloadOffset());
        assertEquals(1460, d.mss());
    }

    @Test
    void recordBoundsOutsideTheArrayAreMalformedNotThrown() {
        byte[] b = ETHERNET_IPV4_TCP_SYN;
        int[][] bounds = {{-1, 10}, {0, b.length + 1}, {b.length, 1}, {5, -3}, {Integer.MAX_VALUE, 10}};
        for (int[] bound : bounds) {
            d.decode(LinkTypes.EN10MB, b, bound[0], bound[1], 100);
            assertEquals(DecodeStatus.MALFORMED, d.status(), Arrays.toString(bound));
            assertEquals(StopReasons.BAD_BOUNDS, d.stopReason());
            assertFalse(d.hasTcp());
        }
        d.decode(LinkTypes.EN10MB, null, 0, 0, 0);
        assertEquals(StopReasons.BAD_BOUNDS, d.stopReason());
    }
}
