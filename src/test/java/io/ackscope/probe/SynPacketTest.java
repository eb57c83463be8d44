package io.ackscope.probe;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SynPacketTest {

    /**
     * Frame 1 of the corpus capture zeek__methods.pcap: a SYN from a Linux host with valid checksums (tshark's
     * ip.checksum.status and tcp.checksum.status are both Good), so both checksums were computed by someone else.
     */
    static final byte[] ZEEK_SYN = hex(
            "0018743fb400"               // Ethernet destination
            + "001ec944d468"             // Ethernet source
            + "0800"                     // ethertype IPv4
            + "45"                       // version 4, IHL 5
            + "00"                       // DSCP/ECN
            + "003c"                     // total length 60
            + "88eb"                     // identification
            + "4000"                     // DF, fragment offset 0
            + "40"                       // TTL 64
            + "06"                       // protocol TCP
            + "321d"                     // header checksum
            + "80020688"                 // source 128.2.6.136
            + "adc24b67"                 // destination 173.194.75.103
            + "b5e2"                     // source port 46562
            + "0050"                     // destination port 80
            + "f34cc466"                 // sequence number
            + "00000000"                 // acknowledgment number
            + "a002"                     // data offset 10 (40 bytes), flags SYN
            + "3908"                     // window 14600
            + "9bcf"                     // TCP checksum
            + "0000"                     // urgent pointer
            + "020405b4"                 // MSS 1460
            + "0402"                     // SACK permitted
            + "080a39014c8d00000000"     // timestamps 956386445 / 0
            + "01"                       // NOP
            + "030307");                 // window scale 7

    @Test
    void rebuildsARealLinuxSynByteForByteIncludingBothChecksums() {
        SynPacket syn = new SynPacket(hex("0018743fb400"), hex("001ec944d468"), ip(128, 2, 6, 136),
                ip(173, 194, 75, 103), 80, 14600, true, hex("020405b40402080a39014c8d0000000001030307"));
        byte[] buf = new byte[syn.frameLength()];
        int len = syn.write(buf, 64, 0x88eb, 46562, 0xf34cc466L);
        assertEquals(ZEEK_SYN.length, len);
        assertArrayEquals(ZEEK_SYN, buf);
    }

    @Test
    void checksumMatchesTheWorkedExampleOfRfc1071() {
        // RFC 1071 section 3: the words 0001 f203 f4f5 f6f7 sum to ddf2, whose complement is 220d
        byte[] b = hex("0001f203f4f5f6f7");
        assertEquals(0x220d, SynPacket.checksum(b, 0, b.length, 0));
    }

    @Test
    void checksumPadsAnOddLastByteWithZero() {
        byte[] odd = hex("0001f203f4f5f6f7ab");
        byte[] padded = hex("0001f203f4f5f6f7ab00");
        assertEquals(SynPacket.checksum(padded, 0, padded.length, 0), SynPacket.checksum(odd, 0, odd.length, 0));
    }

    @Test
    void checksumOfAHeaderWithItsChecksumInPlaceIsZero() {
        byte[] buf = new byte[64];
        new SynPacket(new byte[6], new byte[6], ip(10, 0, 0, 1), ip(10, 0, 0, 2), 443, 65535, false,
                SynPacket.DEFAULT_OPTIONS).write(buf, 1, 7, 50000, 0xffffffffL);
        assertEquals(0, SynPacket.checksum(buf, SynPacket.ETHERNET_HEADER, SynPacket.IPV4_HEADER, 0));
    }

    @Test
    void padsOptionsToAMultipleOfFourWithEndOfOptionList() {
        SynPacket syn = new SynPacket(new byte[6], new byte[6], ip(127, 0, 0, 1), ip(127, 0, 0, 1), 80, 512, true,
                hex("0303"));                                   // window scale without its shift byte: 2 bytes
        byte[] buf = new byte[syn.frameLength()];
        java.util.Arrays.fill(buf, (byte) 0x77);
        syn.write(buf, 64, 1, 40000, 1);
        assertEquals(SynPacket.ETHERNET_HEADER + 20 + 24, syn.frameLength());
        assertEquals(0x60, buf[SynPacket.ETHERNET_HEADER + 20 + 12] & 0xf0); // data offset 6
        assertEquals(0, buf[syn.frameLength() - 1]);
        assertEquals(0, buf[syn.frameLength() - 2]);
    }

    @Test
    void rejectsOutOfRangeFields() {
        assertThrows(IllegalArgumentException.class, () -> new SynPacket(new byte[5], new byte[6], 0, 0, 80, 0,
                true, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new SynPacket(new byte[6], new byte[6], 0, 0, 70000, 0,
                true, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new SynPacket(new byte[6], new byte[6], 0, 0, 80, 0,
                true, new byte[41]));
        SynPacket syn = new SynPacket(new byte[6], new byte[6], 0, 0, 80, 0, true, new byte[0]);
        assertThrows(IllegalArgumentException.class, () -> syn.write(new byte[64], 0, 0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> syn.write(new byte[64], 256, 0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> syn.write(new byte[10], 64, 0, 1, 0));
    }

    /**
     * Random SYNs written to a pcap file: tshark, told to verify checksums, calls every IPv4 and TCP checksum Good
     * and reads back the fields that were put in.
     */
    @Tag("tshark")
    @Test
    void tsharkVerifiesTheChecksumsOfRandomSyns(@TempDir Path dir) throws Exception {
        Random rnd = new Random(20240611);
        int n = 200;
        ByteArrayOutputStream pcap = new ByteArrayOutputStream();
        pcap.write(pcapHeader());
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < n; i++) {
            // any option length 0..40, as NOPs: random option bytes would only make tshark flag malformed options
            byte[] opts = new byte[rnd.nextInt(SynPacket.MAX_TCP_OPTIONS + 1)];
            java.util.Arrays.fill(opts, (byte) 1);
            int src = rnd.nextInt();
            int dst = rnd.nextInt();
            int sport = rnd.nextInt(65536);
            int dport = 1 + rnd.nextInt(65535);
            int ttl = 1 + rnd.nextInt(255);
            int id = rnd.nextInt(65536);
            long seq = rnd.nextLong() & 0xffffffffL;
            SynPacket syn = new SynPacket(new byte[] {2, 0, 0, 0, 0, 1}, new byte[] {2, 0, 0, 0, 0, 2}, src, dst,
                    dport, rnd.nextInt(65536), rnd.nextBoolean(), opts);
            byte[] buf = new byte[syn.frameLength()];
            int len = syn.write(buf, ttl, id, sport, seq);
            pcap.write(record(i, buf, len));
            expected.append("1\t1\t").append(sport).append('\t').append(dport).append('\t').append(seq).append('\t')
                    .append(ttl).append('\t').append(String.format("0x%04x", id)).append('\n');
        }
        Path file = dir.resolve("syns.pcap");
        Files.write(file, pcap.toByteArray());
        String out = NetTestSupport.run(30, List.of("tshark", "-n", "-r", file.toString(),
                "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-T", "fields",
                "-e", "ip.checksum.status", "-e", "tcp.checksum.status", "-e", "tcp.srcport", "-e", "tcp.dstport",
                "-e", "tcp.seq_raw", "-e", "ip.ttl", "-e", "ip.id", "-E", "header=n")).stdout();
        assertEquals(expected.toString(), out);
    }

    static byte[] pcapHeader() {
        ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        return b.array();
    }

    static byte[] record(int second, byte[] frame, int len) {
        ByteBuffer b = ByteBuffer.allocate(16 + len).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(second).putInt(0).putInt(len).putInt(len).put(frame, 0, len);
        return b.array();
    }

    static int ip(int a, int b, int c, int d) {
        return (a << 24) | (b << 16) | (c << 8) | d;
    }

    static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
}
