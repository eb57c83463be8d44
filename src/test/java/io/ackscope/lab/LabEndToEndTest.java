package io.ackscope.lab;

import io.ackscope.probe.Libpcap;
import io.ackscope.probe.NetTestSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The lab's whole chain once, shortened to about 1.5 s of load per configuration: real servers (ackscope serve and
 * Debian's nginx), real captures on lo, real load runs, then the analysis of the captures the lab kept. The
 * assertions are about agreement along the chain: the load's latency, the stalls the analysis finds in the capture,
 * and the counts on both sides. (The load-side figures alone are the load package's tests.)
 */
@Tag("root")
@Tag("nginx")
class LabEndToEndTest {

    private static final long DURATION_NANOS = 1_500_000_000L;
    private static final int CONNECTIONS = 4;

    @TempDir
    static Path tmp;
    private static Path out;
    private static Lab.Result result;
    private static String progress;

    @BeforeAll
    static void runTheLab() throws Exception {
        NetTestSupport.requireRoot();
        if (!Nginx.installed()) {
            fail(Nginx.BINARY + " is missing: install Debian's nginx-light (CI does) to run the lab test");
        }
        String why = Libpcap.unavailableReason();
        if (why != null) {
            fail("ackscope capture cannot run: " + why + " (install Debian's libpcap0.8; CI does)");
        }
        out = Files.createDirectories(tmp.resolve("captures"));
        // ackscope as the lab runs it: this JVM, this test's class path, the JVM's default heap (Spark needs more than
        // NetTestSupport's 256 MB)
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> ackscope = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                "io.ackscope.cli.Main");
        Lab.Options o = new Lab.Options(ackscope, out, tmp.resolve("analysis"), DURATION_NANOS, CONNECTIONS, 1024, 160, 20_000, Lab.NginxMode.REQUIRE, 0, List.of(), true,
                "ackscope lab (LabEndToEndTest)");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(log, true, StandardCharsets.UTF_8); Lab lab = new Lab(o, ps)) {
            result = lab.run();
        } finally {
            progress = log.toString(StandardCharsets.UTF_8);
        }
    }

    private static Lab.Run run(Setup.Server server, boolean noDelay, boolean quickAck) {
        for (Lab.Run r : result.runs()) {
            Setup s = r.setup();
            if (s.server() == server && s.serverNoDelay() == noDelay && s.quickAck() == quickAck) {
                return r;
            }
        }
        throw new AssertionError("no run of " + server + " nodelay=" + noDelay + " quickack=" + quickAck
                + " in:\n" + progress);
    }

    private static String describe(Lab.Run r) {
        return r.setup().name() + ": " + r.loadFigures() + "; " + r.analysis() + "; " + r.captureFigures();
    }

    @ParameterizedTest
    @EnumSource(Setup.Server.class)
    void nagleAndSplitWritesStallInTheLoadAndInTheCapture(Setup.Server server) {
        Lab.Run r = run(server, false, false);
        double p50 = r.loadFigures().p50Millis();
        assertTrue(p50 >= 40 && p50 <= 50, "load p50 " + p50 + " ms is outside the 40-50 ms band: " + describe(r));
        assertEquals(0, r.loadFigures().errors(), describe(r));
        StallFigures a = r.analysis();
        assertEquals(CONNECTIONS, a.connections(), describe(r));
        assertTrue(a.laterExchanges() >= 3L * CONNECTIONS, "too few requests to judge: " + describe(r));
        assertTrue(a.laterStalledShare() > 0.95, "stalls on only " + a.laterStalled() + " of " + a.laterExchanges()
                + " requests after the first on a connection: " + describe(r));
        assertEquals(a.stalls(), a.serverHeldStalls(), "the server's body waits, not the client's request: "
                + describe(r));
        // the client's delayed-ACK timer ends nearly all of them; the others end when the load closes its
        // connections at the end of the run with a response held, or late when the client is starved of CPU
        assertTrue(a.timerStallShare() > 0.9, describe(r));
        // Linux's delayed-ACK timer (40 ms minimum, plus up to a tick) ends the stalls: the same wait the load measured
        assertTrue(a.stallAckDelayP50() >= 40_000 && a.stallAckDelayP50() <= 50_000, describe(r));
        assertTrue(Math.abs(a.stallAckDelayP50() - r.loadFigures().p50Micros()) < 5_000,
                "the load's median should be the stall plus well under 5 ms: " + describe(r));
        assertEquals(Lab.Verdict.STALL, r.verdict(), describe(r));
    }

    @ParameterizedTest
    @EnumSource(Setup.Server.class)
    void serverSideNodelayRemovesTheStall(Setup.Server server) {
        Lab.Run r = run(server, true, false);
        assertFast(r);
        assertEquals(0, r.analysis().stalls(), "with TCP_NODELAY nothing is held at all: " + describe(r));
    }

    @ParameterizedTest
    @EnumSource(Setup.Server.class)
    void clientSideQuickAckAgainstTheNagleServerRemovesTheStall(Setup.Server server) {
        Lab.Run bad = run(server, false, false);
        Lab.Run fixed = run(server, false, true);
        assertFast(fixed);
        // Nagle still holds each body until the header's ACK: quick ACKs make that wait short, but when the
        // client is slow to run (this machine is shared) the ACK can leave only when it reads, 5 ms or more later
        StallFigures a = fixed.analysis();
        assertTrue(a.laterStalled() < 0.02 * a.laterExchanges(), describe(fixed));
        assertTrue(fixed.loadFigures().p50Micros() * 20 < bad.loadFigures().p50Micros(),
                "quick ACKs should cut the median by far more than 20x: " + describe(bad) + " vs " + describe(fixed));
    }

    private static void assertFast(Lab.Run r) {
        assertTrue(r.loadFigures().p50Millis() < 5, "load p50 should be under 5 ms: " + describe(r));
        assertEquals(0, r.loadFigures().errors(), describe(r));
        StallFigures a = r.analysis();
        assertTrue(a.laterExchanges() > 1_000, "the capture should hold thousands of fast requests: " + describe(r));
        // a client starved of CPU for 40 ms can meet its delayed-ACK timer now and then on a busy machine
        assertTrue(a.timerStallShare() < Lab.RARE_SHARE, "the delayed-ACK stall should be gone: " + describe(r));
        assertTrue(a.clientAckDelayP99() >= 0 && a.clientAckDelayP99() < 40_000,
                "no delayed-ACK timer among the client's ACKs: " + describe(r));
        assertEquals(Lab.Verdict.NO_STALL, r.verdict(), describe(r));
    }

    @Test
    void analysisFindsStallsOnTheBadRunsOnly() {
        assertEquals(6, result.runs().size(), progress);
        for (Lab.Run r : result.runs()) {
            double share = r.analysis().timerStallShare();
            assertTrue(r.setup().expectsStall() ? share > 0.9 : share < Lab.RARE_SHARE, describe(r));
        }
    }

    @Test
    void captureHoldsTheRequestsTheLoadCountedOnStalledRuns() {
        for (Lab.Run r : result.runs()) {
            if (r.setup().expectsStall()) {
                // the capture (not cut by the packet limit at ~90 requests/s) has every measured request, plus at
                // most one per connection still in flight when the load stopped
                long measured = r.loadFigures().requests();
                long exchanges = r.analysis().exchanges();
                assertTrue(r.captureFigures().captured() < 20_000, describe(r));
                assertTrue(exchanges >= measured && exchanges <= measured + CONNECTIONS,
                        exchanges + " exchanges in the capture for " + measured + " measured requests: "
                                + describe(r));
            }
        }
    }

    @Test
    void keepsSmallCapturesAndSaysHowEachWasMade() throws IOException {
        String readme = Files.readString(out.resolve("README.md"));
        assertTrue(readme.contains(LabReadme.BEGIN) && readme.contains(LabReadme.END), readme);
        for (Lab.Run r : result.runs()) {
            Path gz = out.resolve(r.setup().captureFile());
            assertEquals(gz, r.captureFile());
            assertTrue(Files.size(gz) > 1_000 && Files.size(gz) < 5_000_000, gz + ": " + Files.size(gz) + " bytes");
            assertEquals(0, r.captureFigures().droppedByKernel(), describe(r));
            assertTrue(readme.contains("`" + r.setup().captureFile() + "`"), readme);
            assertTrue(readme.contains(Lab.text(r.load())), readme);
            assertTrue(readme.contains(Lab.text(r.capture())), readme);
        }
        assertTrue(readme.contains("```nginx\n") && readme.contains("tcp_nodelay off; sendfile on; tcp_nopush off;"),
                readme);
        assertFalse(readme.contains("/tmp/ackscope-lab."), "the temporary directory is named $WORK: " + readme);
    }

    @Test
    void analyzeWritesTheReportOfAllTheCaptures() throws IOException {
        assertEquals(tmp.resolve("analysis").resolve("report.html"), result.report(), progress);
        String html = Files.readString(result.report());
        for (Lab.Run r : result.runs()) {
            assertTrue(html.contains(r.endpoint()), "no " + r.endpoint() + " in the report");
        }
        assertTrue(result.analysis().contains("ackscope analyze"), result.analysis());
    }

    @Test
    void tableShowsEveryConfigurationWithItsVerdict() {
        String table = LabTable.text(result);
        for (Lab.Run r : result.runs()) {
            String line = table.lines().filter(l -> l.startsWith(r.setup().label() + "  ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no row for " + r.setup().label() + ":\n" + table));
            assertTrue(line.endsWith(r.setup().expectsStall() ? "STALL" : "no stall"), line);
        }
    }
}
