package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;
import static io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV4;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV6;
import static io.ackscope.decode.Fixtures.ICMP;
import static io.ackscope.decode.Fixtures.ICMPV6;
import static io.ackscope.decode.Fixtures.SYN_TCP;
import static io.ackscope.decode.Fixtures.TCP;
import static io.ackscope.decode.Fixtures.UDP;
import static io.ackscope.decode.Fixtures.cat;
import static io.ackscope.decode.Fixtures.ethernet;
import static io.ackscope.decode.Fixtures.fill;
import static io.ackscope.decode.Fixtures.hex;
import static io.ackscope.decode.Fixtures.icmp;
import static io.ackscope.decode.Fixtures.ipv4;
import static io.ackscope.decode.Fixtures.ipv6;
import static io.ackscope.decode.Fixtures.tcp;
import static io.ackscope.decode.Fixtures.u32;
import static io.ackscope.decode.Fixtures.udp;
import static io.ackscope.decode.Fixtures.with;
import static io.ackscope.decode.Fixtures.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TransportDecodeTest {

    private static final byte[] PAYLOAD_10 = fill(10, 'x');

    private final PacketDecoder d = new PacketDecoder();

    private void decode(byte[] frame) {
        d.decode(LinkTypes.EN10MB, frame, 0, frame.length, frame.length);
    }

    private static byte[] tcpFrame(int dataOffsetWords, byte[] options) {
        return ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(dataOffsetWords, options, PAYLOAD_10)));
    }

    private void assertStopped(DecodeStatus status, Layer layer, String reason) {
        assertEquals(status, d.status());
        assertEquals(layer, d.stopLayer());
        assertEquals(reason, d.stopReason());
    }

    // ---- TCP -----------------------------------------------------------------------------------------------------

    @Test
    void tcpFlagsKeepAllTwelveBitsLikeTshark() {
        byte[] frame = with(with(ETHERNET_IPV4_TCP_SYN, SYN_TCP + 12, 0xaf), SYN_TCP + 13, 0xff);
        decode(frame);
        assertEquals(0xfff, d.tcpFlags());
        assertEquals(40, d.tcpHeaderLength());
    }

    @Test
    void everyKnownOptionIsParsed() {
        byte[] options = hex(
                "02 04 05 b4",                  // MSS 1460
                "03 03 0e",                     // window scale 14
                "04 02",                        // SACK permitted
                "08 0a 00 00 00 07 00 00 00 09", // timestamps 7, 9
                "22 06 01 02 03 04",            // Fast Open, 4-byte cookie
                "05 0a 00 00 00 64 00 00 00 c8", // SACK 1 block 100-200
                "fd 03 00",                     // unknown kind 253, skipped by its length
                "00 00");                       // end of option list, padding
        decode(tcpFrame(5 + options.length / 4, options));
        assertEquals(DecodeStatus.OK, d.status(), d.stopReason());
        assertEquals(1460, d.mss());
        assertEquals(14, d.windowScale());
        assertTrue(d.sackPermitted());
        assertTrue(d.hasTimestamps());
        assertEquals(7, d.tsVal());
        assertEquals(9, d.tsEcr());
        assertTrue(d.hasFastOpen());
        assertEquals(4, d.fastOpenCookieLength());
        assertEquals(1, d.sackBlockCount());
        assertEquals(100, d.sackLeft(0));
        assertEquals(200, d.sackRight(0));
        assertEquals(10, d.payloadLength());
    }

    @Test
    void fourSackBlocksAreRead() {
        byte[] options = cat(hex("01 01"), hex("05 22"), // NOP NOP, SACK length 34
                u32(1), u32(2), u32(3), u32(4), u32(5), u32(6), u32(0xffff_fff0L), u32(0x10));
        decode(tcpFrame(5 + options.length / 4, options));
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(4, d.sackBlockCount());
        assertEquals(0xffff_fff0L, d.sackLeft(3));
        assertEquals(0x10, d.sackRight(3));
    }

    @Test
    void experimentalFastOpenNeedsItsMagic() {
        byte[] cookieRequest = hex("fe 04 f9 89");      // experimental 254, length 4, magic 0xF989: no cookie
        decode(tcpFrame(6, cookieRequest));
        assertTrue(d.hasFastOpen());
        assertEquals(0, d.fastOpenCookieLength());
        decode(tcpFrame(6, hex("fe 04 12 34")));        // some other experiment
        assertFalse(d.hasFastOpen());
        assertEquals(DecodeStatus.OK, d.status());
    }

    @Test
    void rejectsDataOffsetBelowFive() {
        for (int words = 0; words < 5; words++) {
            decode(tcpFrame(words, new byte[0]));
            assertStopped(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.TCP_DATA_OFFSET);
            assertFalse(d.hasTcp());
            assertTrue(d.hasTcpPorts(), "the ports come before the data offset");
            assertEquals(words * 4, d.tcpHeaderLength());
        }
    }

    @Test
    void dataOffsetPastTheCaptureIsTruncatedButKeepsTheFixedFields() {
        // tcpdump__tcp-auth-heapoverflow.pcap: 52-byte header, 30 bytes captured; tshark still analyses it
        byte[] frame = tcpFrame(13, zeros(32));
        d.decode(LinkTypes.EN10MB, frame, 0, SYN_TCP + 30, frame.length);
        assertStopped(DecodeStatus.TRUNCATED, Layer.TCP, StopReasons.CUT_BY_SNAPLEN);
        assertTrue(d.hasTcp());
        assertEquals(1000, d.seq());
        assertEquals(52, d.tcpHeaderLength());
        assertEquals(10, d.payloadLength());
        assertEquals(0, d.capturedPayloadLength());
    }

    @Test
    void dataOffsetPastTheIpPayloadIsMalformed() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(15, new byte[0], fill(4, 'a'))));
        decode(frame);
        assertStopped(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.BEYOND_ENCLOSING_LENGTH);
        assertTrue(d.hasTcp(), "tshark shows flags, seq and window");
        assertEquals(24, d.transportLength());
        assertEquals(60, d.tcpHeaderLength());
        assertEquals(0, d.payloadLength());
    }

    @Test
    void optionLengthBelowTwoStopsOptionParsing() {
        byte[] options = hex("02 01 ff ff", "08 0a 00 00 00 07 00 00 00 09", "00 00");
        decode(tcpFrame(9, options));
        assertStopped(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.TCP_OPTION_LENGTH);
        assertTrue(d.hasTcp());
        assertFalse(d.hasTimestamps(), "nothing after an untrustworthy length is read");
        assertEquals(10, d.payloadLength());
    }

    @Test
    void optionLengthZeroIsMalformed() {
        decode(tcpFrame(6, hex("02 00 00 00")));
        assertStopped(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.TCP_OPTION_LENGTH);
        assertEquals(-1, d.mss());
    }

    @Test
    void optionRunningPastTheHeaderIsMalformed() {
        decode(tcpFrame(6, hex("08 0a 00 00")));        // timestamps need 10 bytes, header has 4 left
        assertStopped(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.TCP_OPTION_LENGTH);
        assertFalse(d.hasTimestamps());
    }

    @Test
    void knownOptionWithTheWrongLengthIsMalformedButParsingGoesOn() {
        decode(tcpFrame(7, hex("02 03 05", "03 03 08", "00 00"))); // MSS of length 3, then window scale 8
        assertStopped(DecodeStatus.MALFORMED, Layer.TCP, StopReasons.TCP_OPTION_LENGTH);
        assertEquals(-1, d.mss());
        assertEquals(8, d.windowScale());
    }

    @Test
    void optionsCutBySnaplenAreReadAsFarAsCaptured() {
        byte[] frame = ETHERNET_IPV4_TCP_SYN;
        d.decode(LinkTypes.EN10MB, frame, 0, SYN_TCP + 26, frame.length); // MSS and SACK-permitted fit
        assertStopped(DecodeStatus.TRUNCATED, Layer.TCP, StopReasons.CUT_BY_SNAPLEN);
        assertEquals(1460, d.mss());
        assertTrue(d.sackPermitted());
        assertFalse(d.hasTimestamps());
    }

    @Test
    void tcpOverIpv6TakesItsLengthFromThePayloadLength() {
        byte[] frame = ethernet(ETHERTYPE_IPV6, cat(ipv6(TCP, tcp(PAYLOAD_10)), zeros(6)));
        decode(frame);
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(10, d.payloadLength());
        assertEquals(10, d.capturedPayloadLength());
    }

    // ---- UDP -----------------------------------------------------------------------------------------------------

    @Test
    void decodesUdp() {
        decode(ethernet(ETHERTYPE_IPV4, ipv4(UDP, udp(PAYLOAD_10))));
        assertEquals(DecodeStatus.OK, d.status());
        assertTrue(d.hasUdp());
        assertTrue(d.hasUdpPorts());
        assertFalse(d.hasTcpPorts());
        assertEquals(5353, d.srcPort());
        assertEquals(53, d.dstPort());
        assertEquals(18, d.udpLength());
        assertEquals(10, d.payloadLength());
        assertEquals(42, d.payloadOffset());
    }

    @Test
    void rejectsUdpLengthBelowEight() {
        decode(ethernet(ETHERTYPE_IPV4, ipv4(UDP, udp(PAYLOAD_10, 4))));
        assertStopped(DecodeStatus.MALFORMED, Layer.UDP, StopReasons.UDP_LENGTH);
        assertTrue(d.hasUdpPorts());
        assertEquals(0, d.payloadLength());
    }

    @Test
    void rejectsUdpLengthPastTheIpPayload() {
        decode(ethernet(ETHERTYPE_IPV4, ipv4(UDP, udp(PAYLOAD_10, 100))));
        assertStopped(DecodeStatus.MALFORMED, Layer.UDP, StopReasons.UDP_LENGTH);
        assertEquals(10, d.payloadLength());
    }

    // ---- ICMP ----------------------------------------------------------------------------------------------------

    private static byte[] quotedIpv4Tcp(int bytesOfTcp) {
        byte[] original = ipv4(TCP, tcp(fill(100, 'p')));
        original[12] = (byte) 192; // quoted source 192.0.0.1
        byte[] quote = new byte[20 + bytesOfTcp];
        System.arraycopy(original, 0, quote, 0, quote.length);
        return quote;
    }

    @Test
    void icmpErrorQuotesTcpWithoutMakingItTraffic() {
        for (int type : new int[] {3, 4, 5, 11, 12}) {
            decode(ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(type, 1, quotedIpv4Tcp(8)))));
            assertEquals(DecodeStatus.OK, d.status());
            assertTrue(d.hasIcmp());
            assertEquals(type, d.icmpType());
            assertFalse(d.hasTcp(), "type " + type);
            assertTrue(d.quotedTcp());
            assertTrue(d.hasTcpPorts());
            assertEquals(8, d.quotedTcpBytes());
            assertEquals(1234, d.srcPort());
            assertEquals(80, d.dstPort());
            assertEquals(1000, d.seq());
            assertEquals(4, d.quotedIpVersion());
            assertEquals(14 + 20 + 8, d.quotedIpOffset());
            assertEquals(0x0000_ffff_c000_0001L, d.quotedSrcLo());
            assertEquals(0x0000_ffff_0a00_0001L, d.srcLo(), "the flow addresses are the ICMP packet's");
            assertEquals(14, d.firstIpv4Offset(), "tshark's ip.src (occurrence f) is the outer header");
        }
    }

    @Test
    void icmpQueriesQuoteNothing() {
        decode(ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(8, 0, quotedIpv4Tcp(8))))); // echo request
        assertEquals(DecodeStatus.OK, d.status());
        assertTrue(d.hasIcmp());
        assertFalse(d.quotedTcp());
        assertFalse(d.hasTcpPorts());
        assertEquals(-1, d.quotedIpOffset());
    }

    @Test
    void shortQuotesLeaveWhatIsMissingUnset() {
        decode(ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(3, 3, quotedIpv4Tcp(2)))));
        assertEquals(DecodeStatus.OK, d.status(), "a short quote is normal");
        assertFalse(d.quotedTcp());
        assertEquals(-1, d.srcPort());
        assertEquals(4, d.quotedIpVersion());

        decode(ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(3, 3, hex("45 00")))));
        assertEquals(DecodeStatus.OK, d.status());
        assertEquals(0, d.quotedIpVersion());
    }

    @Test
    void icmpQuotesUdp() {
        byte[] original = ipv4(UDP, udp(PAYLOAD_10));
        decode(ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(3, 3, original))));
        assertTrue(d.quotedUdp());
        assertTrue(d.hasUdpPorts());
        assertFalse(d.hasUdp());
        assertEquals(5353, d.srcPort());
    }

    @Test
    void icmpv6ErrorQuotesIpv6Tcp() {
        byte[] original = ipv6(TCP, tcp(PAYLOAD_10));
        for (int type = 1; type <= 4; type++) {
            decode(ethernet(ETHERTYPE_IPV6, ipv6(ICMPV6, icmp(type, 0, original))));
            assertEquals(DecodeStatus.OK, d.status());
            assertTrue(d.quotedTcp(), "type " + type);
            assertEquals(30, d.quotedTcpBytes());
            assertEquals(6, d.quotedIpVersion());
            assertEquals(0x18, d.tcpFlags());
            assertEquals(512, d.window());
            assertEquals(14, d.firstIpv6Offset());
        }
        decode(ethernet(ETHERTYPE_IPV6, ipv6(ICMPV6, icmp(128, 0, original)))); // echo request
        assertFalse(d.quotedTcp());
    }

    @Test
    void icmpv4QuotingIpv6RecordsTheFirstIpv6Header() {
        byte[] original = ipv6(TCP, tcp(PAYLOAD_10));
        decode(ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(3, 0, original))));
        assertEquals(14, d.firstIpv4Offset());
        assertEquals(14 + 20 + 8, d.firstIpv6Offset(), "tshark shows the quoted header as ipv6.src");
        assertTrue(d.quotedTcp());
    }
}
