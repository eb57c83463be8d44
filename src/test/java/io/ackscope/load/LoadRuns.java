package io.ackscope.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Short, bounded load runs for the tests (loopback targets only). */
final class LoadRuns {

    private LoadRuns() {
    }

    /** Closed loop, one thread, no per-request rows. */
    static LoadResult closedLoop(String url, int connections, long millis, boolean quickAck) throws Exception {
        return run(url, connections, 1, millis, 0, quickAck, Long.MAX_VALUE, false);
    }

    static LoadResult run(String url, int connections, int threads, long millis, double rate, boolean quickAck,
                          long maxRequests, boolean record) throws Exception {
        LoadConfig c = new LoadConfig(Target.parse(url), connections, threads, millis * 1_000_000L, 0,
                2_000_000_000L, rate, quickAck, true, maxRequests, record);
        return new LoadRun(c).execute();
    }

    /** p50 of the raw latency in milliseconds. */
    static double p50Millis(LoadResult r) {
        return r.latency().p50() / 1000.0;
    }

    /** A TCP port on 127.0.0.1 that was free a moment ago. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static String describe(LoadResult r) {
        return LoadReport.json(r, null);
    }
}
