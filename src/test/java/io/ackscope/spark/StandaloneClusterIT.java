package io.ackscope.spark;

import io.ackscope.cli.Main;
import io.ackscope.tables.PacketSchema;
import io.ackscope.tables.SchemaDoc;
import io.ackscope.tables.TableSchema;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster path for real: a standalone Master and two Workers on loopback (separate JVMs), {@code analyze}
 * submitted through {@code SparkSubmit} with {@code target/ackscope-cluster.jar} (which must carry everything
 * ackscope needs beyond Spark), and its tables equal to the embedded run's. Runs in {@code mvn verify}, after
 * {@code package} built the jar.
 */
@Tag("cluster")
class StandaloneClusterIT {
    @TempDir
    static Path tmp;
    static StandaloneCluster cluster;
    static Path inputs;

    @BeforeAll
    static void start() throws Exception {
        Path jar = Path.of(System.getProperty("ackscope.clusterJar", "target/ackscope-cluster.jar"));
        assertTrue(Files.isRegularFile(jar), jar + " missing: run mvn verify (package builds it)");
        inputs = Files.createDirectories(tmp.resolve("in"));
        Files.copy(SparkTests.sample("nginx-nodelay-off.pcap.gz"), inputs.resolve("nginx-nodelay-off.pcap.gz"));
        for (String f : List.of("zeek__methods.pcap", AnalyzeTest.DAMAGED, "hadooppcap__reversedtest.pcap")) {
            Files.copy(SparkTests.corpus().resolve(f), inputs.resolve(f));
        }
        cluster = StandaloneCluster.start(Files.createDirectories(tmp.resolve("cluster")), 2, "1g");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void analyzeSubmittedToAStandaloneClusterWritesTheSameTablesAsTheEmbeddedRun() throws Exception {
        Path jar = Path.of(System.getProperty("ackscope.clusterJar", "target/ackscope-cluster.jar")).toAbsolutePath();
        Path clusterOut = tmp.resolve("out-cluster");
        Path log = tmp.resolve("submit.log");
        int code = cluster.submit(log, List.of("--master", cluster.masterUrl(), "--deploy-mode", "client",
                "--class", "io.ackscope.cli.Main", "--conf", "spark.executor.memory=640m",
                "--conf", "spark.cores.max=2", "--conf", "spark.ui.enabled=false",
                "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.sql.files.maxPartitionBytes=256k",
                "--conf", "spark.sql.files.openCostInBytes=16k",
                jar.toString(), "analyze", inputs.toString(), "--out", clusterOut.toString(), "--partitions", "3",
                "--strict"), 600);
        String submitted = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(3, code, "--strict with a damaged input exits 3; log:\n" + tail(submitted));
        assertTrue(submitted.contains("damaged file"), tail(submitted));
        assertTrue(Files.exists(clusterOut.resolve("_SUCCESS")));

        Path embeddedOut = tmp.resolve("out-embedded");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int embedded = Main.run(new String[]{"analyze", inputs.toString(), "--out", embeddedOut.toString(),
                "--master", "local[2]", "--partitions", "2"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));
        assertEquals(0, embedded, err.toString(StandardCharsets.UTF_8));

        SparkSession spark = SparkTests.session("StandaloneClusterIT-compare");
        try {
            for (TableSchema t : SchemaDoc.tables()) {
                if (t == PacketSchema.TABLE) {
                    continue;
                }
                assertEquals(rows(spark, embeddedOut, t.name()), rows(spark, clusterOut, t.name()), t.name());
            }
            assertTrue(spark.read().parquet(clusterOut.resolve("connections").toString()).count() > 50);
            List<Row> files = spark.read().parquet(clusterOut.resolve("capture_files").toString())
                    .where("read_mode = 'split'").collectAsList();
            assertTrue(!files.isEmpty(), "the 0.9 MB capture was read in 256 KB splits by the executors");
        } finally {
            spark.stop();
        }
    }

    /** The table's rows; for capture_files without how each file was split, which the split size decides. */
    private static List<String> rows(SparkSession spark, Path out, String table) {
        List<List<Object>> rows = new ArrayList<>();
        var df = spark.read().parquet(out.resolve(table).toString());
        if (table.equals("capture_files")) {
            df = df.drop("read_mode", "whole_reason", "splits");
        }
        for (Row r : df.collectAsList()) {
            rows.add(SparkTests.comparable(r));
        }
        return SparkTests.sortedText(rows);
    }

    private static String tail(String s) {
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }
}
