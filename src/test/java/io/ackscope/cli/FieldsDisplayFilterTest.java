package io.ackscope.cli;

import io.ackscope.fields.DisplayFilter;
import com.beust.jcommander.JCommander;
import com.beust.jcommander.ParameterException;
import io.ackscope.capture.Corpus;
import io.ackscope.probe.NetTestSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code fields -Y} selects exactly the frames {@code tshark -Y} selects, filter by filter, on corpus captures with
 * IPv4 and IPv6, UDP, retransmissions, duplicate ACKs and zero windows. tshark is run here, not read from files, so
 * the comparison is with Wireshark's own reading of each filter.
 */
class FieldsDisplayFilterTest {

    private static final List<String> CAPTURES = List.of("packets__http_ip4and6.pcapng",
            "pcpp__four_ipv6_http_streams.pcap", "packets__tcp_zerowindowrecovery.pcapng", "tcpdump__dns_tcp.pcap",
            "zeek__bro.org.pcap");

    private static final List<String> FILTERS = List.of(
            "tcp.port == 80",
            "ip.addr == 192.168.0.0/16 && tcp.flags.syn == 1",
            "tcp.len > 0 and not tcp.analysis.duplicate_ack",
            "tcp.analysis.retransmission || tcp.analysis.duplicate_ack",
            "udp && !(udp.port == 53)",
            "ipv6.addr == ::/0 and tcp.flags.push eq 1",
            "tcp.flags == 0x0012 or tcp.flags.reset == 1",
            "frame.len >= 1000 && tcp.srcport < 1024",
            "tcp.stream == 1 || tcp.stream gt 3",
            "ip.addr != 10.0.0.1 && tcp.analysis.ack_rtt > 0.0005",
            "tcp.window_size_value == 0",
            "tcp.stream in {1, 2}",
            "tcp.srcport in {80, 1000..2000}",
            "tcp.flags & 0x02",
            "tcp.flags & 0x12 == 0x12",
            "tcp.analysis.bytes_in_flight > 1000 && tcp.seq > 1",
            "frame.time_delta > 0.1 || tcp.analysis.zero_window || tcp.analysis.window_update",
            "tcp.analysis.fast_retransmission or tcp.analysis.out_of_order or tcp.analysis.lost_segment",
            "http",
            "http.request and not http.response",
            "http.response.code == 200 && http.time > 0.1",
            "http.request.method == \"GET\" && http.host == \"bro.org\"",
            "http.request.uri contains \"css\" || http.response_for.uri contains \"images\"",
            "http.response.code >= 300 or http.request_in in {4, 40..60}",
            "!http && tcp.len > 0");

    private static List<String> ackscope(String file, String filter) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            FieldsCommand fields = new FieldsCommand(ps, ps);
            JCommander.newBuilder().addObject(fields).build().parse("-r", file, "-e", "frame.number", "-Y", filter);
            assertEquals(0, fields.run());
        }
        List<String> rows = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("frame.number", rows.get(0));
        return rows.subList(1, rows.size());
    }

    @Test
    @Tag("tshark")
    void selectsTheFramesTsharkSelects() throws Exception {
        NetTestSupport.requireTool("/usr/bin/tshark", "tshark");
        int compared = 0;
        int nonEmpty = 0;
        List<String> differences = new ArrayList<>();
        for (String name : CAPTURES) {
            String file = Corpus.capture(name).toString();
            for (String filter : FILTERS) {
                List<String> want = NetTestSupport.check(60, List.of("tshark", "-n", "-r", file, "-Y", filter, "-T",
                        "fields", "-e", "frame.number")).lines().toList();
                List<String> got = ackscope(file, filter);
                if (!want.equals(got)) {
                    differences.add(name + " -Y '" + filter + "': tshark " + want + ", ackscope " + got);
                }
                compared++;
                nonEmpty += want.isEmpty() ? 0 : 1;
            }
        }
        assertEquals(List.of(), differences);
        assertEquals(CAPTURES.size() * FILTERS.size(), compared);
        assertTrue(nonEmpty >= 40, "filters that select frames: " + nonEmpty + " of " + compared);
    }

    @Test
    void setsMayBeWrittenWithBlanksAsBeforeWireshark40() throws Exception {
        String file = Corpus.capture("zeek__bro.org.pcap").toString();
        List<String> commas = ackscope(file, "tcp.stream in {1, 2, 5..6}");
        assertEquals(commas, ackscope(file, "tcp.stream in {1 2 5..6}"));
        assertEquals(ackscope(file, "tcp.stream == 1 || tcp.stream == 2 || tcp.stream >= 5 && tcp.stream <= 6"),
                commas);
        assertTrue(commas.size() > 10, "frames of streams 1, 2, 5, 6: " + commas.size());
    }

    @Test
    void filtersItCannotReadAreUsageErrorsNamingThePlace() {
        ParameterException e = assertThrows(ParameterException.class, () -> DisplayFilter.parse("tcp.port === 3"));
        assertEquals("-Y: not a number, address or string: '=' at character 12 of 'tcp.port === 3'", e.getMessage());
        e = assertThrows(ParameterException.class, () -> DisplayFilter.parse("(tcp"));
        assertEquals("-Y: expected ')' at the end of '(tcp'", e.getMessage());
        e = assertThrows(ParameterException.class, () -> DisplayFilter.parse("http.cookie"));
        assertTrue(e.getMessage().startsWith("-Y: unknown field 'http.cookie' (fields -e list"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> DisplayFilter.parse("ip.addr == example.com"));
        assertTrue(e.getMessage().startsWith("-Y: not a number, address or string: 'example.com'"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> DisplayFilter.parse("tcp.stream in {1, 2"));
        assertEquals("-Y: expected '}' at the end of 'tcp.stream in {1, 2'", e.getMessage());
        e = assertThrows(ParameterException.class, () -> DisplayFilter.parse("tcp.flags & syn"));
        assertEquals("-Y: not a mask: 'syn' at character 13 of 'tcp.flags & syn'", e.getMessage());
        e = assertThrows(ParameterException.class, () -> DisplayFilter.parse("ip.addr == 10.0.0.0/33"));
        assertTrue(e.getMessage().contains("'10.0.0.0/33'"), e.getMessage());
    }
}
