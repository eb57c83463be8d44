package io.ackscope.spark;

import io.ackscope.capture.Archive;
import io.ackscope.report.Report;
import io.ackscope.report.ReportData;
import io.ackscope.report.ReportFilter;
import io.ackscope.tables.DuckTables;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.TableSchema;
import io.ackscope.tables.VantageTables;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze} over the two-point lab pair (sample-pcaps/README.md, jobs/lab-two-points: 5 ms each way, every
 * 25th client data frame and every 40th server data frame dropped, 8 and 9 frames, the server capture's clock moved
 * 1,234,567 µs ahead) given as two sources, one directory each: the pair's row, every connection matched, the
 * one-way delays and the host times against that truth; captures with nothing in common give no pair; one source
 * gives the tables it gave before, the vantage tables empty.
 */
class VantageAnalyzeTest {
    static final long SHIFT_US = 1_234_567;
    static final long PATH_DELAY_US = 5_000;
    /** Columns that differ between the client's rows alone and within the pair. */
    static final String[] PAIR_ONLY = {"peer_source", "peer_stream", "peer_uid", "peer_match", "first_file_index",
            "peer_ack_delay_us", "peer_server_turnaround_us"};

    @TempDir
    static Path tmp;
    static SparkSession spark;
    static Path pairOut;
    static Path singleOut;

