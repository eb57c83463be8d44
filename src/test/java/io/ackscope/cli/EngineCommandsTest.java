package io.ackscope.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.ackscope.capture.Corpus;
import io.ackscope.capture.RotatedArchive;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineCommandsTest {

    private static String run(Command c, ByteArrayOutputStream buf) throws Exception {
        assertEquals(0, c.run());
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void convPrintsTsharksRowsWithExactBytesAndRelativeStart() throws Exception {
        Path corpus = Corpus.dir();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ConvCommand c = new ConvCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = List.of(corpus.resolve("zeek__bro.org.pcap").toString());
        String[] ours = run(c, buf).split("\n");
        List<String> theirs = Files.readAllLines(corpus.resolve("expected/zeek__bro.org.pcap.conv.tsv"));
        assertEquals(theirs.size(), ours.length);
        assertEquals(ConvCommand.HEADER, ours[0]);
        for (int i = 1; i < ours.length; i++) {
            String[] o = ours[i].split("\t");
            String[] t = theirs.get(i).split("\t");
            // address_a port_a address_b port_b frames_b_to_a bytes_b_to_a_exact frames_a_to_b bytes_a_to_b_exact
            assertEquals(List.of(t[0], t[1], t[2], t[3], t[4], t[12], t[6], t[13], t[8], t[14], t[10], t[11]),
                    List.of(o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11]), "row " + i);
        }
        assertTrue(ours[1].endsWith("\tOTH") || ours[1].contains("\tSF\t") || ours[1].contains("\tS1\t"), ours[1]);
    }

    @Test
    void diagnoseExplainsTheSeedCaseStallAndItsFixes() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand c = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = List.of("sample-pcaps/nginx-nodelay-off.pcap.gz");
        String out = run(c, buf);
        assertTrue(out.contains("Server 127.0.0.1:18781"), out);
        assertTrue(out.contains("requests after the first on a keep-alive connection"), out);
        assertTrue(out.contains("for the client's delayed ACK"), out);
        assertTrue(out.contains("because the server sends with Nagle on"), out);
        assertTrue(out.contains("TCP_NODELAY on the server") && out.contains("TCP_QUICKACK on the client")
                && out.contains("tcp_nopush"), out);
        assertTrue(out.matches("(?s).*wait ~4[0-8]\\.\\d{3} ms.*"), out);
    }

    @Test
    void diagnoseSaysNoStallOnTheGoodCapture() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand c = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = List.of("sample-pcaps/nginx-nodelay-on.pcap.gz");
        String out = run(c, buf);
        assertTrue(out.contains("No Nagle x delayed-ACK stall found."), out);
        assertTrue(!out.contains("TCP_NODELAY"), out);
    }

    private static String conv(String sourceBy, Path... inputs) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ConvCommand c = new ConvCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = java.util.Arrays.stream(inputs).map(Path::toString).toList();
        c.sourceBy = sourceBy;
        return run(c, buf);
    }

    @Test
    void convOfRotatedFilesEqualsConvOfTheUncutCaptureAndKeepsHostsApart(@TempDir Path tmp) throws Exception {
        RotatedArchive cap = RotatedArchive.read(Path.of("sample-pcaps/nginx-nodelay-off.pcap.gz"));
        Path whole = cap.write(tmp.resolve("whole.pcap"), 0, cap.frames());
        cap.write(tmp.resolve("archive/hostA"), cap.pieces(8), RotatedArchive.reversed(8, "cap-", ".pcap.gz"));
        cap.write(tmp.resolve("archive/hostB"), cap.pieces(11), RotatedArchive.tcpdumpC("cap"));
        String expected = conv(null, whole);
        assertEquals(22, expected.split("\n").length, "header and 21 connections");
        assertEquals(expected, conv(null, tmp.resolve("archive/hostA")));

        String[] both = conv(null, tmp.resolve("archive")).split("\n");
        assertEquals(ConvCommand.HEADER + "\tsource", both[0]);
        String[] once = expected.split("\n");
        for (int i = 1; i < once.length; i++) {
            assertEquals(once[i] + "\thostA", both[i]);
            assertEquals(once[i] + "\thostB", both[i + once.length - 1]);
        }
        assertEquals(2 * once.length - 1, both.length);

        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand d = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        d.files = List.of(tmp.resolve("archive").toString());
        String out = run(d, buf);
        assertTrue(out.startsWith("13,652 frames, ") && out.contains("42 connections in 2 capture sources"), out);
        assertTrue(out.indexOf("== source hostA ==") < out.indexOf("== source hostB =="), out);
        assertEquals(2, out.split("Server 127.0.0.1:18781", -1).length - 1, out);
    }

    @Test
    void commandsAreRegisteredWithMain() {
        assertTrue(Main.commands().containsKey("conv"));
        assertTrue(Main.commands().containsKey("diagnose"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[]{"conv"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, rc, "missing -r is a usage error");
    }
}
