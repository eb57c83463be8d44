package io.ackscope.fields;

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
    void addressesAreWrittenFromTheirHeaderBytes() throws IOException {
        // the text itself is tcp/Addresses' (AddressesTest checks it against tshark); here: the bytes it reads
        out.ipv6(hex("aabb00000000000000000000ffff0a000001"), 2);
        out.tab();
        out.ipv6(hex("aabb2604138040910ce0000000000000000b"), 2);
        assertEquals("::ffff:10.0.0.1\t2604:1380:4091:ce0::b", text());
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
