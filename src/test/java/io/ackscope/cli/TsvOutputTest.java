package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TsvOutputTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final TsvOutput out = new TsvOutput(bytes, 256);

    private String text() throws IOException {
        out.flush();
        String s = bytes.toString(StandardCharsets.US_ASCII);
        bytes.reset();
        return s;
    }

    private static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    @Test
    void ipv6IsPrintedAsTsharkPrintsIt() throws IOException {
        // left: the 16 bytes; right: what tshark 4.0.17 printed for them as ipv6.src
        String[][] cases = {
            {"00000000000000000000ffff0a000001", "::ffff:10.0.0.1"},
            {"0000000000000000000000000a000001", "::10.0.0.1"},
            {"00010000000000010000000000000001", "1:0:0:1::1"},
            {"00010000000200030004000500060007", "1:0:2:3:4:5:6:7"},
            {"00000000000000000000000000000001", "::1"},
            {"00000000000000000000000000000000", "::"},
            {"fe800000000000000000000000000000", "fe80::"},
            {"00000000000000000000ffff00000000", "::ffff:0.0.0.0"},
            {"0000000000000000000000000000ffff", "::ffff"},
            {"0064ff9b000000000000000001020304", "64:ff9b::102:304"},
            {"20010db8000000010000000000000000", "2001:db8:0:1::"},
            {"0000000000000000ffff00000a000001", "::ffff:0:a00:1"},
            {"000000000000000000000000ffff0001", "::255.255.0.1"},
            {"20010db8000000000001000000000001", "2001:db8::1:0:0:1"},
            {"2604138040910ce0000000000000000b", "2604:1380:4091:ce0::b"},
            {"ffffffffffffffffffffffffffffffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
        };
        for (String[] c : cases) {
            byte[] b = hex("aabb" + c[0]);
            out.ipv6(b, 2);
            assertEquals(c[1], text(), c[0]);
        }
    }

    @Test
    void ipv4IsADottedQuad() throws IOException {
        out.ipv4(new byte[] {0, 10, 0, (byte) 255, 7}, 1);
        assertEquals("10.0.255.7", text());
    }

    @Test
    void epochHasNineDecimals() throws IOException {
        out.epoch9(1_759_417_540_030_951_000L);
        out.tab();
        out.epoch9(0);
        out.tab();
        out.epoch9(5);
        out.tab();
        out.epoch9(-1_500_000_000L);
        assertEquals("1759417540.030951000\t0.000000000\t0.000000005\t-1.500000000", text());
    }

    @Test
    void flagsAreFourHexDigits() throws IOException {
        out.hex4(0x18);
        out.tab();
        out.hex4(0xc30);
        out.tab();
        out.hex4(0xfff);
        assertEquals("0x0018\t0x0c30\t0x0fff", text());
    }

    @Test
    void decimalsCoverTheLongRange() throws IOException {
        out.decimal(0);
        out.tab();
        out.decimal(4_294_967_295L);
        out.tab();
        out.decimal(Long.MIN_VALUE);
        out.tab();
        out.decimal(-42);
        assertEquals("0\t4294967295\t-9223372036854775808\t-42", text());
    }

    @Test
    void rowsLongerThanTheBufferAreWrittenWhole() throws IOException {
        StringBuilder want = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            out.decimal(i);
            out.tab();
            want.append(i).append('\t');
        }
        assertEquals(want.toString(), text());
    }
}
