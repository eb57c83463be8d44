package io.ackscope.decode;

import java.io.ByteArrayOutputStream;

/**
 * Hand-built packet bytes. Every header builder spells out its fields one per line, with their meaning, so a
 * test's fixture can be read against the RFC.
 */
public final class Fixtures {
    private Fixtures() {
    }

    public static final int ETHERTYPE_IPV4 = 0x0800, ETHERTYPE_IPV6 = 0x86dd, ETHERTYPE_ARP = 0x0806,
            ETHERTYPE_VLAN = 0x8100, ETHERTYPE_QINQ = 0x88a8, ETHERTYPE_QINQ_OLD = 0x9100, ETHERTYPE_MPLS = 0x8847;
    public static final int TCP = 6, UDP = 17, ICMP = 1, ICMPV6 = 58, IPIP = 4, IPV6_IN_IP = 41, GRE = 47;

    /** A Linux SYN to port 80 with MSS 1460, SACK permitted, timestamps and window scale 7: every byte named. */
    public static final byte[] ETHERNET_IPV4_TCP_SYN = hex(
            "00 11 22 33 44 55",        // Ethernet destination
            "66 77 88 99 aa bb",        // Ethernet source
            "08 00",                    // ethertype IPv4
            "45",                       // IPv4 version 4, IHL 5 (20 bytes)
            "00",                       // DSCP/ECN
            "00 3c",                    // total length 60 = 20 IP + 40 TCP
            "1c 46",                    // identification 0x1c46
            "40 00",                    // flags DF, fragment offset 0
            "40",                       // TTL 64
            "06",                       // protocol TCP
            "00 00",                    // header checksum (not checked)
            "c0 a8 00 01",              // source 192.168.0.1
            "c0 a8 00 c7",              // destination 192.168.0.199
            "a0 0c",                    // TCP source port 40972
            "00 50",                    // destination port 80
            "0d 6a 2f 2e",              // sequence number 225062702
            "00 00 00 00",              // acknowledgment number 0
            "a0",                       // data offset 10 (40 bytes), reserved 0
            "02",                       // flags SYN
            "fa f0",                    // window 64240
            "00 00",                    // checksum (not checked)
            "00 00",                    // urgent pointer
            "02 04 05 b4",              // option MSS 1460
            "04 02",                    // option SACK permitted
            "08 0a 00 0a 2f 4c 00 00 00 00", // option timestamps TSval 667468, TSecr 0
            "01",                       // option NOP
            "03 03 07");                // option window scale 7

    public static final int SYN_IP = 14, SYN_TCP = 34, SYN_TCP_HEADER = 40;

    // ---- builders --------------------------------------------------------------------------------------------------

