package io.ackscope.decode;

import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Corpus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CaptureFilter} selects the packets tcpdump's BPF selects (tcpdump -r FILE -w OUT FILTER), filter by filter,
 * on corpus captures of plain Ethernet, Linux cooked and pcapng with IPv4, IPv6, UDP, ICMP and fragments. Packets are
 * compared by timestamp and lengths, in order.
 */
class CaptureFilterTest {

    private static final List<String> CAPTURES = List.of("packets__http_ip4and6.pcapng",
            "pcpp__four_ipv6_http_streams.pcap", "zeek__bro.org.pcap", "tcpdump__dns_tcp.pcap",
            "pcpp__ip4_fragments.pcap", "pcpp__sll.pcap", "pcpp__DnsPackets.pcap", "tcpdump__icmpv6.pcap");

    private static final List<String> FILTERS = List.of(
            "tcp port 80",
            "port 80 or 443",
            "udp and (port 53 or port 5353)",
            "src port 53 or dst portrange 1000-2000",
            "net 10.0.0.0/8 or net 192.168",
            "ip6 and tcp",
            "ip6 net 2001:db8::/32 or ip6 net fe80::/10",
            "greater 1000",
            "less 100 and tcp",
            "icmp or icmp6",
            "not ip",
            "tcp and not src port 80 and not dst port 80",
            "host 192.168.1.1 or host 2001:db8::1 or host 10.0.0.1",
            "src net 192.168.0.0/16 and dst port 80 or udp");

    /** Timestamp and lengths of every record, as a line each. */
    private static List<String> records(Path file, CaptureFilter filter) throws Exception {
        List<String> out = new ArrayList<>();
        PacketDecoder d = new PacketDecoder();
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                if (filter != null) {
                    d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                    if (!filter.matches(d, r.data(), r.originalLength())) {
                        continue;
                    }
                }
                out.add(r.timestampNanos() / 1000 + " " + r.capturedLength() + " " + r.originalLength());
            }
        }
        return out;
    }

    @Test
    void selectsWhatTcpdumpSelects(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/tcpdump")), "tcpdump (Debian package tcpdump)");
        List<String> differences = new ArrayList<>();
        int nonEmpty = 0;
        for (String name : CAPTURES) {
            Path file = Corpus.capture(name);
            for (String f : FILTERS) {
                Path out = tmp.resolve("out.pcap");
                Process p = new ProcessBuilder("tcpdump", "-Z", "root", "-r", file.toString(), "-w", out.toString(), f)
                        .redirectErrorStream(true).start();
                String log = new String(p.getInputStream().readAllBytes());
                assertTrue(p.waitFor(30, TimeUnit.SECONDS));
                assertEquals(0, p.exitValue(), name + " " + f + ": " + log);
                List<String> want = records(out, null);
                List<String> got = records(file, CaptureFilter.parse(f));
                if (!want.equals(got)) {
                    differences.add(name + " '" + f + "': tcpdump " + want.size() + ", ackscope " + got.size());
                }
                nonEmpty += want.isEmpty() ? 0 : 1;
            }
        }
        assertEquals(List.of(), differences);
        assertTrue(nonEmpty >= 40, "filters that select packets: " + nonEmpty);
    }

    @Test
    void refusesWhatItCannotReadNamingIt() {
        assertEquals("capture filter 'host example.com': at character 6: 'example.com' is not an IP address (names are not looked up)",
                assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse("host example.com"))
                        .getMessage());
        assertEquals("capture filter 'port http': at character 6: 'http' is not a number from 0 to 65535 (names are not looked up)",
                assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse("port http")).getMessage());
        assertEquals("capture filter '(tcp': at character 5: expected ')'",
                assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse("(tcp")).getMessage());
        assertEquals("capture filter 'tcp tcp': at character 5: unexpected 'tcp'",
                assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse("tcp tcp")).getMessage());
        assertEquals("capture filter 'tcp&&port 80 or': at character 16: expected a primitive at the end",
                assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse("tcp&&port 80 or"))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse("host 10.0.0.0/8"));
        assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse("ip host ::1"));
        assertThrows(IllegalArgumentException.class, () -> CaptureFilter.parse(""));
    }
}
