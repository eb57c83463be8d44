package io.ackscope.probe;

import io.ackscope.decode.PacketDecoder;
import org.junit.jupiter.api.Test;

import static io.ackscope.probe.SynPacketTest.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which received frames answer which probe, built from real frame layouts with {@link SynPacket}. */
class ProbeBookTest {

    private static final int SRC = ip(10, 231, 1, 2);
    private static final int DST = ip(10, 231, 3, 2);
    private static final int PORT = 8080;

    @Test
    void aSynAckAcknowledgingTheProbeSequenceAnswersIt() {
        ProbeBook book = new ProbeBook(SRC, DST, PORT, 3);
        book.markSent(1);
        PacketDecoder v = new PacketDecoder();
        ProbeBook.decode(v, answer(book.srcPort(1), book.seq(1) + 41, 0x12), 54);
        assertEquals(-1, book.observe(v, 1_000), "wrong ack number");
        ProbeBook.decode(v, answer(book.srcPort(1), book.seq(1) + 1, 0x12), 54);
        assertEquals(1, book.observe(v, 1_000));
        assertTrue(book.isAnswered(1));
        assertEquals(-1, book.observe(v, 2_000), "a duplicate answers nothing");
    }

    @Test
    void anAnswerToAProbeNotYetSentIsIgnored() {
        ProbeBook book = new ProbeBook(SRC, DST, PORT, 2);
        PacketDecoder v = new PacketDecoder();
        ProbeBook.decode(v, answer(book.srcPort(0), book.seq(0) + 1, 0x14), 54);
        assertEquals(-1, book.observe(v, 1_000));
        assertFalse(book.isAnswered(0));
    }

    @Test
    void theProbesOwnSynGivesTheWireSendTime() {
        ProbeBook book = new ProbeBook(SRC, DST, PORT, 1);
        SynPacket syn = new SynPacket(new byte[6], new byte[6], SRC, DST, PORT, 1000, true, new byte[0]);
        byte[] frame = new byte[syn.frameLength()];
        syn.write(frame, 64, 1, book.srcPort(0), book.seq(0));
        book.markSent(0);
        PacketDecoder v = new PacketDecoder();
        ProbeBook.decode(v, frame, frame.length);
        assertEquals(-1, book.observe(v, 5_000_000_000L), "the SYN itself answers nothing");
        assertTrue(book.wireTimed(0));
        ProbeBook.decode(v, answer(book.srcPort(0), book.seq(0) + 1, 0x12), 54);
        assertEquals(0, book.observe(v, 5_000_040_000L));
        assertEquals(40_000, book.rttNanos(0, 5_000_040_000L));
        ProbeReply r = book.reply(0, v, 5_000_040_000L);
        assertTrue(r.isSynAck());
        assertEquals("10.231.3.2", r.from());
        assertEquals("SA", ProbeReply.flagLetters(r.flags()));
    }

    @Test
    void anIcmpErrorQuotingTheProbeAnswersItWithTheRoutersAddress() {
        ProbeBook book = new ProbeBook(SRC, DST, PORT, 4);
        SynPacket syn = new SynPacket(new byte[6], new byte[6], SRC, DST, PORT, 1000, true, new byte[0]);
        byte[] frame = new byte[syn.frameLength()];
        syn.write(frame, 2, 3, book.srcPort(2), book.seq(2));
        book.markSent(2);
        byte[] icmp = ReceivedFrameTest.timeExceededQuoting(frame, 28);
        PacketDecoder v = new PacketDecoder();
        ProbeBook.decode(v, icmp, icmp.length);
        assertEquals(2, book.observe(v, 1));
        ProbeReply r = book.reply(2, v, 1);
        assertEquals("10.9.8.7", r.from());
        assertEquals(11, r.icmpType());
        assertFalse(r.isTcp());
    }

    @Test
    void aReplyShowsNineFlagBitsTheDontFragmentBitAndTheHeadersOwnLength() {
        ProbeBook book = new ProbeBook(SRC, DST, PORT, 1);
        book.markSent(0);
        byte[] f = answer(book.srcPort(0), book.seq(0) + 1, 0x12);
        f[14 + 6] = 0x40;                                // IPv4 DF
        f[14 + 20 + 12] = 0x5f;                          // data offset 5, three reserved bits and AE/NS set
        PacketDecoder v = new PacketDecoder();
        assertEquals(ProbeBook.TCP, ProbeBook.decode(v, f, f.length));
        assertEquals(0xf12, v.tcpFlags(), "the decoder keeps all 12 bits");
        assertEquals(0, book.observe(v, 10));
        ProbeReply r = book.reply(0, v, 10);
        assertEquals(0x112, r.flags(), "the reply keeps NS..FIN, as the probes always printed");
        assertTrue(r.dontFragment());
        assertEquals(40, r.ipLength());
        assertEquals(63, r.ttl());
        assertEquals("10.231.3.2", r.from());
    }

    /** A TCP segment from the target port to {@code dstPort} with {@code flags} acknowledging {@code ack}. */
    private static byte[] answer(int dstPort, long ack, int flags) {
        byte[] f = new byte[54];
        f[12] = 0x08;                                    // IPv4
        int ip = 14;
        f[ip] = 0x45;
        SynPacket.put16(f, ip + 2, 40);
        f[ip + 8] = 63;
        f[ip + 9] = 6;                                   // TCP
        SynPacket.put32(f, ip + 12, DST);
        SynPacket.put32(f, ip + 16, SRC);
        int t = ip + 20;
        SynPacket.put16(f, t, PORT);
        SynPacket.put16(f, t + 2, dstPort);
        SynPacket.put32(f, t + 4, 12345);
        SynPacket.put32(f, t + 8, (int) ack);
        f[t + 12] = 0x50;                                // data offset 5
        f[t + 13] = (byte) flags;
        return f;
    }
}