    /** Bytes from hex groups; spaces are ignored so each group can carry its own comment. */
    public static byte[] hex(String... groups) {
        String s = String.join("", groups).replace(" ", "");
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    public static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    public static byte[] u16(int v) {
        return new byte[] {(byte) (v >>> 8), (byte) v};
    }

    public static byte[] u32(long v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    public static byte[] zeros(int n) {
        return new byte[n];
    }

    public static byte[] fill(int n, int value) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }

    /** A copy of {@code b} with {@code b[i] = v}. */
    public static byte[] with(byte[] b, int i, int v) {
        byte[] c = b.clone();
        c[i] = (byte) v;
        return c;
    }

    /** A copy of {@code b} with the 16-bit big-endian value {@code v} at {@code i}. */
    public static byte[] with16(byte[] b, int i, int v) {
        byte[] c = b.clone();
        c[i] = (byte) (v >>> 8);
        c[i + 1] = (byte) v;
        return c;
    }

    public static byte[] ethernet(int etherType, byte[] payload) {
        return cat(
                hex("02 00 00 00 00 01"),   // destination MAC
                hex("02 00 00 00 00 02"),   // source MAC
                u16(etherType),             // ethertype
                payload);
    }

    /** An 802.1Q/802.1ad tag: TCI then the ethertype of what follows. */
    public static byte[] vlanTag(int vlanId, int innerEtherType) {
        return cat(
                u16(vlanId & 0x0fff),       // PCP 0, DEI 0, VLAN id
                u16(innerEtherType));       // ethertype of the next header
    }

    public static byte[] mplsLabel(int label, boolean bottomOfStack) {
        long v = ((long) label << 12)       // label (20 bits)
                | (0 << 9)                  // traffic class
                | (bottomOfStack ? 1 << 8 : 0) // bottom of stack
                | 64;                       // TTL
        return u32(v);
    }

    public static byte[] ipv4(int protocol, byte[] payload) {
        return ipv4(protocol, payload, 20 + payload.length, new byte[0], 0);
    }

    /** IPv4 with an explicit total length, options (a multiple of 4 bytes) and flags/fragment-offset word. */
    public static byte[] ipv4(int protocol, byte[] payload, int totalLength, byte[] options, int flagsAndOffset) {
        int ihl = (20 + options.length) / 4;
        return cat(
                new byte[] {(byte) (0x40 | (ihl & 0x0f))}, // version 4, IHL
                hex("00"),                  // DSCP/ECN
                u16(totalLength),           // total length
                hex("12 34"),               // identification 0x1234
                u16(flagsAndOffset),        // flags (DF 0x4000, MF 0x2000), fragment offset in 8-byte units
                hex("40"),                  // TTL 64
                new byte[] {(byte) protocol}, // protocol
                hex("00 00"),               // header checksum (not checked)
                hex("0a 00 00 01"),         // source 10.0.0.1
                hex("0a 00 00 02"),         // destination 10.0.0.2
                options,
                payload);
    }

    public static final long IPV6_SRC_HI = 0x2001_0db8_0000_0000L, IPV6_SRC_LO = 1,
            IPV6_DST_HI = 0x2001_0db8_0000_0000L, IPV6_DST_LO = 2;

    public static byte[] ipv6(int nextHeader, byte[] payload) {
        return ipv6(nextHeader, payload, payload.length);
    }

    public static byte[] ipv6(int nextHeader, byte[] payload, int payloadLength) {
        return cat(
                hex("60 00 00 00"),         // version 6, traffic class 0, flow label 0
                u16(payloadLength),         // payload length
                new byte[] {(byte) nextHeader}, // next header
                hex("40"),                  // hop limit 64
                hex("20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01"), // source 2001:db8::1
                hex("20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02"), // destination 2001:db8::2
                payload);
    }

    /** A hop-by-hop, routing or destination-options header padded to 8 bytes with a PadN option. */
    public static byte[] ipv6Extension(int nextHeader) {
        return cat(
                new byte[] {(byte) nextHeader}, // next header
                hex("00"),                  // header extension length 0 (8 bytes in all)
                hex("01 04 00 00 00 00"));  // option PadN, 4 bytes of padding
    }

    public static byte[] ipv6Fragment(int nextHeader, int offsetBytes, boolean more) {
        return cat(
                new byte[] {(byte) nextHeader}, // next header
                hex("00"),                  // reserved
                u16(offsetBytes | (more ? 1 : 0)), // fragment offset (bytes, multiple of 8), M flag
                hex("ca fe ba be"));        // identification
    }

    /** TCP with ACK|PSH, the given data offset (in 32-bit words) and options filling the header. */
    public static byte[] tcp(int dataOffsetWords, byte[] options, byte[] payload) {
        return cat(
                u16(1234),                  // source port
                u16(80),                    // destination port
                u32(1000),                  // sequence number
                u32(2000),                  // acknowledgment number
                new byte[] {(byte) (dataOffsetWords << 4)}, // data offset, reserved 0
                hex("18"),                  // flags ACK|PSH
                u16(512),                   // window
                hex("00 00"),               // checksum (not checked)
                hex("00 00"),               // urgent pointer
                options,
                payload);
    }

    public static byte[] tcp(byte[] payload) {
        return tcp(5, new byte[0], payload);
    }

    public static byte[] udp(byte[] payload) {
        return udp(payload, 8 + payload.length);
    }

    public static byte[] udp(byte[] payload, int length) {
        return cat(
                u16(5353),                  // source port
                u16(53),                    // destination port
                u16(length),                // length (header + payload)
                hex("00 00"),               // checksum (not checked)
                payload);
    }

    public static byte[] icmp(int type, int code, byte[] body) {
        return cat(
                new byte[] {(byte) type},   // type
                new byte[] {(byte) code},   // code
                hex("00 00"),               // checksum (not checked)
                hex("00 00 00 00"),         // unused / identifier+sequence / MTU
                body);
    }
}
