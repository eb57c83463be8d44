package io.ackscope.load;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.ackscope.load.LoadRuns.closedLoop;
import static io.ackscope.load.LoadRuns.describe;
import static io.ackscope.load.LoadRuns.p50Millis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same stall with a real nginx from the distribution serving a 4 KB static file: {@code tcp_nodelay off} with
 * {@code sendfile on} and {@code tcp_nopush off} writes the headers, then sendfile()s the body, and Nagle holds the
 * body until the client's delayed ACK; {@code tcp_nodelay on} does not. (Debian's stock nginx.conf has
 * {@code tcp_nopush on}, which corks headers and body into one segment and hides the stall.) Fails, rather than
 * skips, without /usr/sbin/nginx.
 */
@Tag("nginx")
class LoadAgainstNginxTest {

    @TempDir
    static Path dir;

    private static NginxInstance stalling;
    private static NginxInstance noDelay;

    @BeforeAll
    static void startNginx() throws Exception {
        stalling = new NginxInstance(Files.createDirectory(dir.resolve("nodelay-off")),
                "sendfile on; tcp_nopush off; tcp_nodelay off;", 4096);
        noDelay = new NginxInstance(Files.createDirectory(dir.resolve("nodelay-on")),
                "sendfile on; tcp_nopush off; tcp_nodelay on;", 4096);
    }

    @AfterAll
    static void stopNginx() throws InterruptedException {
        if (stalling != null) {
            stalling.close();
        }
        if (noDelay != null) {
            noDelay.close();
        }
    }

    @Test
    void nodelayOffWithSendfileStallsEachResponseByTheDelayedAck() throws Exception {
        LoadResult r = closedLoop(stalling.url("/index.html"), 2, 1500, false);
        double p50 = p50Millis(r);
        assertTrue(p50 >= 40 && p50 <= 50, "p50 " + p50 + " ms, expected the 40-50 ms band: " + describe(r));
        assertEquals(0, r.statusErrors(), describe(r));
        assertEquals(0, r.failedRequests(), describe(r));
    }

    @Test
    void nodelayOnDoesNotStall() throws Exception {
        LoadResult r = closedLoop(noDelay.url("/index.html"), 2, 1000, false);
        assertTrue(p50Millis(r) < 5, describe(r));
        assertTrue(r.requests() > 1000, describe(r));
    }

    @Test
    void quickAckOnTheClientRemovesTheStall() throws Exception {
        LoadResult r = closedLoop(stalling.url("/index.html"), 2, 1000, true);
        assertTrue(p50Millis(r) < 5, describe(r));
        assertTrue(r.requests() > 1000, describe(r));
    }

    @Test
    void notFoundResponsesAreCountedAsStatusErrors() throws Exception {
        LoadResult r = closedLoop(noDelay.url("/missing.html"), 1, 300, false);
        assertTrue(r.requests() > 10, describe(r));
        assertEquals(r.requests(), r.statusErrors(), describe(r));
        assertEquals(0, r.failedRequests(), describe(r));
    }

    @Test
    void connectionsClosedByTheServerAreReopenedWithoutErrors() throws Exception {
        // /short/ has keepalive_requests 3: nginx answers the third request with "Connection: close".
        LoadResult r = closedLoop(noDelay.url("/short/index.html"), 2, 300, false);
        assertTrue(r.requests() > 30, describe(r));
        assertEquals(0, r.failedRequests(), describe(r));
        assertEquals(0, r.errors(LoadError.READ), describe(r));
        long expectedConnections = 2 + r.requests() / 3;
        assertTrue(Math.abs(r.connectionsOpened() - expectedConnections) <= 2, "about one connection per 3 "
                + "requests: " + describe(r));
    }
}
