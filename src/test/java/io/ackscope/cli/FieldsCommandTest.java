package io.ackscope.cli;

import io.ackscope.fields.FrameFields;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV4;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV6;
import static io.ackscope.decode.Fixtures.ICMP;
import static io.ackscope.decode.Fixtures.ICMPV6;
import static io.ackscope.decode.Fixtures.TCP;
import static io.ackscope.decode.Fixtures.cat;
import static io.ackscope.decode.Fixtures.ethernet;
import static io.ackscope.decode.Fixtures.fill;
import static io.ackscope.decode.Fixtures.hex;
import static io.ackscope.decode.Fixtures.icmp;
import static io.ackscope.decode.Fixtures.ipv4;
import static io.ackscope.decode.Fixtures.ipv6;
import static io.ackscope.decode.Fixtures.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.beust.jcommander.JCommander;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FieldsCommandTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws IOException {
        FieldsCommand cmd = new FieldsCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        JCommander.newBuilder().addObject(cmd).build().parse(args);
        try {
            return cmd.run();
        } catch (CommandFailure e) {
            throw new AssertionError(e);
        }
    }

    private List<String> lines() {
        return Arrays.asList(out.toString(StandardCharsets.UTF_8).split("\n"));
    }

    /** A classic little-endian microsecond pcap of Ethernet frames; each frame is {bytes, original length}. */
    private Path pcap(Object[]... frames) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262144).putInt(1);
        int second = 1000;
        for (Object[] f : frames) {
            byte[] data = (byte[]) f[0];
            b.putInt(second++).putInt(0).putInt(data.length).putInt((Integer) f[1]).put(data);
        }
        Path p = tmp.resolve("t.pcap");
        Files.write(p, Arrays.copyOf(b.array(), b.position()));
        return p;
    }

    private static Object[] frame(byte[] data) {
        return new Object[] {data, data.length};
    }

    @Test
    void defaultFieldsAreTheDecodedColumnsOfTsharksTcpTable() throws IOException {
        Path p = pcap(frame(io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN));
        assertEquals(0, run("-r", p.toString()));
        assertEquals(List.of(
                "frame.number\tframe.time_epoch\tip.src\tipv6.src\ttcp.srcport\tip.dst\tipv6.dst\ttcp.dstport\t"
                        + "tcp.flags\ttcp.seq_raw\ttcp.ack_raw\ttcp.len\ttcp.window_size_value",
                "1\t1000.000000000\t192.168.0.1\t\t40972\t192.168.0.199\t\t80\t0x0002\t225062702\t0\t0\t64240"),
                lines());
    }

    /**
     * Command lines copied from tshark habits (-n, -T fields, -E header/separator/quote, -c) print what tshark
     * prints, byte for byte; tshark is run here with a UTC zone for frame.time.
     */
    @Test
    @org.junit.jupiter.api.Tag("tshark")
    void copiedTsharkCommandLinesPrintWhatTsharkPrints() throws Exception {
        io.ackscope.probe.NetTestSupport.requireTool("/usr/bin/tshark", "tshark");
        String file = io.ackscope.capture.Corpus.capture("zeek__bro.org.pcap").toString();
        List<List<String>> options = List.of(
                List.of("-T", "fields", "-E", "header=y", "-E", "separator=,", "-c", "30"),
                List.of("-T", "fields", "-E", "header=y", "-E", "separator=/s", "-E", "quote=d", "-c", "12",
                        "-Y", "tcp.len > 0"),
                List.of("-T", "fields", "-E", "header=n", "-E", "separator=/t", "-E", "quote=s", "-c", "40",
                        "-Y", "tcp.flags & 0x02"));
        List<String> fields = List.of("-e", "frame.number", "-e", "frame.time", "-e", "frame.time_relative", "-e",
                "frame.time_delta_displayed", "-e", "ip.src", "-e", "tcp.seq", "-e", "tcp.ack", "-e",
                "tcp.analysis.bytes_in_flight", "-e", "tcp.flags.str");
        for (List<String> o : options) {
            List<String> args = new java.util.ArrayList<>(List.of("-n", "-r", file));
            args.addAll(o);
            args.addAll(fields);
            List<String> tshark = new java.util.ArrayList<>(List.of("env", "TZ=UTC", "tshark"));
            tshark.addAll(args);
            String want = io.ackscope.probe.NetTestSupport.check(60, tshark);
            out.reset();
            FieldsCommand cmd = new FieldsCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            cmd.zone = java.time.ZoneId.of("UTC");
            JCommander.newBuilder().addObject(cmd).build().parse(args.toArray(new String[0]));
            assertEquals(0, cmd.run(), err.toString(StandardCharsets.UTF_8));
            assertTrue(want.lines().count() > 5, String.join(" ", args) + ": " + want);
            assertEquals(want, out.toString(StandardCharsets.UTF_8), String.join(" ", args));
        }
    }

    @Test
    void printOptionsItCannotFollowAreUsageErrors() throws IOException {
        Path p = pcap(frame(io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN));
        assertEquals(2, run("-r", p.toString(), "-E", "occurrence=a"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-E occurrence=a"), err.toString());
        assertEquals(2, run("-r", p.toString(), "-T", "json"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-T json is not supported"), err.toString());
    }

    @Test
    void mainDispatchesToFields() {
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[] {"fields", "--help"}, ps, ps));
        String usage = out.toString(StandardCharsets.UTF_8);
        assertTrue(usage.contains("fields") && usage.contains("--field"), usage);
        out.reset();
        assertEquals(2, Main.run(new String[] {"fields"}, ps, ps), "-r is required");
    }

    @Test
    void unknownFieldIsAUsageErrorListingTheKnownOnes() throws IOException {
        Path p = pcap(frame(io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN));
        assertEquals(2, run("-r", p.toString(), "-e", "frame.number", "-e", "tcp.bogus"));
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains("unknown field 'tcp.bogus'"), message);
        for (FrameFields.Field f : FrameFields.all()) {
            assertTrue(message.contains(f.name()), f.name());
        }
        assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing printed on a usage error");
    }

    @Test
    void listPrintsEveryFieldWithItsDescription() throws IOException {
        assertEquals(0, run("-r", "unused", "-e", "list"));
        assertEquals(FrameFields.all().size(), lines().size());
        assertTrue(lines().contains("tcp.len\tTCP payload length from the IP length fields"), lines().toString());
    }

    @Test
    void fieldsNeedingTheTcpAnalysisPassRunTheEngineInFrameOrder() throws IOException {
        // tshark -n -r sample-pcaps/nginx-nodelay-off.pcap.gz -T fields -e frame.number -e tcp.stream
        //   -e tcp.analysis.ack_rtt -e tcp.analysis.initial_rtt (first three frames)
        assertEquals(0, run("-r", "sample-pcaps/nginx-nodelay-off.pcap.gz", "-e", "frame.number", "-e",
                "tcp.stream", "-e", "tcp.analysis.ack_rtt", "-e", "tcp.analysis.initial_rtt"));
        assertEquals(List.of("1\t0\t\t", "2\t0\t0.000028000\t", "3\t0\t0.000016000\t0.000044000"),
                lines().subList(1, 4));
        for (FrameFields.Field f : FrameFields.all()) {
            if (f.pass() == FrameFields.Pass.TCP_ANALYSIS) {
                assertTrue(f.name().startsWith("tcp."), f.name());
            }
        }
        assertTrue(FrameFields.get("frame.number").pass().compareTo(FrameFields.get("tcp.len").pass()) < 0);
        assertTrue(FrameFields.get("tcp.len").pass().compareTo(FrameFields.get("tcp.stream").pass()) < 0);
    }

    @Test
    void truncatedHeadersShowWhatTsharkShows() throws IOException {
        // Ethernet + IPv4 + TCP with 12 option bytes and 10 payload bytes (76 bytes), captured 14..76 bytes. tshark
        // 4.0.17 printed ip.src from 30 captured bytes, the TCP ports from 38, and flags, seq, ack, tcp.len and
        // window from 50 (16 TCP bytes), each frame having an original length of 76.
        byte[] full = ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(8, hex("020405b4010303070101080a"), fill(10, 'x'))));
        Object[][] frames = new Object[full.length - 13][];
        for (int n = 14; n <= full.length; n++) {
            frames[n - 14] = new Object[] {Arrays.copyOf(full, n), full.length};
        }
        assertEquals(0, run("-r", pcap(frames).toString(), "-e", "frame.cap_len", "-e", "ip.src", "-e", "ip.dst",
                "-e", "tcp.srcport", "-e", "tcp.flags", "-e", "tcp.seq_raw", "-e", "tcp.len",
                "-e", "tcp.window_size_value"));
        List<String> rows = lines();
        for (int n = 14; n <= full.length; n++) {
            String want = n + "\t" + (n >= 30 ? "10.0.0.1" : "") + "\t" + (n >= 34 ? "10.0.0.2" : "")
                    + "\t" + (n >= 38 ? "1234" : "")
                    + (n >= 50 ? "\t0x0018\t1000\t10\t512" : "\t\t\t\t");
            assertEquals(want, rows.get(n - 13), "captured " + n);
        }
    }

    @Test
    void quotedTcpShowsWhatTsharkShows() throws IOException {
        byte[] original4 = ipv4(TCP, tcp(fill(100, 'p')));
        byte[] original6 = ipv6(TCP, tcp(fill(100, 'p')));
        int[] tcpBytes4 = {2, 4, 8, 12, 16, 20, 120};
        int[] tcpBytes6 = {8, 20, 120};
        Object[][] frames = new Object[tcpBytes4.length + tcpBytes6.length][];
        int i = 0;
        for (int n : tcpBytes4) {
            frames[i++] = frame(ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(3, 3, Arrays.copyOf(original4, 20 + n)))));
        }
        for (int n : tcpBytes6) {
            frames[i++] = frame(ethernet(ETHERTYPE_IPV6, ipv6(ICMPV6, icmp(1, 4, Arrays.copyOf(original6, 40 + n)))));
        }
        assertEquals(0, run("-r", pcap(frames).toString(), "-e", "tcp.srcport", "-e", "tcp.flags", "-e",
                "tcp.seq_raw", "-e", "tcp.ack_raw", "-e", "tcp.len", "-e", "tcp.window_size_value"));
        // as tshark 4.0.17 printed them: behind a quoted IPv4 header no sequence number, never a tcp.len
        assertEquals(List.of(
                "tcp.srcport\ttcp.flags\ttcp.seq_raw\ttcp.ack_raw\ttcp.len\ttcp.window_size_value",
                "\t\t\t\t\t",
                "1234\t\t\t\t\t",
                "1234\t\t\t\t\t",
                "1234\t\t\t\t\t",
                "1234\t0x0018\t\t2000\t\t512",
                "1234\t0x0018\t\t2000\t\t512",
                "1234\t0x0018\t\t2000\t\t512",
                "1234\t\t\t\t\t",
                "1234\t0x0018\t1000\t2000\t\t512",
                "1234\t0x0018\t1000\t2000\t\t512"), lines());
    }

    @Test
    void dataOffsetBelowFiveShowsWhatTsharkShows() throws IOException {
        Path p = pcap(frame(ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(4, new byte[0], fill(4, 'z'))))));
        assertEquals(0, run("-r", p.toString(), "-e", "tcp.srcport", "-e", "tcp.flags", "-e", "tcp.seq_raw",
                "-e", "tcp.ack_raw", "-e", "tcp.len", "-e", "tcp.window_size_value"));
        // tshark 4.0.17: ports, sequence number and tcp.len (24 TCP bytes minus the bogus 16-byte header)
        assertEquals("1234		1000		8	", lines().get(1));
    }

    @Test
    void damagedFileKeepsTheRowsBeforeTheDamageAndExitsThreeUnderStrict() throws IOException {
        Path p = pcap(frame(io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN));
        byte[] good = Files.readAllBytes(p);
        // a second record header claiming a captured length far beyond any bound
        byte[] bad = cat(good, hex("e9030000 00000000 ffffff7f ffffff7f"));
        Files.write(p, bad);
        assertEquals(3, run("-r", p.toString(), "-e", "frame.number", "--strict"));
        assertEquals(List.of("frame.number", "1"), lines());
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("ackscope fields: " + p + ": byte " + good.length
                + ": "), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void statsCountFramesByWhereDecodingStopped() throws IOException {
        byte[] syn = io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN;
        Path p = pcap(frame(syn), new Object[] {Arrays.copyOf(syn, 40), syn.length},
                frame(ethernet(0x0806, fill(28, 0))));
        assertEquals(0, run("-r", p.toString(), "--stats"));
        String stats = err.toString(StandardCharsets.UTF_8);
        assertTrue(stats.contains("3 frames decoded: 1 ok"), stats);
        assertTrue(stats.contains("1 TRUNCATED at TCP: header cut by the snap length"), stats);
        assertTrue(stats.contains("1 UNSUPPORTED at LINK: ethertype not decoded"), stats);
    }
}
