package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.tcp.Cause;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code diagnose} leads each server endpoint with its causes ranked by time lost, on the lab captures of
 * jobs/lab-causes and the nginx labs: the cause the lab made is the verdict, with its evidence frames and its fix,
 * and the healthy capture has no verdict.
 */
class DiagnoseCausesTest {
    private static final Pattern RANKED =
            Pattern.compile("(?m)^ +\\d+\\. (\\w+) +([\\d.]+)% +([\\d.]+) ms  (\\d+) events? on (\\d+) connections?.*$");

    /** One ranked line: cause, share in percent, time lost in ms, events, connections. */
    record Row(String cause, double percent, double ms, int events, int connections) {
    }

    private static String diagnose(String capture) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand c = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = List.of("sample-pcaps/" + capture);
        assertEquals(0, c.run());
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static List<Row> ranked(String out) {
        List<Row> rows = new ArrayList<>();
        Matcher m = RANKED.matcher(out);
        while (m.find()) {
            rows.add(new Row(m.group(1), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
                    Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))));
        }
        return rows;
    }

    @Test
    void droppedSynsAreTheVerdictWithTheRetryTimersAsTheirCost() throws Exception {
        String out = diagnose("lab-cause-syn-drop.pcap.gz");
        assertTrue(out.contains("verdict: SYN_RETRANSMISSION, "), out);
        List<Row> rows = ranked(out);
        assertEquals("SYN_RETRANSMISSION", rows.get(0).cause(), out);
        // the lab dropped 2 SYNs on each of 2 connections: Linux retries after 1 s and 1 s, so ~2 s lost each
        assertEquals(2, rows.get(0).events());
        assertEquals(2, rows.get(0).connections());
        assertTrue(rows.get(0).ms() > 4000 && rows.get(0).ms() < 4100, out);
        assertTrue(out.contains("count 4\n      evidence frames: 1, 5, 2, 6\n"), out);
        assertTrue(out.contains("fix: " + Cause.SYN_RETRANSMISSION.fixInOneLine), out);
    }

    @Test
    void lossIsRankedAsItsRecoveriesCostliestFirst() throws Exception {
        String out = diagnose("lab-cause-loss.pcap.gz");
        assertTrue(out.contains("verdict: RTO, "), out);
        List<Row> rows = ranked(out);
        assertEquals(List.of("RTO", "TAIL_LOSS_PROBE", "FAST_RETRANSMIT"), rows.stream().map(Row::cause).toList(),
                out);
        assertEquals(List.of(8, 8, 6), rows.stream().map(Row::events).toList(), out);
        for (int i = 1; i < rows.size(); i++) {
            assertTrue(rows.get(i).ms() <= rows.get(i - 1).ms(), out);
        }
        double shares = rows.stream().mapToDouble(Row::percent).sum();
        assertTrue(shares <= 100.01, "recovery shares add up to at most the response time: " + out);
    }

    @Test
    void theNagleStallIsTheVerdictWhenNginxSendsWithNagleOn() throws Exception {
        String out = diagnose("lab-nginx-nodelay-off.pcap.gz");
        assertTrue(out.contains("verdict: NAGLE_SERVER_HELD, "), out);
        Row first = ranked(out).get(0);
        assertEquals("NAGLE_SERVER_HELD", first.cause(), out);
        assertTrue(first.percent() > 50, out);
        assertTrue(out.contains("fix: " + Cause.NAGLE_SERVER_HELD.fixInOneLine), out);
    }

    /** The top finding of {@code capture}, which must be {@code cause} and its verdict, on its connections. */
    private static Row verdict(String capture, String cause, int events, int connections) throws Exception {
        String out = diagnose(capture);
        assertTrue(out.contains("verdict: " + cause + ", "), out);
        Row top = ranked(out).get(0);
        assertEquals(new Row(cause, top.percent(), top.ms(), events, connections), top, out);
        assertTrue(out.contains("fix: " + Cause.valueOf(cause).fixInOneLine), out);
        return top;
    }

    @Test
    void aSlowServerAndALongPathWithTheSameResponseTimeAreToldApart() throws Exception {
        // both labs answer in ~55 ms: a 50 ms think time behind a 2 ms path, and no think time behind a 50 ms path
        Row server = verdict("lab-cause-server-slow.pcap.gz", "SERVER_PROCESSING", 103, 2);
        assertTrue(server.ms() / server.events() > 50 && server.ms() / server.events() < 60, server.toString());
        assertTrue(server.percent() > 95, "captured at the server: all it timed was the server's " + server);
        Row network = verdict("lab-cause-network-delay.pcap.gz", "NETWORK_DELAY", 96, 2);
        assertTrue(network.ms() / network.events() > 50 && network.ms() / network.events() < 52, network.toString());
        assertTrue(network.percent() > 95, network.toString());
    }

    @Test
    void aFullQueueIsTheVerdictOfTheLightLoadThatSharedIt() throws Exception {
        Row q = verdict("lab-cause-queueing.pcap.gz", "QUEUEING_DELAY", 37, 1);
        // the download ran 10.6 s and the light load's requests queued through it, one after the other
        assertTrue(q.ms() > 9000 && q.ms() < 10600, q.toString());
        assertTrue(q.percent() > 50, q.toString());
    }

    @Test
    void aConnectionPerRequestIsTheVerdictWithItsHandshakes() throws Exception {
        Row churn = verdict("lab-cause-churn.pcap.gz", "CONNECTION_CHURN", 100, 100);
        // 100 handshakes over a 10 ms path, most 10.5 ms, some longer on the loaded lab machine
        assertTrue(churn.ms() > 1000 && churn.ms() < 1500, churn.toString());
        assertTrue(churn.percent() > 80, churn.toString());
    }

    @Test
    void aRequestInTwoWritesIsTheClientHeldStallAsItsVerdict() throws Exception {
        Row held = verdict("lab-cause-body-ack.pcap.gz", "NAGLE_CLIENT_HELD", 59, 1);
        // each: the headers' 10 ms round trip and the server's 40 ms delayed ACK, a few ms more on the lab machine
        assertTrue(held.ms() / held.events() > 50 && held.ms() / held.events() < 60, held.toString());
        assertTrue(held.percent() > 75, held.toString());
    }

    @Test
    void theNewCausesAreFindingsOnlyOnTheLabsThatMadeThem() throws Exception {
        Map<String, String> made = Map.of("SERVER_PROCESSING", "lab-cause-server-slow.pcap.gz",
                "NETWORK_DELAY", "lab-cause-network-delay.pcap.gz", "QUEUEING_DELAY", "lab-cause-queueing.pcap.gz",
                "CONNECTION_CHURN", "lab-cause-churn.pcap.gz");
        try (Stream<Path> files = Files.list(Path.of("sample-pcaps"))) {
            for (Path p : files.filter(f -> f.toString().endsWith(".pcap.gz")).sorted().toList()) {
                String name = p.getFileName().toString();
                List<String> found = ranked(diagnose(name)).stream().map(Row::cause).toList();
                made.forEach((cause, lab) -> assertEquals(lab.equals(name), found.contains(cause), name + ": " + found));
            }
        }
    }

    @Test
    void noCauseIsTheVerdictWithNagleOff() throws Exception {
        String out = diagnose("lab-nginx-nodelay-on.pcap.gz");
        assertTrue(out.contains("verdict: no cause found"), out);
        for (Row r : ranked(out)) {
            assertTrue(r.percent() < 1, "listed, below the verdict threshold: " + out);
        }
    }
}
