package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.tcp.Cause;
import io.ackscope.tcp.DelayedAckTimer;
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
        return printed(List.of("sample-pcaps/" + capture));
    }

    /** What {@code diagnose -r} prints for {@code files}, which it reads without a problem. */
    static String printed(List<String> files) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand c = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = files;
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
        // each connection's first SYN and its retransmission, the costlier occurrence's first (the findings table's
        // evidence rule)
        assertTrue(out.contains("count 4\n      evidence frames: 2, 6, 1, 5\n"), out);
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
        // a Linux client at its minimum timer: the 40 ms class, whose fix on the client is TCP_QUICKACK
        assertTrue(out.contains("(" + DelayedAckTimer.CLASS_40MS.words + "; "), out);
        assertFalse(out.contains("TcpAckFrequency"), out);
    }

    @Test
    void aLongPathsLinuxReceiverDelaysItsAcksInThe200msClassAndGetsThePerStackFix() throws Exception {
        // 22 messages pushed 800 ms apart, each a 600-byte header and a 100-byte payload held by Nagle, over a
        // 250 ms RTT (jobs/lab-causes delack-200): after the quick-ACK start the client's Linux timer doubles from
        // 40 ms to its cap, min(smoothed RTT, 200 ms) (tshark: 11 of the header ACKs 198-234 ms after the header
        // left, less the 250 ms RTT)
        String out = diagnose("lab-cause-delack-200.pcap.gz");
        Row top = verdictWithFix("lab-cause-delack-200.pcap.gz", out, "NAGLE_SERVER_HELD", 20, 1);
        // each stall is the client's ACK delay plus the round trip the payload waits for the ACK to come back
        double perStall = top.ms() / top.events();
        assertTrue(perStall > 250 + 150 && perStall < 250 + 230, "per stall " + perStall + " ms: " + out);
        Matcher wait = Pattern.compile("wait ~([\\d.]+) ms for the client's delayed ACK \\(([^;]+);").matcher(out);
        assertTrue(wait.find(), out);
        double ackDelay = Double.parseDouble(wait.group(1));
        assertTrue(ackDelay > 150 && ackDelay < 230, "median ACK delay " + ackDelay + ": " + out);
        assertEquals(DelayedAckTimer.CLASS_200MS.words, wait.group(2), out);
        String fix = DelayedAckTimer.CLASS_200MS.oneLineFix(Cause.NAGLE_SERVER_HELD);
        assertTrue(out.contains("fix: " + fix + "\n"), out);
        for (String perStack : List.of("TcpAckFrequency", "SIO_TCP_SET_ACK_FREQUENCY", "net.inet.tcp.delayed_ack",
                "TCP_QUICKACK")) {
            assertTrue(fix.contains(perStack), fix);
        }
    }

    /** The top finding of {@code capture}, which must be {@code cause} and its verdict, on its connections. */
    private static Row verdict(String capture, String cause, int events, int connections) throws Exception {
        String out = diagnose(capture);
        Row top = verdictWithFix(capture, out, cause, events, connections);
        assertTrue(out.contains("fix: " + Cause.valueOf(cause).fixInOneLine), out);
        return top;
    }

    /** As {@link #verdict}, on {@code diagnose}'s output {@code out}, without the fix's words. */
    private static Row verdictWithFix(String capture, String out, String cause, int events, int connections) {
        assertTrue(out.contains("verdict: " + cause + ", "), capture + ": " + out);
        Row top = ranked(out).get(0);
        assertEquals(new Row(cause, top.percent(), top.ms(), events, connections), top, out);
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
        // its evidence beyond the handshakes (tshark: no RST; "TCP port numbers reused" on 2 SYNs)
        assertTrue(diagnose("lab-cause-churn.pcap.gz").contains("; 0 of them ended by RST, 2 SYNs reused a "
                + "4-tuple closed less than 60 s before (TIME_WAIT collisions)."));
        // every 2nd of 60 connections closed by the client with SO_LINGER 0 (tshark: 30 streams with a RST)
        String rst = diagnose("lab-cause-churn-rst.pcap.gz");
        Row reset = verdictWithFix("lab-cause-churn-rst.pcap.gz", rst, "CONNECTION_CHURN", 60, 60);
        assertTrue(reset.percent() > 80, reset.toString());
        assertTrue(rst.contains("- Connection churn: 60 connections carried one request each and paid a handshake "
                + "of " + String.format(java.util.Locale.ROOT, "%.3f", reset.ms()) + " ms for it; 30 of them ended "
                + "by RST, 0 SYNs reused"), rst);
    }

    @Test
    void theNewCausesAreFindingsOnlyOnTheLabsThatMadeThem() throws Exception {
        Map<String, String> made = Map.of("SERVER_PROCESSING", "lab-cause-server-slow.pcap.gz",
                "NETWORK_DELAY", "lab-cause-network-delay.pcap.gz", "QUEUEING_DELAY", "lab-cause-queueing.pcap.gz",
                "CONNECTION_CHURN", "lab-cause-churn.pcap.gz",
                "SLOW_START_AFTER_IDLE", "lab-cause-idle-restart.pcap.gz",
                "SMALL_INITIAL_WINDOW", "lab-cause-small-iw.pcap.gz");
        try (Stream<Path> files = Files.list(Path.of("sample-pcaps"))) {
            for (Path p : files.filter(f -> f.toString().endsWith(".pcap.gz")).sorted().toList()) {
                String name = p.getFileName().toString();
                List<Row> rows = ranked(diagnose(name));
                List<String> found = rows.stream().map(Row::cause).toList();
                // the window-limited, idle and slow-write labs' paths have a 40 ms RTT too: one round trip on the
                // window-limited lab's one 4.8 s download is listed, under the verdict threshold; on the others'
                // 200 KB responses it is a round trip in each
                boolean window = name.equals("lab-cause-window-limited.pcap.gz");
                // the 200 ms-class lab's one response took a 250 ms round trip to start
                boolean path40 = window || name.startsWith("lab-cause-idle-")
                        || name.equals("lab-cause-slow-write.pcap.gz") || name.equals("lab-cause-delack-200.pcap.gz");
                // the small initial window's lab opens a connection per request over a 40 ms path; one of its 10
                // responses started 44 ms late (the server's JVM on the loaded lab machine: 1.6%, listed)
                boolean smallIw = name.equals("lab-cause-small-iw.pcap.gz");
                // the client-side tail-loss lab lists 3 requests whose round trip to the server's ACK was longer
                // than the connection's base (87 ms in all, under 1 %; not examined further)
                boolean tail = name.equals("lab-cause-loss-client-tail.pcap.gz");
                List<String> alsoSet = smallIw ? List.of("NETWORK_DELAY", "CONNECTION_CHURN", "SERVER_PROCESSING")
                        : path40 ? List.of("NETWORK_DELAY") : tail ? List.of("QUEUEING_DELAY") : List.of();
                for (Row r : rows) {
                    if (tail && r.cause().equals("QUEUEING_DELAY")) {
                        assertTrue(r.percent() < 1, name + ": " + r);
                    }
                }
                for (Row r : rows) {
                    if (smallIw && r.cause().equals("SERVER_PROCESSING")) {
                        assertTrue(r.percent() < 2 && r.events() == 1, name + ": " + r);
                    }
                }
                for (Row r : rows) {
                    if (window && alsoSet.contains(r.cause())) {
                        assertTrue(r.percent() < 1, name + ": " + r);
                    }
                }
                // the churn lab's variant with RSTs is churn too
                String as = name.equals("lab-cause-churn-rst.pcap.gz") ? "lab-cause-churn.pcap.gz" : name;
                made.forEach((cause, lab) -> assertEquals(lab.equals(as) || alsoSet.contains(cause),
                        found.contains(cause), name + ": " + found));
            }
        }
    }

    @Test
    void aWindowRestartedAfterIdleIsTheVerdictOfTheIdleRestartLab() throws Exception {
        Row restart = verdict("lab-cause-idle-restart.pcap.gz", "SLOW_START_AFTER_IDLE", 5, 1);
        // 5 responses after 1.5 s idle periods, each 3 round trips of 40 ms beyond its first flight (tshark)
        assertTrue(restart.ms() > 5 * 3 * 40 && restart.ms() < 5 * 3 * 44, restart.toString());
        assertTrue(restart.percent() > 50, restart.toString());
        // the same traffic with the window kept over idle: each later response in one flight, far less time
        String kept = diagnose("lab-cause-idle-kept.pcap.gz");
        assertTrue(ranked(kept).stream().noneMatch(r -> r.cause().equals("SLOW_START_AFTER_IDLE")), kept);
        Matcher total = Pattern.compile("share of ([\\d.]+) ms response time").matcher(kept);
        assertTrue(total.find(), kept);
        assertTrue(Double.parseDouble(total.group(1)) < 0.5 * restart.ms() / restart.percent() * 100, kept);
    }

    @Test
    void aSmallInitialWindowIsTheVerdictOfTheSmallIwLab() throws Exception {
        String out = diagnose("lab-cause-small-iw.pcap.gz");
        Row small = verdict("lab-cause-small-iw.pcap.gz", "SMALL_INITIAL_WINDOW", 8, 8);
        // 8 first responses (the 2 others spoiled by a tail-loss probe), each 2 round trips of 40 ms beyond what an
        // initial window of 10 needs: 693.1 ms by tshark's gaps (the first two stops of each)
        assertTrue(small.ms() > 692 && small.ms() < 694, small.toString());
        assertTrue(ranked(out).stream().anyMatch(r -> r.cause().equals("CONNECTION_CHURN") && r.ms() < small.ms()),
                out);
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

    /**
     * The verdict says what it leaves unexplained: the causes' shares added up (one here: the long path's 5.84 %),
     * and the rest unattributed, so "NETWORK_DELAY, 5.84 %" is not read as the whole story.
     */
    @Test
    void theVerdictSaysHowMuchOfTheResponseTimeIsUnattributed() throws Exception {
        String out = diagnose("lab-cause-slow-write.pcap.gz");
        List<Row> rows = ranked(out);
        double explained = rows.stream().mapToDouble(Row::percent).sum();
        Matcher m = Pattern.compile("causes found explain ([0-9.]+)% of the response time; ([0-9.]+)% unattributed")
                .matcher(out);
        assertTrue(m.find(), out);
        assertEquals(explained, Double.parseDouble(m.group(1)), 0.011, out);
        assertEquals(100 - explained, Double.parseDouble(m.group(2)), 0.011, out);
        assertTrue(Double.parseDouble(m.group(2)) > 90, "the slow writes are no cause the engine names: " + out);
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
