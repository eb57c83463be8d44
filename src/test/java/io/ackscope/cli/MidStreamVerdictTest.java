package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.spark.Analyze;
import io.ackscope.spark.SparkTests;
import io.ackscope.tcp.MidStreamCut;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Captures as production makes them, with every connection already open when the capture started: the bundled lab
 * captures that have a verdict, cut at each connection's first data, after its first request and at its first
 * response ({@link MidStreamCut}), give {@code diagnose} and the {@code findings} table the same server endpoints
 * and the same verdict as the whole capture.
 *
 * <p>Left out, with the reason: the causes whose evidence is the handshake or the connection's one response, which
 * the cuts remove (CONNECTION_CHURN: every connection carries one request, and its cost is its handshake;
 * SYN_RETRANSMISSION; SMALL_INITIAL_WINDOW and the one-response labs delack-200 and window-limited: their only
 * response is before the later cuts). Their server endpoints are still checked on every cut.
 */
class MidStreamVerdictTest {
    /** Captures whose verdict does not depend on the handshake or the first response. */
    static final List<String> SURVIVING = List.of("nginx-nodelay-off.pcap.gz", "lab-cause-client-nagle.pcap.gz",
            "lab-cause-idle-kept.pcap.gz", "lab-cause-idle-nagle.pcap.gz", "lab-cause-idle-restart.pcap.gz",
            "lab-cause-loss.pcap.gz", "lab-cause-loss-client.pcap.gz", "lab-cause-loss-client-tail.pcap.gz",
            "lab-cause-midstream.pcap.gz", "lab-cause-network-delay.pcap.gz", "lab-cause-queueing.pcap.gz",
            "lab-cause-server-slow.pcap.gz", "lab-cause-slow-write.pcap.gz", "lab-cause-zero-window.pcap.gz");
    /** Captures whose verdict is in the handshake or the connections' first (only) response. */
    static final List<String> HANDSHAKE_BOUND = List.of("lab-cause-churn.pcap.gz", "lab-cause-churn-rst.pcap.gz",
            "lab-cause-syn-drop.pcap.gz", "lab-cause-small-iw.pcap.gz", "lab-cause-delack-200.pcap.gz",
            "lab-cause-window-limited.pcap.gz");

    private static final Pattern SERVER = Pattern.compile("(?m)^Server (\\S+): ");
    private static final Pattern VERDICT = Pattern.compile("(?m)^  verdict: (no cause found|[A-Z_]+)");

    @TempDir
    static Path tmp;

    /** Whole capture and its cuts, each in a directory of its own (one capture source each for analyze). */
    static final Map<String, Path> inputs = new TreeMap<>();

    @BeforeAll
    static void cut() throws Exception {
        List<String> all = new ArrayList<>(SURVIVING);
        all.addAll(HANDSHAKE_BOUND);
        for (String name : all) {
            String base = name.replace(".pcap.gz", "");
            Path whole = tmp.resolve("in").resolve(base + "~whole");
            Files.createDirectories(whole);
            Files.copy(Path.of("sample-pcaps", name), whole.resolve(name));
            inputs.put(base + "~whole", whole.resolve(name));
            for (MidStreamCut.Point p : MidStreamCut.Point.values()) {
                Path dir = tmp.resolve("in").resolve(base + "~" + p);
                Files.createDirectories(dir);
                Path out = dir.resolve(base + ".pcap");
                MidStreamCut.Result r = MidStreamCut.cut(Path.of("sample-pcaps", name), out, p);
                assertTrue(r.connections() > 0 && r.kept() < r.frames(), name + " " + p + ": " + r);
                inputs.put(base + "~" + p, out);
            }
        }
    }