    @BeforeAll
    static void setUp() throws IOException {
        spark = SparkTests.session("VantageAnalyzeTest");
        Path points = tmp.resolve("points");
        copy("lab-two-points-client.pcap.gz", points.resolve("client"));
        copy("lab-two-points-server.pcap.gz", points.resolve("server"));
        // the server's directory named first: which source is A comes from the traffic, not the order
        pairOut = analyze("pair", points.resolve("server"), points.resolve("client"));
        singleOut = analyze("single", points.resolve("client"));
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    static void copy(String sample, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.copy(SparkTests.sample(sample), dir.resolve(sample));
    }

    static Path analyze(String name, Path... inputs) throws IOException {
        Path out = tmp.resolve("out-" + name);
        List<String> in = new ArrayList<>();
        for (Path p : inputs) {
            in.add(p.toString());
        }
        Analyze.run(spark, new Analyze.Options(in, out.toString(), false, false, 3, Archive.SourceRule.DIRECTORY),
                new PrintStream(OutputStream.nullOutputStream()), false);
        return out;
    }

    static Dataset<Row> table(Path out, TableSchema t) {
        return spark.read().parquet(out.resolve(t.name()).toString());
    }

    @Test
    void thePairsClockAndDelaysAreTheLabsWithinTheirTolerances() {
        List<Row> rows = table(pairOut, VantageTables.SOURCE_PAIRS).collectAsList();
        assertEquals(1, rows.size());
        Row r = rows.get(0);
        assertEquals("client", r.getAs("source_a"));
        assertEquals("server", r.getAs("source_b"));
        assertEquals(4L, (long) r.getAs("connections"));
        long offset = r.getAs("clock_offset_us");
        long error = r.getAs("clock_offset_error_us");
        assertTrue(Math.abs(offset - SHIFT_US) <= 1_000, "offset " + offset);
        assertTrue(Math.abs(offset - SHIFT_US) <= error, "the shift lies within the bound " + error);
        // half the smallest round trip between the points: 5 ms, too loose to split by itself
        assertTrue(error >= 4_900 && error <= 6_000, "error " + error);
        assertFalse((boolean) r.getAs("delays_split"));
        long ab = r.getAs("one_way_a_to_b_p50_us");
        long ba = r.getAs("one_way_b_to_a_p50_us");
        assertTrue(Math.abs(ab - PATH_DELAY_US) <= 500, "a->b p50 " + ab);
        assertTrue(Math.abs(ba - PATH_DELAY_US) <= 500, "b->a p50 " + ba);
        assertTrue((long) r.getAs("one_way_a_to_b_p99_us") >= ab);
        assertTrue((long) r.getAs("one_way_b_to_a_p99_us") >= ba);
        assertEquals(8L, (long) r.getAs("lost_a_to_b"), "client data frames the forwarder dropped");
        assertEquals(9L, (long) r.getAs("lost_b_to_a"), "server data frames the forwarder dropped");
        assertEquals(0L, (long) r.getAs("only_downstream"));
        assertEquals(0L, (long) r.getAs("segments_cut"));
    }

    @Test
    void everyConnectionNamesItsPeerBothWays() {
        List<Row> rows = table(pairOut, EngineTables.CONNECTIONS)
                .select("source", "stream", "uid", "peer_source", "peer_stream", "peer_uid").collectAsList();
        assertEquals(8, rows.size(), "4 connections at each point");
        Map<String, Row> byKey = new HashMap<>();
        for (Row r : rows) {
            byKey.put(r.getString(0) + "/" + r.getLong(1), r);
        }
        for (Row r : rows) {
            assertNotNull(r.get(3), "matched: " + r);
            assertEquals(r.getString(0).equals("client") ? "server" : "client", r.getString(3));
            Row peer = byKey.get(r.getString(3) + "/" + r.getLong(4));
            assertNotNull(peer, "the peer's stream is a row of its source");
            assertEquals(peer.getString(2), r.getString(5), "peer_uid is the peer's uid");
            assertEquals(r.getString(2), peer.getString(5), "and the peer points back");
        }
    }

    @Test
    void oneWayDelaysReadByDuckDbAreThePathsAndJoinTheirConnections() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("CREATE VIEW d AS SELECT * FROM " + DuckTables.scan(pairOut, "one_way_delays"));
            s.execute("CREATE VIEW c AS SELECT * FROM " + DuckTables.scan(pairOut, "connections"));
            try (ResultSet r = s.executeQuery("SELECT direction, count(*), quantile_disc(delay_us, 0.5), "
                    + "min(delay_us) FROM d GROUP BY direction ORDER BY direction")) {
                for (String direction : List.of("A_TO_B", "B_TO_A")) {
                    assertTrue(r.next());
                    assertEquals(direction, r.getString(1));
                    assertTrue(r.getLong(2) > 300, direction + " samples " + r.getLong(2));
                    assertTrue(Math.abs(r.getLong(3) - PATH_DELAY_US) <= 500, direction + " p50 " + r.getLong(3));
                    assertTrue(r.getLong(4) > 0, "no delay below zero when the offset is right");
                }
                assertFalse(r.next());
            }
            // every row's two connections exist, and b_time - a_time is the delay plus the shift (within the error)
            try (ResultSet r = s.executeQuery("SELECT count(*), "
                    + "count(*) FILTER (WHERE ca.uid IS NULL OR cb.uid IS NULL), "
                    + "max(abs(epoch_us(b_time) - epoch_us(a_time) - (CASE WHEN direction = 'A_TO_B' THEN delay_us "
                    + "ELSE -delay_us END) - " + SHIFT_US + ")) "
                    + "FROM d LEFT JOIN c ca ON ca.source = d.source_a AND ca.stream = d.stream_a AND ca.uid = d.uid_a "
                    + "LEFT JOIN c cb ON cb.source = d.source_b AND cb.stream = d.stream_b AND cb.uid = d.uid_b")) {
                assertTrue(r.next());
                assertTrue(r.getLong(1) > 600, "rows " + r.getLong(1));
                assertEquals(0, r.getLong(2));
                assertTrue(r.getLong(3) <= 1_000, "b_time is B's own clock: " + r.getLong(3));
            }
        }
    }

    @Test
    void hostTimesSplitTheServersTimeAtTheHostNextToEach() {
        List<Row> rows = table(pairOut, VantageTables.HOST_TIMES).collectAsList();
        assertEquals(1, rows.size(), "one server endpoint");
        Row r = rows.get(0);
        assertEquals(4L, (long) r.getAs("connections"));
        long stallAck = r.getAs("stall_ack_delay_p50_us");
        // Linux's delayed ACK at the client itself, not that plus the 10 ms round trip
        assertTrue(stallAck >= 36_000 && stallAck <= 48_000, "stall ACK delay at the client " + stallAck);
        assertTrue((long) r.getAs("stall_ack_delays") > 100);
        long turnaround = r.getAs("server_turnaround_p50_us");
        long turnaroundAtA = r.getAs("server_turnaround_at_a_p50_us");
        assertTrue(turnaround < 3_000, "the server's own turnaround " + turnaround);
        assertTrue(Math.abs(turnaroundAtA - turnaround - 2 * PATH_DELAY_US) <= 1_000,
                "one round trip more at the client: " + turnaroundAtA);
        long ackAtA = r.getAs("client_ack_delay_p50_us");
        long ackAtB = r.getAs("client_ack_delay_at_b_p50_us");
        // each ACK is a round trip later at B; the medians of the two distributions are at least that apart
        assertTrue(ackAtA < 2_000 && ackAtB >= ackAtA + 2 * PATH_DELAY_US - 1_000, ackAtA + " at A, " + ackAtB
                + " at B");
        assertTrue(Math.abs((long) r.getAs("one_way_a_to_b_p50_us") - PATH_DELAY_US) <= 500);
        assertTrue(Math.abs((long) r.getAs("one_way_b_to_a_p50_us") - PATH_DELAY_US) <= 500);
    }

    @Test
    void stallsOfMatchedConnectionsTakeTheClientsOwnAckDelayAtBothSources() {
        Dataset<Row> stalls = table(pairOut, EngineTables.STALLS).where("delaying_side = 'CLIENT'");
        long atClient = stalls.where("source = 'client'").count();
        long atServer = stalls.where("source = 'server'").count();
        assertTrue(atClient > 100 && atServer > 100, atClient + " and " + atServer + " stalls");
        java.util.Set<Long> atTheClient = new java.util.HashSet<>();
        List<Long> fromTheServer = new ArrayList<>();
        for (Row r : stalls.select("source", "ack_delay_us", "peer_ack_delay_us").collectAsList()) {
            assertFalse(r.isNullAt(2), "every stall's ACK seen at both: " + r);
            if (r.getString(0).equals("client")) {
                assertEquals(r.getLong(1), r.getLong(2), "the client's rows keep their own figure: " + r);
                atTheClient.add(r.getLong(1));
            } else {
                fromTheServer.add(r.getLong(2));
            }
        }
        // the server's rows take the figure the client's capture read for the same ACK: Linux's delayed ACK
        // (a few of the server's stalls are not stalls at the client: their ACK's figure is the client's all the same)
        long notAtClient = fromTheServer.stream().filter(v -> !atTheClient.contains(v)).count();
        assertTrue(notAtClient * 10 <= fromTheServer.size(), notAtClient + " of " + fromTheServer.size());
        fromTheServer.sort(null);
        long median = fromTheServer.get(fromTheServer.size() / 2);
        assertTrue(median >= 36_000 && median <= 48_000, "client's own ACK delay " + median);
        assertEquals(0, table(singleOut, EngineTables.STALLS).where("peer_ack_delay_us IS NOT NULL").count());
    }

    @Test
    void exchangesOfMatchedConnectionsTakeTheServersOwnTurnaroundAtBothSources() {
        Dataset<Row> x = table(pairOut, EngineTables.EXCHANGES).where("response_first_time IS NOT NULL");
        Map<String, Long> atServer = new HashMap<>();
        List<Row> client = new ArrayList<>();
        for (Row r : x.selectExpr("source", "stream", "exchange_index", "peer_server_turnaround_us",
                "(unix_micros(response_first_time) - unix_micros(request_end_time))").collectAsList()) {
            assertFalse(r.isNullAt(3), "every answered exchange has the server's figure: " + r);
            if (r.getString(0).equals("server")) {
                assertEquals(r.getLong(4), r.getLong(3), "the server's rows keep their own figure: " + r);
                atServer.put(r.getLong(1) + "/" + r.getInt(2), r.getLong(3));
            } else {
                client.add(r);
            }
        }
        assertTrue(client.size() > 100 && atServer.size() == client.size(), client.size() + " " + atServer.size());
        // the client's rows take the server's own turnaround, a round trip less than the client saw
        for (Row r : client) {
            assertTrue(atServer.containsValue(r.getLong(3)), "a figure of the server's: " + r);
            assertTrue(r.getLong(4) - r.getLong(3) >= 2 * PATH_DELAY_US - 1_000, "a round trip less: " + r);
        }
        assertEquals(0, table(singleOut, EngineTables.EXCHANGES).where("peer_server_turnaround_us IS NOT NULL")
                .count());
    }

    @Test
    void capturesWithNothingInCommonMakeNoPair() throws IOException {
        Path none = tmp.resolve("none");
        copy("lab-two-points-client.pcap.gz", none.resolve("lab"));
        copy("nginx-nodelay-off.pcap.gz", none.resolve("nginx"));
        Path out = analyze("none", none);
        for (TableSchema t : VantageTables.ALL) {
            assertEquals(0, table(out, t).count(), t.name());
        }
        Dataset<Row> c = table(out, EngineTables.CONNECTIONS);
        assertTrue(c.count() > 4);
        assertEquals(0, c.where("peer_source IS NOT NULL OR peer_stream IS NOT NULL OR peer_uid IS NOT NULL")
                .count());
    }

    @Test
    void oneSourceGivesTheTablesAsBeforeAndEmptyVantageTables() {
        for (TableSchema t : VantageTables.ALL) {
            assertTrue(Files.isDirectory(singleOut.resolve(t.name())), t.name());
            assertEquals(0, table(singleOut, t).count(), t.name());
        }
        assertEquals(0, table(singleOut, EngineTables.CONNECTIONS).where("peer_source IS NOT NULL").count());
        // the client's rows of the pair's output are the single source's, apart from the peer columns and the
        // file's index (the pair has two files)
        for (TableSchema t : EngineTables.ALL) {
            Dataset<Row> single = table(singleOut, t).drop(PAIR_ONLY);
            Dataset<Row> inPair = table(pairOut, t).where("source = 'client'").drop(PAIR_ONLY);
            assertEquals(sorted(single), sorted(inPair), t.name());
        }
    }

    @Test
    void theReportShowsThePairTheOffsetTooLooseToSplitAndTheServersTimeSplit() throws IOException {
        ReportData d = Report.data(pairOut, ReportFilter.ALL, false);
        assertEquals(1, d.sourcePairs().size());
        ReportData.SourcePair p = d.sourcePairs().get(0);
        assertEquals("client", p.sourceA());
        assertFalse(p.delaysSplit());
        assertEquals(8, p.lostAtoB());
        assertEquals(9, p.lostBtoA());
        long rows = table(pairOut, VantageTables.ONE_WAY_DELAYS).where("direction = 'A_TO_B'").count();
        assertEquals(rows, p.aToB().count(), "every A->B delay binned");
        assertEquals(rows, java.util.Arrays.stream(p.aToB().bins()).sum());
        assertTrue(Math.abs(p.aToB().p50Micros() - PATH_DELAY_US) <= 500);
        assertEquals(1, p.servers().size());
        assertTrue(p.servers().get(0).stallAckMicros() >= 36_000 && p.servers().get(0).stallAckMicros() <= 48_000);
        // the flow graph at both points: the connection with the largest one-way delay, around that segment
        ReportData.TwoPointFlow flow = p.flow();
        assertNotNull(flow);
        assertTrue(flow.crossings().size() > 10 && flow.crossings().size() <= 41, "rows " + flow.crossings().size());
        long worst = table(pairOut, VantageTables.ONE_WAY_DELAYS).agg(org.apache.spark.sql.functions.max("delay_us"))
                .first().getLong(0);
        assertTrue(flow.crossings().stream().anyMatch(c -> c.delayMicros() == worst), "holds the worst " + worst);
        for (ReportData.Crossing c : flow.crossings()) {
            assertEquals(c.delayMicros(), c.aToB() ? c.bMicros() - c.aMicros() : c.aMicros() - c.bMicros());
        }
        assertEquals(1, table(pairOut, VantageTables.ONE_WAY_DELAYS).where("stream_a = " + flow.streamA()
                + " AND stream_b = " + flow.streamB() + " AND delay_us = " + worst).count());
        String html = Report.html(d);
        assertTrue(html.contains("Flow graph at both points"));
        assertTrue(html.contains("<section id=\"vantage\"><h2>Two vantage points</h2>"), "the section");
        assertTrue(html.contains("bound too loose to split delays"));
        assertTrue(html.contains("One-way delay A → B") && html.contains("One-way delay B → A"));
        assertTrue(html.contains("client host: ACK delay at A"));
        assertFalse(Report.html(Report.data(singleOut, ReportFilter.ALL, false)).contains("id=\"vantage\""),
                "no section with one source");
    }

    private static List<String> sorted(Dataset<Row> d) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : d.collectAsList()) {
            rows.add(SparkTests.comparable(r));
        }
        return SparkTests.sortedText(rows);
    }
}
