package io.ackscope.vantage;

import io.ackscope.probe.NetTestSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code jobs/lab-two-points} run afresh (as root: namespaces, TAP devices, tcpdump), with other settings than the
 * bundled pair's: 3 ms each way, more drops, the server clock behind the client's. The truth comes from the run
 * itself ({@code truth.json}: the shift set, and what the forwarder dropped and applied per direction), so the
 * checks hold on a loaded machine too: the one-way delays are held against the delay the forwarder measured it
 * applied, not against the one asked for.
 */
@Tag("root")
@Tag("netns")
class LabTwoPointsTest {
    @TempDir
    static Path tmp;
    static Path lab;
    static String truth;

    @BeforeAll
    static void runTheLab() throws Exception {
        NetTestSupport.requireRoot();
        NetTestSupport.requireTool("/usr/bin/tcpdump", "tcpdump");
        lab = tmp.resolve("lab");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder("jobs/lab-two-points", "--out", lab.toString(), "-d", "3",
                "--delay-ms", "3", "--drop-ab", "10", "--drop-ba", "15", "--shift-us", "-2345678")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("lab.log").toFile());
        pb.environment().put("ACKSCOPE", Path.of(System.getProperty("java.home"), "bin", "java")
                + " -Xmx256m -XX:TieredStopAtLevel=1 -cp " + cp + " io.ackscope.cli.Main");
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            fail("lab-two-points did not end in 180 s: " + Files.readString(tmp.resolve("lab.log")));
        }
        String log = Files.readString(tmp.resolve("lab.log"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), log);
        truth = Files.readString(lab.resolve("truth.json"), StandardCharsets.UTF_8);
    }

    /** A number of truth.json: {@code "key":N}, or within a direction's object {@code "a>b": {... "key": N}}. */
    static double number(String direction, String key) {
        String scope = truth;
        if (direction != null) {
            int at = truth.indexOf("\"" + direction + "\"");
            scope = truth.substring(at, truth.indexOf('}', at));
        }
        Matcher m = Pattern.compile("\"" + key + "\":\\s*(-?[0-9.]+)").matcher(scope);
        assertTrue(m.find(), key + " in " + truth);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void thePairMatchesWhatTheLabDid() throws Exception {
        assertEquals(0, number(null, "client_dropped_by_kernel") + number(null, "server_dropped_by_kernel"), truth);
        VantagePair pair = PairAnalysis.analyze(PointReader.read("server", List.of(lab.resolve("server.pcap.gz"))),
                PointReader.read("client", List.of(lab.resolve("client.pcap.gz"))));
        SourcePair row = pair.summary();
        assertEquals("client", row.sourceA());
        assertEquals(4, row.connections());
        assertTrue(Math.abs(row.clockOffsetUs() - number(null, "shift_us")) <= 1_000, row + " " + truth);
        assertTrue(Math.abs(row.oneWayAtoBP50Us() - 1000 * number("a>b", "applied_p50_ms")) <= 500, row + truth);
        assertTrue(Math.abs(row.oneWayBtoAP50Us() - 1000 * number("b>a", "applied_p50_ms")) <= 500, row + truth);
        assertTrue(number("a>b", "dropped") > 0 && number("b>a", "dropped") > 0, truth);
        assertEquals((long) number("a>b", "dropped"), row.lostAtoB(), truth);
        assertEquals((long) number("b>a", "dropped"), row.lostBtoA(), truth);
        assertEquals(0, pair.onlyDownstream());
        HostTimes stalls = pair.ackDelays().marked();
        assertTrue(stalls.samples() > 20, "stalls " + stalls.samples());
        // the client's own delayed ACK, about 40 ms on Linux; the server sees it one round trip (2 x 3 ms) later
        assertTrue(stalls.atAP50Us() >= 30_000 && stalls.atAP50Us() <= 60_000, "at the client " + stalls.atAP50Us());
        assertTrue(stalls.atBP50Us() > stalls.atAP50Us(), "at the server " + stalls.atBP50Us());
    }
}
