package io.ackscope.spark;

import io.ackscope.capture.Archive;
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
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze} over the two-point lab pair with a NAT between the points: the server capture rewritten so that
 * the client's address is 192.0.2.77 and its ports 1000 higher there ({@link PcapNat}), so no connection has the
 * same 4-tuple at both points. Every connection is still matched (by its ISNs, {@code peer_match} ISN), and the
 * pair's and the server endpoint's figures are exactly those of the capture without the NAT.
 */
class VantageNatTest {
    @TempDir
    static Path tmp;
    static SparkSession spark;
    static Path natOut;
    static Path plainOut;

    @BeforeAll
    static void setUp() throws IOException {
        spark = SparkTests.session("VantageNatTest");
        Path plain = tmp.resolve("plain");
        Path nat = tmp.resolve("nat");
        for (Path p : List.of(plain, nat)) {
            Files.createDirectories(p.resolve("client"));
            Files.createDirectories(p.resolve("server"));
            Files.copy(SparkTests.sample("lab-two-points-client.pcap.gz"), p.resolve("client/client.pcap.gz"));
        }
        Files.copy(SparkTests.sample("lab-two-points-server.pcap.gz"), plain.resolve("server/server.pcap.gz"));
        PcapNat.rewrite(SparkTests.sample("lab-two-points-server.pcap.gz"), nat.resolve("server/server.pcap.gz"),
                new byte[]{10, (byte) 219, 0, 1}, new byte[]{(byte) 192, 0, 2, 77}, 1000);
        plainOut = analyze("plain", plain);
        natOut = analyze("nat", nat);
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    static Path analyze(String name, Path root) throws IOException {
        Path out = tmp.resolve("out-" + name);
        Analyze.run(spark, new Analyze.Options(List.of(root.resolve("client").toString(),
                        root.resolve("server").toString()), out.toString(), false, false, 3,
                        Archive.SourceRule.DIRECTORY), new PrintStream(OutputStream.nullOutputStream()), false);
        return out;
    }

    static Dataset<Row> table(Path out, TableSchema t) {
        return spark.read().parquet(out.resolve(t.name()).toString());
    }

    @Test
    void theRewriteLeavesNoFourTupleInCommon() {
        Dataset<Row> c = table(natOut, EngineTables.CONNECTIONS);
        assertEquals(4, c.where("source = 'server' AND client_ip = '192.0.2.77'").count());
        assertEquals(4, c.where("source = 'client' AND client_ip = '10.219.0.1'").count());
    }

    @Test
    void everyConnectionIsMatchedByItsIsnsToTheSamePeerAsWithoutTheNat() {
        List<Row> nat = table(natOut, EngineTables.CONNECTIONS)
                .select("source", "stream", "peer_source", "peer_stream", "peer_match").collectAsList();
        List<Row> plain = table(plainOut, EngineTables.CONNECTIONS)
                .select("source", "stream", "peer_source", "peer_stream", "peer_match").collectAsList();
        assertEquals(8, nat.size());
        assertEquals(8, plain.size());
        for (Row r : nat) {
            assertEquals("ISN", r.getString(4), "matched through the NAT: " + r);
        }
        for (Row r : plain) {
            assertEquals("TUPLE", r.getString(4), r.toString());
        }
        assertEquals(sorted(table(plainOut, EngineTables.CONNECTIONS).select("source", "stream", "peer_source",
                "peer_stream")), sorted(table(natOut, EngineTables.CONNECTIONS).select("source", "stream",
                "peer_source", "peer_stream")));
    }

    @Test
    void thePairsFiguresAreThoseWithoutTheNat() {
        Row r = table(natOut, VantageTables.SOURCE_PAIRS).first();
        assertEquals(4L, (long) r.getAs("connections"));
        assertTrue(Math.abs((long) r.getAs("clock_offset_us") - VantageAnalyzeTest.SHIFT_US) <= 1_000);
        assertEquals(8L, (long) r.getAs("lost_a_to_b"));
        assertEquals(9L, (long) r.getAs("lost_b_to_a"));
        assertEquals(sorted(table(plainOut, VantageTables.SOURCE_PAIRS)),
                sorted(table(natOut, VantageTables.SOURCE_PAIRS)));
        assertEquals(sorted(table(plainOut, VantageTables.HOST_TIMES)),
                sorted(table(natOut, VantageTables.HOST_TIMES)));
        // every segment's delay as without the NAT; uid_b hashes the server capture's (rewritten) 4-tuple
        Dataset<Row> natDelays = table(natOut, VantageTables.ONE_WAY_DELAYS).drop("uid_b");
        assertTrue(natDelays.count() > 600, "rows " + natDelays.count());
        assertEquals(sorted(table(plainOut, VantageTables.ONE_WAY_DELAYS).drop("uid_b")), sorted(natDelays));
    }

    @Test
    void stallsTakeTheSameHostFiguresAsWithoutTheNat() {
        // uid and the client's address differ at the server's capture (rewritten); the client delays
        Dataset<Row> nat = table(natOut, EngineTables.STALLS).drop("uid", "delaying_ip");
        assertTrue(nat.where("peer_ack_delay_us IS NOT NULL").count() > 200);
        assertEquals(sorted(table(plainOut, EngineTables.STALLS).drop("uid", "delaying_ip")), sorted(nat));
        Dataset<Row> exchanges = table(natOut, EngineTables.EXCHANGES).drop("uid");
        assertTrue(exchanges.where("peer_server_turnaround_us IS NOT NULL").count() > 200);
        assertEquals(sorted(table(plainOut, EngineTables.EXCHANGES).drop("uid")), sorted(exchanges));
    }

    private static List<String> sorted(Dataset<Row> d) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : d.collectAsList()) {
            rows.add(SparkTests.comparable(r));
        }
        return SparkTests.sortedText(rows);
    }
}
