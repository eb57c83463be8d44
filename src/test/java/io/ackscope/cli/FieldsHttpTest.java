package io.ackscope.cli;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fields} over small hand-made HTTP connections: where a message's fields show, what the response carries,
 * the {@code -Y http} terms, and how capture bytes are printed (tshark 4.0's output for the same bytes is quoted
 * in each test).
 */
class FieldsHttpTest {

    @TempDir
    Path tmp;

    private static final byte SYN = 0x02, ACK = 0x10, PSH_ACK = 0x18, FIN_ACK = 0x11;

    /** One frame of a connection 10.0.0.1:40000 - 10.0.0.2:{@code port}; seq/ack relative to ISNs 1000 / 5000. */
    private record Seg(boolean fromClient, int flags, long seq, long ack, byte[] payload) {
    }

    private final int port;

    FieldsHttpTest() {
        this.port = 80;
    }

    private static Seg c(int flags, long seq, long ack, String payload) {
        return new Seg(true, flags, seq, ack, payload.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Seg s(int flags, long seq, long ack, String payload) {
        return new Seg(false, flags, seq, ack, payload.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A classic pcap, one frame a second from t=1000 s, of Ethernet/IPv4/TCP frames (checksums left 0). */
    private Path pcap(int serverPort, Seg... segs) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262144).putInt(1);
        int second = 1000;
        for (Seg g : segs) {
            ByteBuffer f = ByteBuffer.allocate(54 + g.payload().length); // big-endian, as on the wire
            f.put(new byte[12]).putShort((short) 0x0800);                                   // Ethernet
            f.put((byte) 0x45).put((byte) 0).putShort((short) (40 + g.payload().length))   // IPv4: version, length
                    .putShort((short) 1).putShort((short) 0).put((byte) 64).put((byte) 6).putShort((short) 0);
            byte[] client = {10, 0, 0, 1};
            byte[] server = {10, 0, 0, 2};
            f.put(g.fromClient() ? client : server).put(g.fromClient() ? server : client);
            f.putShort((short) (g.fromClient() ? 40000 : serverPort))                       // TCP ports
                    .putShort((short) (g.fromClient() ? serverPort : 40000));
            f.putInt((int) ((g.fromClient() ? 1000 : 5000) + g.seq()));                      // sequence number
            f.putInt(g.flags() == SYN ? 0 : (int) ((g.fromClient() ? 5000 : 1000) + g.ack()));
            f.put((byte) 0x50).put((byte) g.flags()).putShort((short) 65535).putInt(0);      // offset, flags, window
            f.put(g.payload());
            b.putInt(second++).putInt(0).putInt(f.capacity()).putInt(f.capacity()).put(f.array());
        }
        Path p = tmp.resolve("http-" + second + ".pcap");
        Files.write(p, Arrays.copyOf(b.array(), b.position()));
        return p;
    }

    private List<String> run(String... args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FieldsCommand cmd = new FieldsCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        JCommander.newBuilder().addObject(cmd).build().parse(args);
        try {
            assertEquals(0, cmd.run());
        } catch (CommandFailure e) {
            throw new AssertionError(e);
        }
        return new ArrayList<>(Arrays.asList(out.toString(StandardCharsets.UTF_8).split("\n", -1)));
    }

    /** A request split over two segments and a response whose body spans two more. */
    private Path exchange() throws IOException {
        String head = "GET /a?b=1 HTTP/1.1\r\nHost: example.org\r\n\r\n";
        String response = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n";
        return pcap(port,
                c(SYN, 0, 0, ""), s(SYN | ACK, 0, 1, ""), c(ACK, 1, 1, ""),
                c(PSH_ACK, 1, 1, head.substring(0, 10)),                                  // 4
                c(PSH_ACK, 11, 1, head.substring(10)),                                    // 5: request complete
                s(PSH_ACK, 1, 1 + head.length(), response + "01234"),                    // 6
                s(PSH_ACK, 1 + response.length() + 5, 1 + head.length(), "56789"),        // 7: response complete
                c(FIN_ACK, 1 + head.length(), 1 + response.length() + 10, ""));
    }

    @Test
    void messagesShowOnTheFrameThatCompletesThem() throws IOException {
        // tshark -n -r X -T fields -e frame.number -e http.request.method -e http.request.uri -e http.host
        //   -e http.response.code -e http.time -e http.request_in -e http.response_for.uri -Y http
        List<String> rows = run("-r", exchange().toString(), "-e", "frame.number", "-e", "http.request.method",
                "-e", "http.request.uri", "-e", "http.host", "-e", "http.response.code", "-e", "http.time", "-e",
                "http.request_in", "-e", "http.response_for.uri", "-Y", "http", "-E", "header=n");
        assertEquals(List.of("5\tGET\t/a?b=1\texample.org\t\t\t\t",
                "7\t\t\t\t200\t2.000000000\t5\thttp://example.org/a?b=1", ""), rows);
    }

    @Test
    void httpFilterTermsSelectRequestsAndResponses() throws IOException {
        Path p = exchange();
        assertEquals(List.of("frame.number", "5", ""), run("-r", p.toString(), "-e", "frame.number", "-Y",
                "http.request"));
        assertEquals(List.of("frame.number", "7", ""), run("-r", p.toString(), "-e", "frame.number", "-Y",
                "http.response && http.response.code == 200"));
        assertEquals(List.of("frame.number", "5", ""), run("-r", p.toString(), "-e", "frame.number", "-Y",
                "http.request.method == \"GET\""));
        assertEquals(List.of("frame.number", "1", "2", "3", "4", "6", "8", ""), run("-r", p.toString(), "-e",
                "frame.number", "-Y", "!http"));
    }

    @Test
    void responseWithoutLengthEndsAtTheSendersFin() throws IOException {
        // tshark shows such a response on the FIN (tcp.len 0), as on pcpp__three_http_streams.pcap frame 18
        String req = "GET / HTTP/1.0\r\n\r\n";
        String resp = "HTTP/1.0 200 OK\r\n\r\nbody";
        Path p = pcap(port, c(PSH_ACK, 1, 1, req), s(PSH_ACK, 1, 1 + req.length(), resp),
                s(FIN_ACK, 1 + resp.length(), 1 + req.length(), ""));
        assertEquals(List.of("1\t\t", "2\t\t", "3\t200\t1", ""), run("-r", p.toString(), "-e", "frame.number",
                "-e", "http.response.code", "-e", "http.request_in", "-E", "header=n"));
    }

    @Test
    void otherPortsAreHttpOnlyByTheHeuristicAboveTheWellKnownPorts() throws IOException {
        String req = "GET / HTTP/1.1\r\n\r\n";
        assertEquals(List.of("1\tGET", ""), run("-r", pcap(8000, c(PSH_ACK, 1, 1, req)).toString(), "-e",
                "frame.number", "-e", "http.request.method", "-E", "header=n"));
        // a GET sent to an SSH server is SSH to tshark (zeek__get-to-ssh-server.pcap)
        assertEquals(List.of("1\t", ""), run("-r", pcap(22, c(PSH_ACK, 1, 1, req)).toString(), "-e",
                "frame.number", "-e", "http.request.method", "-E", "header=n"));
    }

    @Test
    void captureBytesArePrintedAsTsharkPrintsThemButControlBytesEscaped() throws IOException {
        // tshark 4.0 prints this URI as "/a<0x01>b<0x7f>c\ufffd\ufffdd\th" with the control bytes raw; here they
        // are \xNN, so that a capture cannot drive the terminal
        String req = "GET /a\u0001b\u007fc\u00c3\u00a9d\th\u001b[2J HTTP/1.1\r\nHost: x\r\n\r\n";
        List<String> rows = run("-r", pcap(port, c(PSH_ACK, 1, 1, req)).toString(), "-e", "http.request.uri",
                "-E", "header=n", "-E", "quote=d");
        assertEquals("\"/a\\x01b\\x7fc\ufffd\ufffdd\\th\\x1b[2J\"", rows.get(0));
    }

    @Test
    void longUrisAreCutAtTheirBound() throws IOException {
        String uri = "/" + "x".repeat(20_000);
        String req = "GET " + uri + " HTTP/1.1\r\n\r\n";
        List<String> rows = run("-r", pcap(port, c(PSH_ACK, 1, 1, req)).toString(), "-e", "http.request.uri",
                "-e", "frame.number", "-E", "header=n", "-E", "quote=s");
        assertEquals("'" + uri.substring(0, 8192) + "'\t'1'", rows.get(0));
    }

    @Test
    void aHeadBeyondItsBoundIsDroppedNotKept() throws IOException {
        String req = "GET / HTTP/1.1\r\nX: " + "y".repeat(70_000) + "\r\n\r\n";
        List<String> rows = run("-r", pcap(port, c(PSH_ACK, 1, 1, req)).toString(), "-e", "frame.number", "-e",
                "http", "-E", "header=n");
        assertEquals(List.of("1\t", ""), rows);
        assertTrue(req.length() > 64 * 1024);
    }
}
