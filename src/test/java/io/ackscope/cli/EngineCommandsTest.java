package io.ackscope.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.ackscope.capture.Corpus;
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
        c.file = corpus.resolve("zeek__bro.org.pcap").toString();
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
