package io.ackscope.probe;

import io.ackscope.decode.PacketDecoder;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static io.ackscope.probe.SynPacketTest.hex;
import static io.ackscope.probe.SynPacketTest.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Received frames as the probes see them: decoded by {@link PacketDecoder} through {@link ProbeBook#decode}, and
 * classified by {@link ProbeBook#kind} (TCP, ICMP error quoting a probe, or other).
 */
class ReceivedFrameTest {

    /** Frame 2 of corpus capture zeek__methods.pcap: the SYN/ACK answering {@link SynPacketTest#ZEEK_SYN}. */
    static final byte[] ZEEK_SYN_ACK = hex(
            "001ec944d468" + "0018743fb400" + "0800"      // Ethernet: destination, source, IPv4
            + "4500" + "003c" + "b657" + "0000"           // IPv4: version/IHL, DSCP, length 60, id, no flags
            + "31" + "06" + "53b1"                        // TTL 49, TCP, checksum
            + "adc24b67" + "80020688"                     // 173.194.75.103 -> 128.2.6.136
            + "0050" + "b5e2"                             // ports 80 -> 46562
            + "1506aaac" + "f34cc467"                     // seq, ack = SYN's seq + 1
            + "a012" + "3764" + "b22c" + "0000"           // data offset 10, SYN+ACK, window 14180, checksum, urg
            + "020405960402080ae587461a39014c8d01030306"); // options

    @Test
    void readsTheFieldsOfARealSynAck() {
        PacketDecoder v = new PacketDecoder();
        assertEquals(ProbeBook.TCP, ProbeBook.decode(v, ZEEK_SYN_ACK, ZEEK_SYN_ACK.length));
        assertEquals(60, v.ipTotalLength());
        assertEquals(49, v.ttl());
        assertEquals(0xb657, v.ipId());
        assertFalse(v.dontFragment());
        assertEquals(ip(173, 194, 75, 103), (int) v.srcLo());
        assertEquals(ip(128, 2, 6, 136), (int) v.dstLo());
        assertEquals(80, v.srcPort());
        assertEquals(46562, v.dstPort());
        assertEquals(0x1506aaacL, v.seq());
        assertEquals(0xf34cc467L, v.ack());
        assertEquals(0x012, v.tcpFlags());
        assertEquals(14180, v.window());
    }

    @Test
    void readsTheQuotedProbeOfAnIcmpTimeExceeded() {
        byte[] frame = timeExceededQuoting(SynPacketTest.ZEEK_SYN, 28);
        PacketDecoder v = new PacketDecoder();
        assertEquals(ProbeBook.ICMP_ERROR, ProbeBook.decode(v, frame, frame.length));
        assertEquals(ProbeBook.ICMP_TIME_EXCEEDED, v.icmpType());
        assertEquals(0, v.icmpCode());
        assertEquals(ip(10, 9, 8, 7), (int) v.srcLo());
        assertEquals(ip(128, 2, 6, 136), (int) v.dstLo());
        assertEquals(ip(128, 2, 6, 136), (int) v.quotedSrcLo());
        assertEquals(ip(173, 194, 75, 103), (int) v.quotedDstLo());
        assertTrue(v.quotedTcp());
        assertEquals(46562, v.srcPort());                     // the quoted header's ports and sequence number
        assertEquals(80, v.dstPort());
        assertEquals(0xf34cc466L, v.seq());
    }

    @Test
    void skipsAVlanTag() {
        byte[] tagged = new byte[ZEEK_SYN_ACK.length + 4];
        System.arraycopy(ZEEK_SYN_ACK, 0, tagged, 0, 12);
        tagged[12] = (byte) 0x81;                              // 802.1Q
        tagged[13] = 0;
        tagged[14] = 0;
        tagged[15] = 42;                                       // VLAN 42
        System.arraycopy(ZEEK_SYN_ACK, 12, tagged, 16, ZEEK_SYN_ACK.length - 12);
        PacketDecoder v = new PacketDecoder();
        assertEquals(ProbeBook.TCP, ProbeBook.decode(v, tagged, tagged.length));
        assertEquals(46562, v.dstPort());
    }

    @Test
    void everyTruncatedPrefixIsOtherNotAnException() {
        PacketDecoder v = new PacketDecoder();
        int tcpEnd = 14 + 20 + 20;
        for (int len = 0; len < tcpEnd; len++) {
            assertEquals(ProbeBook.OTHER, ProbeBook.decode(v, ZEEK_SYN_ACK, len), "prefix of " + len + " bytes");
        }
        assertEquals(ProbeBook.TCP, ProbeBook.decode(v, ZEEK_SYN_ACK, tcpEnd), "options cut: still the reply");
        byte[] icmp = timeExceededQuoting(SynPacketTest.ZEEK_SYN, 28);
        int quoteEnd = 14 + 20 + 8 + 20 + 8;
        for (int len = 0; len < quoteEnd; len++) {
            assertEquals(ProbeBook.OTHER, ProbeBook.decode(v, icmp, len), "ICMP prefix of " + len + " bytes");
        }
        assertEquals(ProbeBook.ICMP_ERROR, ProbeBook.decode(v, icmp, quoteEnd));
    }

    @Test
    void decodingResetsEveryFieldOfThePreviousFrame() {
        PacketDecoder v = new PacketDecoder();
        ProbeBook.decode(v, ZEEK_SYN_ACK, ZEEK_SYN_ACK.length);
        byte[] arp = Arrays.copyOf(ZEEK_SYN_ACK, 60);
        arp[12] = 0x08;
        arp[13] = 0x06;
        assertEquals(ProbeBook.OTHER, ProbeBook.decode(v, arp, arp.length));
        assertFalse(v.hasTcp());
        assertEquals(-1, v.srcPort());
        assertEquals(0L, v.srcLo());
        assertEquals(0, v.tcpFlags());
        assertEquals(0L, v.ack());
    }

    @Test
    void rejectsAnIpv4HeaderLengthBelowFive() {
        byte[] bad = ZEEK_SYN_ACK.clone();
        bad[14] = 0x44;                                        // IHL 4
        assertEquals(ProbeBook.OTHER, ProbeBook.decode(new PacketDecoder(), bad, bad.length));
    }

    @Test
    void ignoresNonFirstFragments() {
        byte[] frag = ZEEK_SYN_ACK.clone();
        frag[14 + 7] = 1;                                      // fragment offset 8 bytes
        assertEquals(ProbeBook.OTHER, ProbeBook.decode(new PacketDecoder(), frag, frag.length));
    }

    @Test
    void randomBytesNeverThrow() {
        Random rnd = new Random(7);
        PacketDecoder v = new PacketDecoder();
        byte[] b = new byte[120];
        int decoded = 0;
        for (int i = 0; i < 200_000; i++) {
            rnd.nextBytes(b);
            b[12] = 0x08;                                      // mostly IPv4, to get past the ethertype
            b[13] = 0x00;
            b[14] = (byte) (0x40 | (b[14] & 0x0f));
            if (rnd.nextBoolean()) {
                b[14 + 6] &= (byte) 0xe0;                      // first fragment
                b[14 + 7] = 0;
                b[14 + 9] = (byte) (rnd.nextBoolean() ? 6 : 1);
            }
            if (ProbeBook.decode(v, b, rnd.nextInt(b.length + 1)) != ProbeBook.OTHER) {
                decoded++;
            }
        }
        assertTrue(decoded > 0, "some random frames decode as TCP or ICMP");
    }

    /** An Ethernet frame carrying ICMP time exceeded from 10.9.8.7, quoting {@code quoted}'s first IP bytes. */
    static byte[] timeExceededQuoting(byte[] quotedFrame, int quotedBytes) {
        byte[] f = new byte[14 + 20 + 8 + quotedBytes];
        System.arraycopy(quotedFrame, 6, f, 0, 6);             // back to the prober's MAC
        System.arraycopy(quotedFrame, 0, f, 6, 6);
        f[12] = 0x08;                                          // IPv4
        int ip = 14;
        f[ip] = 0x45;
        SynPacket.put16(f, ip + 2, 20 + 8 + quotedBytes);
        f[ip + 8] = 64;                                        // TTL
        f[ip + 9] = 1;                                         // ICMP
        SynPacket.put32(f, ip + 12, ip(10, 9, 8, 7));          // the router
        System.arraycopy(quotedFrame, 14 + 12, f, ip + 16, 4); // to the prober
        int icmp = ip + 20;
        f[icmp] = 11;                                          // time exceeded
        f[icmp + 1] = 0;                                       // TTL exceeded in transit
        System.arraycopy(quotedFrame, 14, f, icmp + 8, quotedBytes);
        return f;
    }
}
