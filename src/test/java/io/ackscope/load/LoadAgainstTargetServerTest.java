package io.ackscope.load;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static io.ackscope.load.LoadRuns.closedLoop;
import static io.ackscope.load.LoadRuns.describe;
import static io.ackscope.load.LoadRuns.p50Millis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code ackscope load} against {@code ackscope serve} on loopback: the write pattern decides whether the
 * delayed-ACK stall appears, and TCP_QUICKACK on the client removes it. Each run lasts about a second.
 */
class LoadAgainstTargetServerTest {

    private static TargetServer stalling;
    private static TargetServer noDelay;
    private static TargetServer nagleOneWrite;

    @BeforeAll
    static void startServers() throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        stalling = TargetServer.start(new TargetServer.Options(lo, 0, false, true, 4096, 0));
        noDelay = TargetServer.start(new TargetServer.Options(lo, 0, true, true, 4096, 0));
        nagleOneWrite = TargetServer.start(new TargetServer.Options(lo, 0, false, false, 4096, 0));
    }

    @AfterAll
    static void stopServers() throws InterruptedException {
        for (TargetServer s : new TargetServer[] {stalling, noDelay, nagleOneWrite}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static String url(TargetServer s) {
        return "http://127.0.0.1:" + s.port() + "/";
    }

    @Test
    void splitWritesWithNagleStallEachResponseByTheDelayedAck() throws Exception {
        LoadResult r = closedLoop(url(stalling), 2, 1500, false);
        double p50 = p50Millis(r);
        assertTrue(p50 >= 40 && p50 <= 50, "p50 " + p50 + " ms, expected the 40-50 ms delayed-ACK band: "
                + describe(r));
        assertTrue(r.requests() >= 20, describe(r));
        assertEquals(0, r.failedRequests(), describe(r));
    }

    @Test
    void splitWritesWithNoDelayDoNotStall() throws Exception {
        LoadResult r = closedLoop(url(noDelay), 2, 1000, false);
        assertTrue(p50Millis(r) < 5, describe(r));
        assertTrue(r.requests() > 1000, describe(r));
    }

    @Test
    void oneWritePerResponseDoesNotStallEvenWithNagle() throws Exception {
        LoadResult r = closedLoop(url(nagleOneWrite), 2, 1000, false);
        assertTrue(p50Millis(r) < 5, describe(r));
    }

    @Test
    void quickAckOnTheClientRemovesTheStall() throws Exception {
        LoadResult r = closedLoop(url(stalling), 2, 1000, true);
        assertTrue(p50Millis(r) < 5, describe(r));
        assertTrue(r.requests() > 1000, describe(r));
        assertEquals(0, r.failedRequests(), describe(r));
    }

    @Test
    void ipv6LoopbackIsATargetToo() throws Exception {
        InetAddress v6Loopback = InetAddress.getByName("::1");
        try (ServerSocket probe = new ServerSocket(0, 1, v6Loopback)) {
            probe.getLocalPort();
        } catch (IOException e) {
            assumeTrue(false, "this machine has no ::1 (IPv6 disabled): " + e.getMessage());
        }
        try (TargetServer v6 = TargetServer.start(new TargetServer.Options(InetAddress.getByName("::1"), 0, true,
                false, 100, 0))) {
            LoadResult r = closedLoop("http://[::1]:" + v6.port() + "/", 1, 300, false);
            assertTrue(r.requests() > 10, describe(r));
            long inFlightAtEnd = v6.requests() - r.requests();
            assertTrue(inFlightAtEnd == 0 || inFlightAtEnd == 1, "the server answered what the client counted, "
                    + "plus the request cut off by the end of the run: " + v6.requests() + " vs " + r.requests());
        }
    }

    @Test
    void largeBodiesAreWrittenInPartsAndReadAcrossManyReads() throws Exception {
        int body = 3 * 1024 * 1024; // well above a socket buffer: partial writes on the server, many reads here
        try (TargetServer big = TargetServer.start(new TargetServer.Options(InetAddress.getLoopbackAddress(), 0, true,
                true, body, 0))) {
            LoadResult r = closedLoop(url(big), 2, 500, false);
            assertTrue(r.requests() >= 4, describe(r));
            assertEquals(0, r.failedRequests(), describe(r));
            long perResponse = r.bytes() / r.requests();
            assertTrue(perResponse >= body && perResponse < body + 1000 + body / r.requests() * 2, describe(r));
        }
    }

    @Test
    void openLoopCorrectsForRequestsThatWaitedBehindTheStall() throws Exception {
        // 2 connections can do about 2 / 44 ms = 45 requests/s against the stall; 200/s are asked for, so requests
        // fall further and further behind their intended send times.
        LoadResult r = LoadRuns.run(url(stalling), 2, 1, 1500, 200, false, Long.MAX_VALUE, false);
        LatencySummary raw = r.latency();
        LatencySummary corrected = r.correctedLatency();
        assertTrue(raw.p50() >= 40_000 && raw.p50() <= 50_000, describe(r));
        assertTrue(corrected.p50() > 2 * raw.p50(), describe(r));
        assertTrue(corrected.max() > 500_000, "the last requests were due long before they went out: "
                + describe(r));
    }

    @Test
    void openLoopHoldsTheRateAgainstAFastServer() throws Exception {
        LoadResult r = LoadRuns.run(url(noDelay), 4, 2, 1500, 400, false, Long.MAX_VALUE, false);
        assertEquals(600, r.requests(), 30, describe(r));
        assertTrue(r.correctedLatency().p50() < 5_000, describe(r));
        assertTrue(r.correctedLatency().p50() >= r.latency().p50(), describe(r));
    }

    @Test
    void requestsDuringTheWarmUpAreSentButNotCounted() throws Exception {
        try (TargetServer own = TargetServer.start(new TargetServer.Options(InetAddress.getLoopbackAddress(), 0, true,
                false, 100, 0))) {
            long t0 = System.nanoTime();
            LoadConfig c = new LoadConfig(Target.parse(url(own)), 1, 1, 300_000_000L, 400_000_000L, 2_000_000_000L,
                    0, false, true, Long.MAX_VALUE, false);
            LoadResult r = new LoadRun(c).execute();
            long wall = System.nanoTime() - t0;
            assertTrue(wall >= 700_000_000L, "warm-up plus duration: " + wall);
            // the measured window starts when the 400 ms warm-up ends and lasts the 300 ms duration
            assertTrue(r.elapsedNanos() >= 300_000_000L, describe(r));
            assertTrue(r.elapsedNanos() + 400_000_000L <= wall, "warm-up not in the measured window: "
                    + describe(r) + ", wall " + wall);
            assertTrue(r.requests() > 10, describe(r));
            assertTrue(own.requests() >= r.requests() + 10, "the server also answered the warm-up: "
                    + own.requests() + " vs " + r.requests());
            assertEquals(r.requests(), r.latency().count(), describe(r));
        }
    }

    @Test
    void maxRequestsBoundsTheRunExactly() throws Exception {
        LoadResult r = LoadRuns.run(url(noDelay), 3, 2, 10_000, 0, false, 101, false);
        assertEquals(101, r.requests(), describe(r));
        assertTrue(r.elapsedNanos() < 5_000_000_000L, describe(r));
    }

    @Test
    void refusedConnectionsAreCountedNotThrown() throws Exception {
        int closed = LoadRuns.freePort();
        LoadResult r = closedLoop("http://127.0.0.1:" + closed + "/", 2, 500, false);
        assertEquals(0, r.requests());
        assertTrue(r.errors(LoadError.CONNECT) >= 2, describe(r));
        assertTrue(r.errors(LoadError.CONNECT) <= 2 * 6, "connect retries back off: " + describe(r));
    }

    @Test
    void slowResponsesAreCountedAsTimeouts() throws Exception {
        try (TargetServer slow = TargetServer.start(new TargetServer.Options(InetAddress.getLoopbackAddress(), 0,
                true, false, 10, 300_000_000L))) {
            LoadConfig c = new LoadConfig(Target.parse(url(slow)), 1, 1, 700_000_000L, 0, 100_000_000L, 0, false,
                    true, Long.MAX_VALUE, false);
            LoadResult r = new LoadRun(c).execute();
            assertEquals(0, r.requests(), describe(r));
            assertTrue(r.errors(LoadError.TIMEOUT) >= 3, describe(r));
            assertEquals(r.errors(LoadError.TIMEOUT), r.failedRequests(), describe(r));
        }
    }

    @Test
    void malformedResponsesAreCountedAsParseErrors() throws Exception {
        try (ServerSocket garbage = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> answerWithGarbage(garbage), "garbage-server");
            t.setDaemon(true);
            t.start();
            LoadResult r = closedLoop("http://127.0.0.1:" + garbage.getLocalPort() + "/", 1, 400, false);
            assertEquals(0, r.requests(), describe(r));
            assertTrue(r.errors(LoadError.PARSE) >= 1, describe(r));
            assertEquals(r.errors(LoadError.PARSE), r.failedRequests(), describe(r));
        }
    }

    /** Answers every connection's first request with something that is not HTTP, then closes it. */
    private static void answerWithGarbage(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                byte[] buf = new byte[1024];
                if (in.read(buf) > 0) {
                    OutputStream out = s.getOutputStream();
                    out.write("SSH-2.0-OpenSSH_9.2\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    Thread.sleep(50);
                }
            } catch (IOException | InterruptedException e) {
                return; // the test closed the listener
            }
        }
    }
}
