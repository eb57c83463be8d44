package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV4;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV6;
import static io.ackscope.decode.Fixtures.GRE;
import static io.ackscope.decode.Fixtures.IPIP;
import static io.ackscope.decode.Fixtures.IPV6_DST_HI;
import static io.ackscope.decode.Fixtures.IPV6_DST_LO;
import static io.ackscope.decode.Fixtures.IPV6_IN_IP;
import static io.ackscope.decode.Fixtures.IPV6_SRC_HI;
import static io.ackscope.decode.Fixtures.IPV6_SRC_LO;
import static io.ackscope.decode.Fixtures.TCP;
import static io.ackscope.decode.Fixtures.UDP;
import static io.ackscope.decode.Fixtures.cat;
import static io.ackscope.decode.Fixtures.ethernet;
import static io.ackscope.decode.Fixtures.fill;
import static io.ackscope.decode.Fixtures.hex;
import static io.ackscope.decode.Fixtures.ipv4;
import static io.ackscope.decode.Fixtures.ipv6;
import static io.ackscope.decode.Fixtures.ipv6Extension;
import static io.ackscope.decode.Fixtures.ipv6Fragment;
import static io.ackscope.decode.Fixtures.tcp;
import static io.ackscope.decode.Fixtures.u16;
import static io.ackscope.decode.Fixtures.u32;
import static io.ackscope.decode.Fixtures.udp;
import static io.ackscope.decode.Fixtures.with;
import static io.ackscope.decode.Fixtures.with16;
import static io.ackscope.decode.Fixtures.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IpDecodeTest {

    private static final int HOPOPTS = 0, ROUTING = 43, FRAGMENT = 44, AH = 51, NONE = 59, DSTOPTS = 60, PIM = 103;
    private static final byte[] PAYLOAD_10 = fill(10, 'x');

    private final PacketDecoder d = new PacketDecoder();

    private void decode(byte[] frame) {
        d.decode(LinkTypes.EN10MB, frame, 0, frame.length, frame.length);
    }

    private void assertStopped(DecodeStatus status, Layer layer, String reason) {
        assertEquals(status, d.status());
        assertEquals(layer, d.stopLayer());
        assertEquals(reason, d.stopReason());
    }

    // ---- IPv4 ----------------------------------------------------------------------------------------------------

    @Test
    void ipv4OptionsAreSkippedByIhl() {
        byte[] options = hex(
                "07 07 04",                     // record route, length 7, pointer 4
                "00 00 00 00",                  // one empty slot
                "00");                          // end of options list
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(PAYLOAD_10), 28 + 30, options, 0));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(28, d.ipHeaderLength());
        assertEquals(14 + 28, d.transportOffset());
        assertEquals(10, d.payloadLength());
    }

    @Test
    void ipv4WithTheLargestIhlIsDecoded() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(PAYLOAD_10), 60 + 30, zeros(40), 0));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(60, d.ipHeaderLength());
        assertTrue(d.hasTcp());
    }

    @Test
    void rejectsIhlBelowFive() {
        for (int ihl = 0; ihl < 5; ihl++) {
            byte[] frame = with(ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(PAYLOAD_10))), 14, 0x40 | ihl);
            decode(frame);
            assertStopped(DecodeStatus.MALFORMED, Layer.IPV4, StopReasons.IPV4_IHL);
            assertEquals(-1, d.firstIpv4Offset(), "tshark shows no ip.src for a bogus IHL");
            assertFalse(d.hasTcpPorts());
        }
    }

    @Test
    void rejectsTotalLengthBelowHeaderLength() {
        byte[] frame = with16(ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(PAYLOAD_10))), 16, 19);
        decode(frame);
        assertStopped(DecodeStatus.MALFORMED, Layer.IPV4, StopReasons.IPV4_TOTAL_LENGTH);
        assertEquals(-1, d.firstIpv4Offset());
    }

    @Test
    void ipv4VersionMismatchIsMalformed() {
        byte[] frame = with(ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(PAYLOAD_10))), 14, 0x65);
        decode(frame);
        assertStopped(DecodeStatus.MALFORMED, Layer.IPV4, StopReasons.IPV4_VERSION);
    }

    @Test
    void ethernetPaddingAfterTotalLengthIsNotPayload() {
        byte[] ip = ipv4(TCP, tcp(fill(2, 'y')));            // 42 bytes: 20 IP + 20 TCP + 2 payload
        byte[] frame = ethernet(ETHERTYPE_IPV4, cat(ip, zeros(4))); // padded to the 60-byte Ethernet minimum
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(42, d.ipTotalLength());
        assertEquals(2, d.payloadLength());
        assertEquals(2, d.capturedPayloadLength());
        assertEquals(22, d.transportLength());
    }

    @Test
    void zeroTotalLengthTakesTheLengthFromTheFrame() {
        // segmentation offload / BIG TCP, as tcpdump__bigtcp-ipv4.pcap: tshark uses the frame length
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(fill(100, 'z')), 0, new byte[0], 0x4000));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertTrue(d.ipLengthFromFrame());
        assertEquals(140, d.ipTotalLength());
        assertEquals(100, d.payloadLength());
    }

    @Test
    void zeroTotalLengthOfACutFrameUsesTheOriginalLength() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(fill(100, 'z')), 0, new byte[0], 0x4000));
        d.decode(LinkTypes.EN10MB, frame, 0, 64, 80_066);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(80_066 - 14, d.ipTotalLength());
        assertEquals(80_066 - 14 - 40, d.payloadLength());
        assertEquals(64 - 54, d.capturedPayloadLength());
    }

    @Test
    void totalLengthPastTheFrameIsBoundedByTheFrame() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(PAYLOAD_10), 1500, new byte[0], 0));
        decode(frame);
        assertEquals(1500, d.ipTotalLength());
        assertEquals(10, d.payloadLength(), "tshark's tcp.len uses the reported frame length when it is smaller");
    }

    @Test
    void totalLengthOfASnaplenCutFrameGivesThePayloadLength() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(fill(1000, 'p'))));
        d.decode(LinkTypes.EN10MB, frame, 0, 96, frame.length);
        assertEquals(DecodeStatus.OK, d.status(), "only payload was cut");
        assertEquals(1000, d.payloadLength());
        assertEquals(96 - 54, d.capturedPayloadLength());
    }

    @Test
    void firstIpv4FragmentDecodesItsTransportHeader() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(PAYLOAD_10), 50, new byte[0], 0x2000)); // MF
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertTrue(d.isFragment());
        assertTrue(d.moreFragments());
        assertEquals(0, d.fragmentOffset());
        assertTrue(d.hasTcp());
        assertEquals(10, d.payloadLength(), "the bytes of this fragment");
    }

    @Test
    void laterIpv4FragmentStopsAfterTheIpHeader() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, PAYLOAD_10, 30, new byte[0], 185)); // offset 1480
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertTrue(d.isFragment());
        assertFalse(d.moreFragments());
        assertEquals(1480, d.fragmentOffset());
        assertEquals(TCP, d.ipProtocol());
        assertFalse(d.hasTcpPorts());
        assertEquals(-1, d.transportOffset());
    }

    @Test
    void udpLengthOfAFirstFragmentCoversTheWholeDatagram() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(UDP, udp(PAYLOAD_10, 3000), 38, new byte[0], 0x2000));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(3000, d.udpLength());
        assertEquals(10, d.payloadLength());
    }

    @Test
    void otherIpProtocolsAreUnsupportedAtTheIpLayer() {
        decode(ethernet(ETHERTYPE_IPV4, ipv4(PIM, zeros(8))));
        assertStopped(DecodeStatus.UNSUPPORTED, Layer.IPV4, StopReasons.IP_PROTOCOL_UNSUPPORTED);
        assertEquals(PIM, d.ipProtocol());
        assertEquals(14, d.firstIpv4Offset());
        decode(ethernet(ETHERTYPE_IPV6, ipv6(PIM, zeros(8))));
        assertStopped(DecodeStatus.UNSUPPORTED, Layer.IPV6, StopReasons.IP_PROTOCOL_UNSUPPORTED);
    }

    // ---- IPv6 ----------------------------------------------------------------------------------------------------

    @Test
    void ipv6AddressesAreKeptAsTwoLongs() {
        decode(ethernet(ETHERTYPE_IPV6, ipv6(TCP, tcp(PAYLOAD_10))));
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(IPV6_SRC_HI, d.srcHi());
        assertEquals(IPV6_SRC_LO, d.srcLo());
        assertEquals(IPV6_DST_HI, d.dstHi());
        assertEquals(IPV6_DST_LO, d.dstLo());
        assertEquals(64, d.ttl());
        assertEquals(70, d.ipTotalLength());
        assertEquals(14, d.firstIpv6Offset());
        assertEquals(-1, d.firstIpv4Offset());
    }

    @Test
    void ipv6ExtensionHeaderChainIsWalked() {
        byte[] ah = cat(
                new byte[] {(byte) DSTOPTS},    // next header
                hex("04"),                      // payload length 4: (4 + 2) * 4 = 24 bytes
                hex("00 00"),                   // reserved
                hex("00 00 01 00"),             // SPI
                hex("00 00 00 01"),             // sequence number
                zeros(12));                     // ICV
        byte[] chain = cat(ipv6Extension(ROUTING), ipv6Extension(AH), ah, ipv6Extension(TCP), tcp(PAYLOAD_10));
        decode(ethernet(ETHERTYPE_IPV6, ipv6(HOPOPTS, chain)));
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(40 + 8 + 8 + 24 + 8, d.ipHeaderLength());
        assertEquals(TCP, d.ipProtocol());
        assertEquals(10, d.payloadLength());
        assertTrue(d.hasTcp());
    }

    @Test
    void atomicIpv6FragmentIsAWholeDatagram() {
        byte[] frame = ethernet(ETHERTYPE_IPV6, ipv6(FRAGMENT, cat(ipv6Fragment(TCP, 0, false), tcp(PAYLOAD_10))));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertFalse(d.isFragment(), "RFC 6946: offset 0 and M clear");
        assertEquals(0xcafebabe, d.ipId());
        assertTrue(d.hasTcp());
        assertEquals(10, d.payloadLength());
    }

    @Test
    void laterIpv6FragmentStopsAfterTheFragmentHeader() {
        byte[] frame = ethernet(ETHERTYPE_IPV6, ipv6(FRAGMENT, cat(ipv6Fragment(TCP, 1448, true), PAYLOAD_10)));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertTrue(d.isFragment());
        assertTrue(d.moreFragments());
        assertEquals(1448, d.fragmentOffset());
        assertFalse(d.hasTcpPorts());
    }

    @Test
    void noNextHeaderEndsWithoutTransport() {
        decode(ethernet(ETHERTYPE_IPV6, ipv6(NONE, new byte[0])));
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(NONE, d.ipProtocol());
        assertEquals(-1, d.transportOffset());
    }

    @Test
    void zeroPayloadLengthWithoutJumboOptionIsMalformedLikeTshark() {
        // tcpdump__bigtcp-ipv6.pcap: Linux BIG TCP strips the jumbo option before the tap; tshark 4.0 flags it
        decode(ethernet(ETHERTYPE_IPV6, ipv6(TCP, tcp(PAYLOAD_10), 0)));
        assertStopped(DecodeStatus.MALFORMED, Layer.IPV6, StopReasons.IPV6_ZERO_PAYLOAD_LENGTH);
        assertEquals(14, d.firstIpv6Offset());
        assertFalse(d.hasTcp());
    }

    @Test
    void jumboPayloadOptionGivesTheLength() {
        byte[] hopByHop = cat(
                new byte[] {TCP},               // next header
                hex("00"),                      // length 0: 8 bytes
                hex("c2 04"),                   // option jumbo payload, length 4
                u32(8 + 20 + 10));              // jumbo payload length: this header + TCP + payload
        decode(ethernet(ETHERTYPE_IPV6, ipv6(HOPOPTS, cat(hopByHop, tcp(PAYLOAD_10)), 0)));
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(40 + 38, d.ipTotalLength());
        assertEquals(10, d.payloadLength());
    }

    @Test
    void extensionHeaderPastThePayloadLengthIsMalformed() {
        byte[] chain = cat(ipv6Extension(TCP), tcp(PAYLOAD_10));
        decode(ethernet(ETHERTYPE_IPV6, ipv6(HOPOPTS, chain, 4)));
        assertStopped(DecodeStatus.MALFORMED, Layer.IPV6_EXTENSION, StopReasons.BEYOND_ENCLOSING_LENGTH);
    }

    // ---- tunnels -------------------------------------------------------------------------------------------------

    @Test
    void ipInIpUsesTheInnerHeaderForTheFlowAndTheOuterForFirstOffsets() {
        byte[] inner = ipv4(TCP, tcp(PAYLOAD_10));
        inner[12] = (byte) 172; // inner source 172.0.0.1
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(IPIP, inner));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(14, d.firstIpv4Offset());
        assertEquals(34, d.ipOffset());
        assertEquals(0x0000_ffff_ac00_0001L, d.srcLo());
        assertEquals(2, d.ipHeaderCount());
        assertTrue(d.hasTcp());
    }

    @Test
    void ipv6InIpv4RecordsBothFirstOffsets() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(IPV6_IN_IP, ipv6(TCP, tcp(PAYLOAD_10))));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(14, d.firstIpv4Offset());
        assertEquals(34, d.firstIpv6Offset());
        assertEquals(6, d.ipVersion());
        assertEquals(10, d.payloadLength());
    }

    @Test
    void greCarriesIpv4Ipv6AndEthernet() {
        byte[] greWithKey = cat(
                hex("20 00"),                   // flags: key present, version 0
                u16(ETHERTYPE_IPV6),            // protocol type
                hex("00 00 00 2a"));            // key 42
        decode(ethernet(ETHERTYPE_IPV4, ipv4(GRE, cat(greWithKey, ipv6(TCP, tcp(PAYLOAD_10))))));
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(14 + 20 + 8, d.ipOffset());
        assertTrue(d.hasTcp());

        byte[] greEthernet = cat(hex("00 00"), u16(0x6558)); // transparent Ethernet bridging
        decode(ethernet(ETHERTYPE_IPV4, ipv4(GRE, cat(greEthernet, ethernet(ETHERTYPE_IPV4,
                ipv4(TCP, tcp(PAYLOAD_10)))))));
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(14 + 20 + 4 + 14, d.ipOffset());
        assertEquals(14, d.networkOffset(), "the first network header stays the outer one");
    }

    @Test
    void pptpEnhancedGreIsUnsupported() {
        byte[] gre = cat(hex("30 81"), u16(0x880b), hex("00 00 00 00"), hex("00 00 00 01")); // version 1, PPP
        decode(ethernet(ETHERTYPE_IPV4, ipv4(GRE, cat(gre, zeros(8)))));
        assertStopped(DecodeStatus.UNSUPPORTED, Layer.GRE, StopReasons.GRE_UNSUPPORTED);
    }

    @Test
    void nestingDeeperThanTheLimitIsUnsupported() {
        byte[] packet = ipv4(TCP, tcp(PAYLOAD_10));
        for (int i = 1; i < PacketDecoder.MAX_ENCAPSULATIONS; i++) {
            packet = ipv4(IPIP, packet);
        }
        decode(ethernet(ETHERTYPE_IPV4, packet));
        assertEquals(DecodeStatus.OK, d.status(), "exactly the limit decodes");
        assertEquals(PacketDecoder.MAX_ENCAPSULATIONS, d.ipHeaderCount());

        decode(ethernet(ETHERTYPE_IPV4, ipv4(IPIP, packet)));
        assertStopped(DecodeStatus.UNSUPPORTED, Layer.IPV4, StopReasons.TOO_MANY_ENCAPSULATIONS);
    }

    @Test
    void innerHeaderIsBoundedByTheOuterTotalLength() {
        byte[] inner = ipv4(TCP, tcp(PAYLOAD_10));
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(IPIP, inner, 20 + 30, new byte[0], 0)); // outer says 30 inner
        decode(frame);
        assertStopped(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.BEYOND_ENCLOSING_LENGTH);
        assertTrue(d.hasTcpPorts());
        assertFalse(d.hasTcp());
    }
}