    /** Server endpoint -> verdict, as diagnose prints them. */
    private static Map<String, String> diagnose(Path capture) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand c = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        c.files = List.of(capture.toString());
        assertEquals(0, c.run());
        String out = buf.toString(StandardCharsets.UTF_8);
        Map<String, String> m = new TreeMap<>();
        String[] blocks = out.split("(?m)^(?=Server )");
        for (String b : blocks) {
            Matcher s = SERVER.matcher(b);
            Matcher v = VERDICT.matcher(b);
            if (s.find()) {
                assertTrue(v.find(), b);
                m.put(s.group(1), v.group(1));
            }
        }
        return m;
    }

    @Test
    void diagnoseGivesTheWholeCapturesServersAndVerdictsOnEveryCut() throws Exception {
        List<String> report = new ArrayList<>();
        for (String name : SURVIVING) {
            String base = name.replace(".pcap.gz", "");
            Map<String, String> whole = diagnose(inputs.get(base + "~whole"));
            assertTrue(!whole.isEmpty() && whole.values().stream().noneMatch("no cause found"::equals),
                    base + " has a verdict: " + whole);
            for (MidStreamCut.Point p : MidStreamCut.Point.values()) {
                Map<String, String> cut = diagnose(inputs.get(base + "~" + p));
                assertEquals(whole, cut, base + " cut " + p);
                report.add(base + " " + p + " " + cut);
            }
        }
        System.out.println(String.join("\n", report));
    }

    @Test
    void handshakeBoundCapturesKeepTheirServersOnEveryCut() throws Exception {
        for (String name : HANDSHAKE_BOUND) {
            String base = name.replace(".pcap.gz", "");
            Map<String, String> whole = diagnose(inputs.get(base + "~whole"));
            for (MidStreamCut.Point p : MidStreamCut.Point.values()) {
                assertEquals(whole.keySet(), diagnose(inputs.get(base + "~" + p)).keySet(), base + " cut " + p);
            }
        }
        // where the evidence survives the cut (the first response after the handshake), so does the verdict
        for (String base : List.of("lab-cause-small-iw", "lab-cause-delack-200")) {
            assertEquals(diagnose(inputs.get(base + "~whole")), diagnose(inputs.get(base + "~AFTER_HANDSHAKE")), base);
        }
    }

    @Test
    void findingsGiveTheWholeCapturesServersAndVerdictsOnEveryCut() throws Exception {
        SparkSession spark = SparkTests.session("MidStreamVerdictTest");
        try {
            Path out = tmp.resolve("out");
            Analyze.run(spark, new Analyze.Options(List.of(tmp.resolve("in").toString()), out.toString(), false,
                    false, 2), new PrintStream(OutputStream.nullOutputStream()), false);
            // source -> server -> the cause of the largest share, if it is at least 1 %
            Map<String, Map<String, String>> verdicts = new TreeMap<>();
            for (Row r : spark.read().parquet(out.resolve("findings").toString()).collectAsList()) {
                String source = r.getAs("source");
                String server = r.getAs("server_ip") + ":" + r.getAs("server_port");
                double share = r.getAs("share");
                Map<String, String> bySource = verdicts.computeIfAbsent(source, k -> new TreeMap<>());
                String key = server + "#share";
                String best = bySource.get(key);
                if (best == null || Double.parseDouble(best) < share) {
                    bySource.put(key, Double.toString(share));
                    bySource.put(server, share >= 0.01 ? r.getAs("cause") : "no cause found");
                }
            }
            verdicts.values().forEach(m -> m.keySet().removeIf(k -> k.endsWith("#share")));
            for (String name : SURVIVING) {
                String base = name.replace(".pcap.gz", "");
                Map<String, String> whole = verdicts.get(base + "~whole");
                assertTrue(whole != null && !whole.isEmpty(), base + ": " + verdicts.keySet());
                assertEquals(diagnose(inputs.get(base + "~whole")), whole, base + ": findings against diagnose");
                for (MidStreamCut.Point p : MidStreamCut.Point.values()) {
                    assertEquals(whole, verdicts.get(base + "~" + p), base + " cut " + p);
                }
            }
            // a cut that leaves no cause has no findings rows; those it has are at the whole capture's servers
            // (a client socket never shows as a server)
            for (String name : HANDSHAKE_BOUND) {
                String base = name.replace(".pcap.gz", "");
                for (MidStreamCut.Point p : MidStreamCut.Point.values()) {
                    assertTrue(verdicts.get(base + "~whole").keySet().containsAll(
                            verdicts.getOrDefault(base + "~" + p, Map.of()).keySet()), base + " cut " + p);
                }
            }
        } finally {
            spark.stop();
        }
    }
}
