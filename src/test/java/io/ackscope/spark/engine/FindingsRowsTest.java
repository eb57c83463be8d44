package io.ackscope.spark.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.capture.CaptureReader;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.CaptureFeeder;
import io.ackscope.tcp.CauseEvent;
import io.ackscope.tcp.ConnectionCauses;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.Stall;
import io.ackscope.tcp.TcpEngine;
import io.ackscope.tables.EngineTables;
import java.nio.file.Path;
import java.util.ArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code findings} rows of the lab captures, made as the engine tasks make them (the engine's events into a
 * {@link EndpointAggregate}, its rows by {@link EndpointRows}), without a Spark session: the cause each lab made is the costliest row of its
 * endpoint with the magnitudes the lab set, and merging two tasks' aggregates keeps both.
 */
class FindingsRowsTest {

    private static EndpointAggregate aggregate(String capture, String source) throws Exception {
        return aggregate(capture, source, new ArrayList<>());
    }

    /**
     * As {@link #aggregate(String, String)}; {@code connectionCauses} gets the rows of connection_causes, made as
     * the engine tasks make them ({@link EngineRows#connectionCauses}).
     */
    private static EndpointAggregate aggregate(String capture, String source, List<Object[]> connectionCauses)
            throws Exception {
        EndpointAggregate a = new EndpointAggregate();
        RowBuffer row = new RowBuffer(EngineTables.CONNECTION_CAUSES);
        TcpEngine engine = new TcpEngine(new AnalysisSink() {
            @Override
            public void onCause(CauseEvent e) {
                a.cause(e);
            }

            @Override
            public void onStall(Stall s) {
                a.stall(s);
            }

            @Override
            public void onExchange(Exchange x) {
                a.exchange(x);
            }

            @Override
            public void onConnection(ConnectionRecord c) {
                ConnectionCauses o = a.connection(c, null, source);
                if (o != null) {
                    EngineRows.connectionCauses(row, o, c.id(), c.id().stream(), source, c.id().uid(source),
                            () -> connectionCauses.add(row.toObjects()));
                }
            }
        });
        try (CaptureReader reader = CaptureReader.open(Path.of("sample-pcaps", capture))) {
            new CaptureFeeder().feed(reader, 0, engine);
        }
        engine.finish();
        return a;
    }

    /** source, server_ip, server_port, cause, connections, requests, events, count, time_lost_us, share, frames. */
    private static List<Object[]> rows(EndpointAggregate a) {
        return EndpointRows.findings(a).stream().map(RowBuffer::toObjects).toList();
    }

