package io.ackscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.ackscope.capture.Corpus;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InfoCommandTest {

    private static Path corpus(String file) {
        Path p = Corpus.capture(file);
        assertTrue(Files.isRegularFile(p), "corpus file missing: " + p);
        return p;
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run info(String... files) {
        return info(false, files);
    }

    private static Run info(boolean strict, String... files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InfoCommand c = new InfoCommand();
        c.files = List.of(files);
        c.strict = strict;
        int exit = c.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertRow(String out, String label, String value) {
        String want = String.format("%-20s %s", label + ":", value);
        assertTrue(Arrays.asList(out.split("\n")).contains(want), "missing row [" + want + "] in\n" + out);
    }

    @Test
    void summarisesAClassicPcap() {
        Run r = info(corpus("hadooppcap__reversedtest.pcap").toString());
        assertEquals(0, r.exit(), r.err());
        assertRow(r.out(), "Format", "pcap 2.4");
        assertRow(r.out(), "Byte order", "big-endian");
        assertRow(r.out(), "Resolution", "10^-6 s");
        assertRow(r.out(), "Link types", "EN10MB(1)");
        assertRow(r.out(), "Snap length", "96");
        assertRow(r.out(), "Packets", "15721");
        assertRow(r.out(), "Truncated records", "13487 (captured length < original length)");
        assertRow(r.out(), "Compression", "none");
        assertTrue(r.out().contains("Decode status:       OK "), r.out());
        assertEquals("", r.err());
    }

    @Test
    void decodeStatusCountsAddUpToThePackets() {
        Run r = info(corpus("tcpdump__tcp_header_heapoverflow.pcap").toString(),
                corpus("pcpp__many_interfaces-1.pcapng").toString());
        for (String block : r.out().split("\n\n")) {
            String packets = block.lines().filter(l -> l.startsWith("Packets:")).findFirst().orElseThrow();
            String status = block.lines().filter(l -> l.startsWith("Decode status:")).findFirst().orElseThrow();
            long total = 0;
            for (String part : status.substring(20).trim().split(", ")) {
                total += Long.parseLong(part.substring(part.indexOf(' ') + 1));
            }
            assertEquals(Long.parseLong(packets.substring(20).trim()), total, block);
        }
        assertRow(r.out(), "Packets", "64");
    }

    @Test
    void summarisesAMultiSectionPcapng() {
        Run r = info(corpus("gopacket__be_test202.pcapng").toString());
        assertEquals(0, r.exit());
        assertRow(r.out(), "Byte order", "mixed");
        assertRow(r.out(), "Sections", "3");
        assertRow(r.out(), "Interfaces", "5");
        assertRow(r.out(), "  2/1", "NULL(0), snap length 0, resolution 10^-6, name \"null1\"");
        assertRow(r.out(), "Packets", "8");
        assertRow(r.out(), "Non-packet records", "3 (custom blocks; tshark numbers them as frames)");
        assertRow(r.out(), "No timestamp", "2 (Simple Packet Blocks)");
        assertRow(r.out(), "First packet", "2012-06-29T07:28:25.298858000Z (earliest)");
        assertRow(r.out(), "Last packet", "2012-06-29T07:28:25.301858000Z (latest)");
        assertRow(r.out(), "Blocks", "SHB 3, IDB 5, EPB 6, SPB 2, NRB 5, ISB 4, CB 3");
    }

    @Test
    void damagedFileIsReportedWithOffsetAndTheNextFileIsStillRead() {
        String bad = corpus("suri__bug-1450-04__tls_DER-incomplete-header.pcap").toString();
        String good = corpus("zeek__socks.pcap").toString();
        Run r = info(bad, good);
        assertEquals(0, r.exit(), "damage after some records exits 3 only under --strict");
        String[] blocks = r.out().split("\n\n");
        assertEquals(2, blocks.length);
        assertRow(blocks[0], "Packets", "6");
        assertRow(blocks[0], "Error", "byte 5035: record captured length 4325376 exceeds the bound of 262144 "
                + "(snap length 262144) (after 6 packets)");
        assertRow(blocks[1], "Packets", "18");
        assertRow(blocks[1], "End", "clean, " + corpusSize("zeek__socks.pcap") + " bytes read");
        assertEquals("ackscope info: " + bad + ": byte 5035: record captured length 4325376 exceeds the bound of "
                + "262144 (snap length 262144) (after 6 packets)\n", r.err());
    }

    /** {@code --json}: the same facts as the text, typed, for every kind of ending, as one parseable array. */
    @Test
    void jsonCarriesTheSameFactsTypedForEveryEnding(@TempDir Path tmp) throws IOException {
        String multi = corpus("gopacket__be_test202.pcapng").toString();
        String damaged = corpus("suri__bug-1450-04__tls_DER-incomplete-header.pcap").toString();
        String cut = corpus("suri__http-mime-truncated__input.pcap").toString();
        Path text = tmp.resolve("notes.pcap");
        Files.writeString(text, "hello world\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InfoCommand c = new InfoCommand();
        c.files = List.of(multi, damaged, cut, text.toString(), tmp.resolve("absent.pcap").toString());
        c.form = "json";
        int exit = c.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, exit);
        com.fasterxml.jackson.databind.JsonNode a = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.toString(StandardCharsets.UTF_8));
        assertEquals(5, a.size());
        com.fasterxml.jackson.databind.JsonNode m = a.get(0);
        assertEquals("pcapng", m.get("format").asText());
        assertEquals("mixed", m.get("byte_order").asText());
        assertEquals(3, m.get("sections").size());
        assertEquals(5, m.get("interfaces").size());
        assertEquals("null1", m.get("interfaces").get(4).get("name").asText());
        assertEquals(8, m.get("packets").asLong());
        assertEquals(3, m.get("non_packet_records").asLong());
        assertEquals("2012-06-29T07:28:25.298858000Z", m.get("first_packet_time").asText());
        assertEquals(1340954905298858000L, m.get("first_packet_time_ns").asLong());
        assertEquals(3, m.get("blocks").get("CB").asLong());
        assertEquals("clean", m.get("end").get("state").asText());
        assertEquals(corpusSize("gopacket__be_test202.pcapng"), m.get("end").get("bytes_read").asLong());
        assertEquals("damaged", a.get(1).get("end").get("state").asText());
        assertEquals(5035, a.get(1).get("end").get("offset").asLong());
        assertEquals(6, a.get(1).get("packets").asLong());
        assertEquals("cut_short", a.get(2).get("end").get("state").asText());
        assertEquals(2715459, a.get(2).get("end").get("offset").asLong());
        assertEquals("not_a_capture", a.get(3).get("end").get("state").asText());
        assertTrue(a.get(3).get("end").get("reason").asText().startsWith("unknown magic 68656c6c (looks like text)"));
        assertEquals("unreadable", a.get(4).get("end").get("state").asText());
        assertEquals(1, a.get(4).get("exit").asInt());
        assertEquals(4, err.toString(StandardCharsets.UTF_8).lines().count(), "each problem still on stderr");
    }

    @Test
    void cutShortFileIsReportedOnStandardErrorAndExitsThreeUnderStrict() {
        String file = corpus("suri__http-mime-truncated__input.pcap").toString();
        Run r = info(file);
        assertEquals(0, r.exit());
        assertRow(r.out(), "Packets", "2696");
        assertRow(r.out(), "Cut short", "byte 2715459: file ends 1 bytes into a 16-byte record header");
        assertEquals("ackscope info: " + file + ": byte 2715459: cut short: file ends 1 bytes into a 16-byte "
                + "record header (after 2696 packets)\n", r.err());
        assertEquals(3, info(true, file).exit());
        assertEquals(3, info(true, corpus("suri__bug-1450-04__tls_DER-incomplete-header.pcap").toString()).exit());
    }

    @Test
    void unreadableHeadersAndMissingFilesAreErrors(@TempDir Path tmp) throws IOException {
        Path text = tmp.resolve("notes.pcap");
        Files.writeString(text, "hello world\n");
        Run r = info(text.toString(), tmp.resolve("absent.pcap").toString(),
                corpus("libpcap__pcap-invalid-version-1.pcap").toString());
        assertEquals(1, r.exit(), "a missing file is a failure, outranking the damaged ones");
        assertTrue(r.out().contains("Error:               byte 0: unknown magic 68656c6c (looks like text)"), r.out());
        assertTrue(r.out().contains("Error:               no such file"), r.out());
        assertTrue(r.out().contains("Error:               byte 4: pcap version 1.4 unsupported (only 2.x)"),
                r.out());
        assertEquals(3, r.err().lines().count(), r.err());
    }

    @Test
    void reportsCompressionAndTimestampsWithNanoseconds(@TempDir Path tmp) throws IOException {
        Path gz = tmp.resolve("capture.bin");
        try (var out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(corpus("tcpdump__tcp-handshake-nano.pcap")));
        }
        Run r = info(gz.toString());
        assertEquals(0, r.exit(), r.err());
        assertRow(r.out(), "Compression", "gzip");
        assertRow(r.out(), "Resolution", "10^-9 s");
        assertTrue(r.out().lines().anyMatch(l -> l.matches("First packet: +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"
                + "\\.\\d{9}Z \\(earliest\\)")), r.out());
    }

    @Test
    void isoTimestampsKeepNineDigits() {
        assertEquals("1970-01-01T00:00:00.000000001Z", InfoCommand.iso(1));
        assertEquals("2014-12-09T17:16:09.999999999Z", InfoCommand.iso(1_418_145_369_999_999_999L));
        assertEquals("1969-12-31T23:59:59.500000000Z", InfoCommand.iso(-500_000_000L));
    }

    @Test
    void isRegisteredAsASubcommand() {
        assertTrue(Main.commands().containsKey("info"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"info", "--help"}, new PrintStream(out), new PrintStream(out));
        assertEquals(0, exit);
        assertTrue(out.toString().contains("--no-decode"), out.toString());
    }

    private static long corpusSize(String file) {
        try {
            return Files.size(corpus(file));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
