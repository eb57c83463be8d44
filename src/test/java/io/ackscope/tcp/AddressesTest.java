package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Corpus;
import io.ackscope.decode.PacketDecoder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Addresses print as tshark 4.0.17 prints {@code ip.src} and {@code ipv6.src}: byte cases tshark printed, and every
 * address of the corpus against {@code expected/*.tcp.tsv}, both from the header bytes ({@code fields}' path) and
 * from the decoder's two longs with the IP version ({@code packets}' path).
 */
class AddressesTest {

    private static final Path CORPUS = Corpus.dir();

    private static String ipv6(long hi, long lo) {
        byte[] out = new byte[Addresses.MAX_TEXT];
        return new String(out, 0, Addresses.writeIpv6(hi, lo, out, 0), StandardCharsets.US_ASCII);
    }

    private static String text(int version, long hi, long lo) {
        byte[] out = new byte[Addresses.MAX_TEXT + 2];
        int n = Addresses.write(version, hi, lo, out, 2);
        return new String(out, 2, n, StandardCharsets.US_ASCII);
    }

    private static long word(String hex) {
        return Long.parseUnsignedLong(hex, 16);
    }

    @Test
    void ipv6IsPrintedAsTsharkPrintsIt() {
        // left: the 16 bytes; right: what tshark 4.0.17 printed for them as ipv6.src
        String[][] cases = {
            {"00000000000000000000ffff0a000001", "::ffff:10.0.0.1"},
            {"0000000000000000000000000a000001", "::10.0.0.1"},
            {"00000000000000000000000000010000", "::0.1.0.0"},
            {"00010000000000010000000000000001", "1:0:0:1::1"},
            {"00010000000200030004000500060007", "1:0:2:3:4:5:6:7"},
            {"00010000000000020000000000030004", "1::2:0:0:3:4"},
            {"00000000000100000000000000000000", "0:0:1::"},
            {"00000000000000000000000000000001", "::1"},
            {"00000000000000000000000000000002", "::2"},
            {"00000000000000000000000000000000", "::"},
            {"fe800000000000000000000000000000", "fe80::"},
            {"00000000000000000000ffff00000000", "::ffff:0.0.0.0"},
            {"0000000000000000ffff000001020304", "::ffff:0:102:304"},
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
            long hi = word(c[0].substring(0, 16));
            long lo = word(c[0].substring(16));
            assertEquals(c[1], ipv6(hi, lo), c[0]);
            assertEquals(c[1], text(6, hi, lo), c[0]);
        }
    }

    @Test
    void theDecodersIpv4FormIsADottedQuad() {
        assertEquals("10.0.255.7", text(4, 0, 0x0000_ffff_0a00_ff07L));
        assertEquals("0.0.0.0", text(4, 0, 0x0000_ffff_0000_0000L));
        assertEquals("255.255.255.255", text(4, 0, 0x0000_ffff_ffff_ffffL));
        assertEquals("10.0.0.1", Addresses.format(0, 0x0000_ffff_0a00_0001L));
        assertEquals("2001:db8::1", Addresses.format(0x2001_0db8_0000_0000L, 1));
        assertEquals("::10.0.0.1", Addresses.format(0, 0x0a00_0001L), "IPv4-compatible is IPv6 to the engine");
        assertEquals("[::1]:80", Addresses.endpoint(0, 1, 80));
        assertEquals("10.0.0.1:443", Addresses.endpoint(0, 0x0000_ffff_0a00_0001L, 443));
        assertTrue(Addresses.isLoopback(0, 0x0000_ffff_7f00_0001L) && Addresses.isLoopback(0, 1));
    }

    @Test
    void noAddressIsLongerThanTheBound() {
        Random r = new Random(5952);
        for (int i = 0; i < 100_000; i++) {
            // sparse words, so zero runs of every length and place occur
            long hi = r.nextLong() & r.nextLong() & r.nextLong();
            long lo = r.nextLong() & r.nextLong() & r.nextLong();
            String s = ipv6(hi, lo);
            assertTrue(s.length() <= Addresses.MAX_TEXT, s);
            if (!Addresses.isIpv4(hi, lo)) {
                assertEquals(s, Addresses.format(hi, lo));
            }
        }
    }

    /** Counts of one comparison over the corpus, and what differed. */
    private static final class Tally {
        long compared;
        final TreeSet<String> ipv6Seen = new TreeSet<>();
        final List<String> diffs = new ArrayList<>();

        void check(String file, long frame, String what, String tshark, String ours) {
            if (tshark.isEmpty()) {
                return;
            }
            compared++;
            if (tshark.indexOf(':') >= 0) {
                ipv6Seen.add(tshark);
            }
            if (!tshark.equals(ours) && diffs.size() < 20) {
                diffs.add(file + " frame " + frame + " " + what + ": tshark " + tshark + ", ackscope " + ours);
            }
        }
    }

    @Test
    void everyCorpusAddressPrintsAsTsharkPrintedIt() throws IOException {
        Tally headerBytes = new Tally();
        Tally decoded = new Tally();
        for (String line : Files.readAllLines(CORPUS.resolve("MANIFEST.tsv"), StandardCharsets.UTF_8)) {
            if (line.startsWith("file\t") || line.isBlank()) {
                continue;
            }
            String file = line.substring(0, line.indexOf('\t'));
            compareFile(file, headerBytes, decoded);
        }
        assertEquals(List.of(), headerBytes.diffs);
        assertEquals(List.of(), decoded.diffs);
        // the corpus has some 60 IPv6 addresses and thousands of address fields; all of them must be compared
        assertTrue(headerBytes.ipv6Seen.size() >= 60, "IPv6 addresses compared: " + headerBytes.ipv6Seen.size());
        assertTrue(headerBytes.compared > 10_000, "address fields compared: " + headerBytes.compared);
        assertTrue(decoded.ipv6Seen.size() >= 50, "IPv6 addresses compared: " + decoded.ipv6Seen.size());
        assertTrue(decoded.compared > 10_000, "address fields compared: " + decoded.compared);
    }

    private static void compareFile(String file, Tally headerBytes, Tally decoded) throws IOException {
        Path expected = CORPUS.resolve("expected");
        if (!Files.isRegularFile(expected.resolve(file + ".tcp.tsv"))) {
            return; // a file tshark refused (its .error.txt)
        }
        Map<Long, String[]> fields = rows(expected.resolve(file + ".tcp.tsv"));
        Map<Long, String[]> frames = rows(expected.resolve(file + ".frames.tsv"));
        PacketDecoder d = new PacketDecoder();
        try (CaptureReader r = CaptureReader.open(CORPUS.resolve(file))) {
            while (r.next()) {
                String[] t = fields.get(r.frameNumber());
                if (t == null || t.length < 8) {
                    continue;
                }
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                long frame = r.frameNumber();
                // ip.src, ipv6.src, ip.dst, ipv6.dst are tshark's first (outermost) headers of each family
                String v4src = t[3], v6src = t[4], v4dst = t[6], v6dst = t[7];
                byte[] b = r.data();
                int v4 = d.firstIpv4Offset();
                if (v4 >= 0 && v4 + 20 <= d.captureEnd()) {
                    headerBytes.check(file, frame, "ip.src", v4src, ipv4(b, v4 + 12));
                    headerBytes.check(file, frame, "ip.dst", v4dst, ipv4(b, v4 + 16));
                }
                int v6 = d.firstIpv6Offset();
                if (v6 >= 0 && v6 + 40 <= d.captureEnd()) {
                    headerBytes.check(file, frame, "ipv6.src", v6src, ipv6(big(b, v6 + 8), big(b, v6 + 16)));
                    headerBytes.check(file, frame, "ipv6.dst", v6dst, ipv6(big(b, v6 + 24), big(b, v6 + 32)));
                }
                // the decoder keeps the innermost header: compare where tshark saw only one
                String[] f = frames.get(frame);
                if (f != null && f.length > 6 && ipLayers(f[6]) == 1 && (d.ipVersion() == 4 || d.ipVersion() == 6)) {
                    boolean four = d.ipVersion() == 4;
                    decoded.check(file, frame, "src", four ? v4src : v6src, text(d.ipVersion(), d.srcHi(), d.srcLo()));
                    decoded.check(file, frame, "dst", four ? v4dst : v6dst, text(d.ipVersion(), d.dstHi(), d.dstLo()));
                }
            }
        } catch (CaptureException e) {
            // a damaged file: tshark printed the frames before the damage, and so were they compared
        }
    }

    private static int ipLayers(String protocols) {
        int n = 0;
        for (String p : protocols.split(":")) {
            if (p.equals("ip") || p.equals("ipv6")) {
                n++;
            }
        }
        return n;
    }

    private static Map<Long, String[]> rows(Path tsv) throws IOException {
        Map<Long, String[]> m = new HashMap<>();
        List<String> lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
        for (int i = 1; i < lines.size(); i++) {
            String[] c = lines.get(i).split("\t", -1);
            m.put(Long.parseLong(c[0]), c);
        }
        return m;
    }

    private static String ipv4(byte[] b, int off) {
        return text(4, 0, 0x0000_ffff_0000_0000L | (big(b, off) >>> 32));
    }

    private static long big(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (off + i < b.length ? b[off + i] & 0xff : 0);
        }
        return v;
    }
}
