package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;
import static io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV4;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV6;
import static io.ackscope.decode.Fixtures.ETHERTYPE_VLAN;
import static io.ackscope.decode.Fixtures.SYN_TCP;
import static io.ackscope.decode.Fixtures.TCP;
import static io.ackscope.decode.Fixtures.UDP;
import static io.ackscope.decode.Fixtures.cat;
import static io.ackscope.decode.Fixtures.ethernet;
import static io.ackscope.decode.Fixtures.fill;
import static io.ackscope.decode.Fixtures.ipv4;
import static io.ackscope.decode.Fixtures.ipv6;
import static io.ackscope.decode.Fixtures.ipv6Extension;
import static io.ackscope.decode.Fixtures.tcp;
import static io.ackscope.decode.Fixtures.udp;
import static io.ackscope.decode.Fixtures.vlanTag;
import static io.ackscope.decode.Fixtures.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** Where decoding stopped: {@code stopOffset()} is the buffer offset of the header that stopped it. */
class StopOffsetTest {

    private static final int ETHERNET = 14;

    private final PacketDecoder d = new PacketDecoder();

    private void decode(byte[] frame, int off, int capLen) {
        d.decode(LinkTypes.EN10MB, frame, off, capLen, frame.length - off);
    }

    private void assertStopped(StopReason reason, Layer layer, int offset) {
        assertSame(reason, d.stopCause());
        assertEquals(reason.status(), d.status());
        assertSame(reason.text(), d.stopReason(), "the text is the one constant instance");
        assertEquals(layer, d.stopLayer());
        assertEquals(offset, d.stopOffset());
    }

    @Test
    void aWholePacketHasNoStopOffset() {
        decode(ETHERNET_IPV4_TCP_SYN, 0, ETHERNET_IPV4_TCP_SYN.length);
        assertEquals(DecodeStatus.OK, d.status());
        assertNull(d.stopCause());
        assertEquals(-1, d.stopOffset());
    }

    @Test
    void tcpCutBySnapLengthStopsAtTheTcpHeader() {
        decode(ETHERNET_IPV4_TCP_SYN, 0, SYN_TCP + 10);
        assertStopped(StopReason.CUT_BY_SNAPLEN, Layer.TCP, SYN_TCP);
    }

    @Test
    void theOffsetCountsFromTheBufferStartNotTheFrame() {
        byte[] buf = cat(fill(100, 0), ETHERNET_IPV4_TCP_SYN);
        d.decode(LinkTypes.EN10MB, buf, 100, SYN_TCP + 10, ETHERNET_IPV4_TCP_SYN.length);
        assertStopped(StopReason.CUT_BY_SNAPLEN, Layer.TCP, 100 + SYN_TCP);
    }

    @Test
    void dataOffsetBelowFiveStopsAtTheTcpHeader() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(4, new byte[0], fill(10, 'x'))));
        decode(frame, 0, frame.length);
        assertStopped(StopReason.TCP_DATA_OFFSET, Layer.TCP, ETHERNET + 20);
    }

    @Test
    void badIpv4HeaderLengthStopsAtTheIpHeader() {
        byte[] frame = with(ETHERNET_IPV4_TCP_SYN, ETHERNET, 0x44); // version 4, IHL 4
        decode(frame, 0, frame.length);
        assertStopped(StopReason.IPV4_IHL, Layer.IPV4, ETHERNET);
    }

    @Test
    void unknownEthertypeAfterVlanTagStopsWhereTheNetworkHeaderWouldStart() {
        byte[] frame = ethernet(ETHERTYPE_VLAN, cat(vlanTag(7, 0x0806), fill(28, 1)));
        decode(frame, 0, frame.length);
        assertStopped(StopReason.ETHERTYPE_UNSUPPORTED, Layer.LINK, ETHERNET + 4);
    }

    @Test
    void extensionHeaderCutBySnapLengthStopsAtThatExtensionHeader() {
        byte[] frame = ethernet(ETHERTYPE_IPV6, ipv6(0, cat(ipv6Extension(TCP), tcp(fill(4, 'z')))));
        decode(frame, 0, ETHERNET + 40 + 4);
        assertStopped(StopReason.CUT_BY_SNAPLEN, Layer.IPV6_EXTENSION, ETHERNET + 40);
    }

    @Test
    void badUdpLengthStopsAtTheUdpHeader() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(UDP, udp(fill(4, 'u'), 7)));
        decode(frame, 0, frame.length);
        assertStopped(StopReason.UDP_LENGTH, Layer.UDP, ETHERNET + 20);
    }

    @Test
    void unsupportedIpProtocolStopsAtTheIpHeader() {
        byte[] frame = ethernet(ETHERTYPE_IPV4, ipv4(132, fill(12, 's'))); // SCTP
        decode(frame, 0, frame.length);
        assertStopped(StopReason.IP_PROTOCOL_UNSUPPORTED, Layer.IPV4, ETHERNET);
    }

    @Test
    void recordBoundsOutsideTheBufferStopAtTheClampedOffset() {
        d.decode(LinkTypes.EN10MB, new byte[10], 4, 20, 20);
        assertStopped(StopReason.BAD_BOUNDS, Layer.NONE, 4);
    }

    @Test
    void everyReasonKeepsItsPrintedText() {
        assertEquals("header cut by the snap length", StopReason.CUT_BY_SNAPLEN.text());
        assertEquals("TCP data offset below 5", StopReason.TCP_DATA_OFFSET.text());
        assertSame(StopReasons.UDP_LENGTH, StopReason.UDP_LENGTH.text());
        assertEquals(DecodeStatus.UNSUPPORTED, StopReason.GRE_UNSUPPORTED.status());
    }
}
