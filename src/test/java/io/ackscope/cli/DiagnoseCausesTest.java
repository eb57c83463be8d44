package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.tcp.Cause;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    @Test
    void aSmallReceiveWindowIsTheVerdictOfTheWindowLimitedDownload() throws Exception {
        String out = diagnose("lab-cause-window-limited.pcap.gz");
        assertTrue(out.contains("verdict: RECEIVER_WINDOW_LIMITED, "), out);
        Row first = ranked(out).get(0);
        assertEquals("RECEIVER_WINDOW_LIMITED", first.cause(), out);
        // 2,000,000 bytes through a 20,272-byte window over a 40 ms RTT: ~3.95 s, nearly all of the download
        assertTrue(first.ms() > 3550 && first.ms() < 4350, out);
        assertTrue(first.percent() > 75, out);
        assertEquals(1, first.connections());
        assertTrue(out.contains("fix: " + Cause.RECEIVER_WINDOW_LIMITED.fixInOneLine), out);
    }

    @Test
    void twoWriteRequestsWithNagleOnAreTheClientHeldStall() throws Exception {
        String out = diagnose("lab-cause-client-nagle.pcap.gz");
        assertTrue(out.contains("verdict: NAGLE_CLIENT_HELD, "), out);
        Row first = ranked(out).get(0);
        assertEquals("NAGLE_CLIENT_HELD", first.cause(), out);
        // 50 requests; the first one's headers are ACKed at once (Linux's quick-ACK mode at a connection's start),
        // the other 49 bodies wait for the server's 40 ms delayed ACK plus the round trip (10 ms) (tshark: 49 gaps
        // from headers to body over 30 ms, 56.4 ms on average over all 50)
        assertEquals(49, first.events(), out);
        double perStall = first.ms() / first.events();
        assertTrue(perStall > 50 && perStall < 65, "per stall " + perStall + " ms: " + out);
        Matcher wait = Pattern.compile("49 requests wait ~([\\d.]+) ms for the server's delayed ACK").matcher(out);
        assertTrue(wait.find(), out);
        double ackDelay = Double.parseDouble(wait.group(1));
        assertTrue(ackDelay > 38 && ackDelay < 48, "the delayed-ACK timer: " + out);
        assertTrue(first.percent() > 50, out);
        assertTrue(out.contains("fix: " + Cause.NAGLE_CLIENT_HELD.fixInOneLine), out);
    }

    @Test
    void theWindowAndClientNagleCausesAreAbsentFromTheOtherCaptures() throws Exception {
        for (String cap : List.of("lab-cause-syn-drop.pcap.gz", "lab-cause-loss.pcap.gz",
                "lab-cause-zero-window.pcap.gz", "lab-cause-queueing.pcap.gz", "lab-cause-server-slow.pcap.gz",
                "lab-cause-network-delay.pcap.gz", "lab-cause-churn.pcap.gz", "lab-nginx-nodelay-off.pcap.gz",
                "lab-nginx-nodelay-on.pcap.gz", "nginx-nodelay-on.pcap.gz")) {
            String out = diagnose(cap);
            for (Row r : ranked(out)) {
                assertTrue(!r.cause().equals("RECEIVER_WINDOW_LIMITED") && !r.cause().equals("NAGLE_CLIENT_HELD"),
                        cap + ": " + out);
            }
        }
        String client = diagnose("lab-cause-client-nagle.pcap.gz");
        assertTrue(ranked(client).stream().noneMatch(r -> r.cause().equals("RECEIVER_WINDOW_LIMITED")), client);
        String window = diagnose("lab-cause-window-limited.pcap.gz");
        assertTrue(ranked(window).stream().noneMatch(r -> r.cause().startsWith("NAGLE")), window);
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