    @Test
    void droppedSynsAreOneRowWithTheRetryTimersAsTheirCost() throws Exception {
        List<Object[]> rows = rows(aggregate("lab-cause-syn-drop.pcap.gz", "lab"));
        assertEquals(1, rows.size());
        Object[] r = rows.get(0);
        assertEquals(List.of("lab", "10.218.0.2", 8080, "SYN_RETRANSMISSION", 2L, 2L, 2L, 4L),
                List.of(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]));
        long lost = (Long) r[8];
        assertTrue(lost > 4_000_000 && lost < 4_100_000, "two connects of ~2.02 s: " + lost);
        double share = (Double) r[9];
        assertTrue(share > 0.3 && share < 0.5, "share " + share);
        // both connections' first and last SYN, the costlier connection's first
        assertEquals(List.of(1L, 2L, 5L, 6L), toList(r[10]).stream().sorted().toList());
    }

    @Test
    void churnIsOneRowAndTheFewSlowAnswersAreNoFinding() throws Exception {
        // the engine also found 3 of the 100 responses slow in the server: under 10% of the requests, no row
        List<Object[]> rows = rows(aggregate("lab-cause-churn.pcap.gz", "lab"));
        assertEquals(1, rows.size());
        Object[] r = rows.get(0);
        assertEquals(List.of("CONNECTION_CHURN", 100L, 100L, 100L, 2L), List.of(r[3], r[4], r[5], r[6], r[7]));
        // the handshakes are outside the response times, so the denominator holds them too: under 1
        double share = (Double) r[9];
        assertTrue(share > 0.8 && share < 0.9, "share " + share);
    }

    @Test
    void aLongPathSeenFromTheServerCountsItsClientLegInTheDenominator() throws Exception {
        List<Object[]> rows = rows(aggregate("lab-cause-network-delay.pcap.gz", "lab"));
        assertEquals(1, rows.size());
        Object[] r = rows.get(0);
        assertEquals(List.of("NETWORK_DELAY", 2L, 96L, 96L), List.of(r[3], r[4], r[5], r[6]));
        double share = (Double) r[9];
        assertTrue(share > 0.95 && share < 1, "the server's 0.7 ms answers are the rest: " + share);
    }

    @Test
    void responsesAfterIdleAreOneRowWithTheirRoundTrips() throws Exception {
        // 5 responses after 1.5 s idle periods, each 3 round trips of ~41 ms beyond its first flight; the 40 ms
        // path's round trip per request is the second row
        List<Object[]> rows = rows(aggregate("lab-cause-idle-restart.pcap.gz", "lab"));
        assertEquals(List.of("SLOW_START_AFTER_IDLE", "NETWORK_DELAY"), rows.stream().map(r -> r[3]).toList());
        Object[] r = rows.get(0);
        assertEquals(List.of(1L, 5L, 5L, 15L), List.of(r[4], r[5], r[6], r[7]));
        long lost = (Long) r[8];
        assertTrue(lost > 15 * 40_000 && lost < 15 * 44_000, "15 round trips: " + lost);
        double share = (Double) r[9];
        assertTrue(share > 0.5 && share < 0.75, "share " + share);
        // each stop's last segment, the client's ACK and the resumption 0.1 ms after it (tshark: 252, 253, 254)
        assertTrue(toList(r[10]).containsAll(List.of(252L, 253L, 254L)), r[10].toString());
    }

    @Test
    void lossRowsAreTheRecoveriesCostliestFirst() throws Exception {
        List<Object[]> rows = rows(aggregate("lab-cause-loss.pcap.gz", "lab"));
        assertEquals(List.of("RTO", "TAIL_LOSS_PROBE", "FAST_RETRANSMIT"), rows.stream().map(r -> r[3]).toList());
        assertEquals(List.of(8L, 8L, 6L), rows.stream().map(r -> r[6]).toList());
        double shares = 0;
        for (Object[] r : rows) {
            assertTrue((Long) r[5] >= 1, "a recovery affects a request: " + r[3]);
            shares += (Double) r[9];
        }
        assertTrue(shares <= 1.0 + 1e-9, "shares " + shares);
    }

    @Test
    void theNagleStallRowCountsTheStalledRequestsAndMergingKeepsBothTasks() throws Exception {
        EndpointAggregate nagle = aggregate("lab-nginx-nodelay-off.pcap.gz", "off");
        List<Object[]> rows = rows(nagle);
        Object[] first = rows.get(0);
        assertEquals("NAGLE_SERVER_HELD", first[3]);
        assertEquals(266L, first[6], "stalls");
        assertEquals(266L, first[5], "each stall holds one request");
        assertTrue((Double) first[9] > 0.9, "share " + first[9]);
        nagle.merge(aggregate("lab-cause-syn-drop.pcap.gz", "syn"));
        List<Object[]> merged = rows(nagle);
        assertEquals(rows.size() + 1, merged.size());
        assertEquals("syn", merged.get(merged.size() - 1)[0]);
    }

    @Test
    void theWindowLimitedDownloadIsOneRowOfTheServerWithItsWaits() throws Exception {
        List<Object[]> rows = rows(aggregate("lab-cause-window-limited.pcap.gz", "lab"));
        Object[] r = rows.get(0);
        assertEquals(List.of("lab", "10.218.0.2", 8080, "RECEIVER_WINDOW_LIMITED", 1L, 1L, 1L),
                List.of(r[0], r[1], r[2], r[3], r[4], r[5], r[6]));
        long lost = (Long) r[8];
        assertTrue(lost > 3_550_000 && lost < 4_350_000, "~3.95 s of window waits: " + lost);
        assertTrue((Double) r[9] > 0.75, "share " + r[9]);
        assertEquals(List.of(36L, 37L, 38L), toList(r[10]).subList(0, 3));
    }

    @Test
    void theClientNagleRowCountsTheHeldRequests() throws Exception {
        List<Object[]> rows = rows(aggregate("lab-cause-client-nagle.pcap.gz", "lab"));
        assertEquals(1, rows.size(), "nothing else on this capture");
        Object[] r = rows.get(0);
        assertEquals("NAGLE_CLIENT_HELD", r[3]);
        assertEquals(49L, r[6], "every request but the first (quick-ACK mode) held");
        assertEquals(49L, r[5], "each stall holds one request");
        double perStallMs = (Long) r[8] / 1000.0 / 49;
        assertTrue(perStallMs > 50 && perStallMs < 65, "40 ms delayed ACK + 10 ms RTT: " + perStallMs);
        assertTrue((Double) r[9] > 0.7, "share " + r[9]);
    }

    /**
     * Every lab: the connection_causes rows of an endpoint's connections add up to its findings rows (connections,
     * requests, events, count, time lost), and each lab's own cause is the costliest row of some connection.
     */
    @ParameterizedTest
    @CsvSource({"lab-cause-churn.pcap.gz, CONNECTION_CHURN", "lab-cause-churn-rst.pcap.gz, CONNECTION_CHURN",
            "lab-cause-client-nagle.pcap.gz, NAGLE_CLIENT_HELD", "lab-cause-delack-200.pcap.gz, NAGLE_SERVER_HELD",
            "lab-cause-idle-restart.pcap.gz, SLOW_START_AFTER_IDLE", "lab-cause-loss.pcap.gz, RTO",
            "lab-cause-network-delay.pcap.gz, NETWORK_DELAY", "lab-cause-queueing.pcap.gz, QUEUEING_DELAY",
            "lab-cause-server-slow.pcap.gz, SERVER_PROCESSING", "lab-cause-small-iw.pcap.gz, SMALL_INITIAL_WINDOW",
            "lab-cause-syn-drop.pcap.gz, SYN_RETRANSMISSION",
            "lab-cause-window-limited.pcap.gz, RECEIVER_WINDOW_LIMITED", "lab-cause-zero-window.pcap.gz, ZERO_WINDOW",
            "lab-cause-slow-write.pcap.gz, NETWORK_DELAY", "lab-cause-idle-kept.pcap.gz, NETWORK_DELAY"})
    void connectionCausesAddUpToTheFindingsOfTheirEndpoint(String capture, String cause) throws Exception {
        List<Object[]> perConnection = new ArrayList<>();
        List<Object[]> findings = rows(aggregate(capture, "lab", perConnection));
        assertTrue(!findings.isEmpty(), capture);
        int cCause = EngineTables.CONNECTION_CAUSES.ordinal("cause");
        int cServer = EngineTables.CONNECTION_CAUSES.ordinal("server_ip");
        for (Object[] f : findings) {
            long[] sum = new long[5];
            for (Object[] c : perConnection) {
                if (c[cCause].equals(f[3]) && c[cServer].equals(f[1]) && c[cServer + 1].equals(f[2])) {
                    sum[0]++;
                    sum[1] += (Long) c[4];
                    sum[2] += (Long) c[2];
                    sum[3] += (Long) c[3];
                    sum[4] += (Long) c[5];
                }
            }
            assertEquals(List.of(f[4], f[5], f[6], f[7], f[8]), java.util.Arrays.stream(sum).boxed().toList(),
                    capture + " " + f[3]);
        }
        assertTrue(perConnection.stream().anyMatch(c -> c[cCause].equals(cause)), capture + ": " + cause);
        // an endpoint's rows' explained share is their time lost over its response time
        for (Object[] f : findings) {
            long lost = findings.stream().filter(g -> g[1].equals(f[1]) && g[2].equals(f[2]))
                    .mapToLong(g -> (Long) g[8]).sum();
            assertEquals(Math.min(1.0, (double) lost / (Long) f[11]), (Double) f[12], 1e-12, capture);
        }
        for (Object[] c : perConnection) {
            assertTrue((Long) c[5] >= 0 && (Long) c[7] >= 0 && toList(c[8]).size() <= 16, capture);
        }
    }

    private static List<Long> toList(Object o) {
        if (o instanceof long[] a) {
            return java.util.Arrays.stream(a).boxed().toList();
        }
        @SuppressWarnings("unchecked")
        List<Long> l = (List<Long>) o;
        return l;
    }
}
