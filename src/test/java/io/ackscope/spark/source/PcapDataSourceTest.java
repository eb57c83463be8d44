package io.ackscope.spark.source;

import io.ackscope.spark.SparkTests;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code spark.read.format("pcap")}: paths, splitting, pruning and values, checked against the reader and tshark. */
@Tag("slow")
class PcapDataSourceTest {
    /** A corpus capture damaged after its sixth frame. */
    static final String DAMAGED = "suri__bug-1450-04__tls_DER-incomplete-header.pcap";
    @TempDir
    static Path tmp;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTests.session("PcapDataSourceTest");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    @AfterEach
    void resetSplitSize() {
        spark.conf().unset("spark.sql.files.maxPartitionBytes");
        spark.conf().unset("spark.sql.files.openCostInBytes");
    }

    private static Dataset<Row> pcap(String... paths) {
        return spark.read().format("pcap").load(paths);
    }

    @Test
    void globsOverTheCorpusReadEveryFrameOnceInSmallSplits() throws IOException {
        spark.conf().set("spark.sql.files.maxPartitionBytes", "16k");
        spark.conf().set("spark.sql.files.openCostInBytes", "1k");
        Path c = SparkTests.corpus();
        Dataset<Row> df = pcap(c + "/*.pcap", c + "/*.pcapng").select("file", "frame_number", "record_offset");
        List<String> actual = new ArrayList<>();
        for (Row r : df.collectAsList()) {   // file_index is in time order ({@link io.ackscope.capture.Archive})
            String file = r.getString(0);
            actual.add(file.substring(file.lastIndexOf('/') + 1) + " " + r.getLong(1) + " " + r.getLong(2));
        }
        actual.sort(null);
        List<String> expected = new ArrayList<>();
        List<Path> files = SparkTests.corpusCaptures();
        for (int i = 0; i < files.size(); i++) {
            for (String frame : PcapSplitExactnessTest.direct(files.get(i))) {
                String[] f = frame.split(" ");
                expected.add(files.get(i).getFileName() + " " + f[0] + " " + f[1]);
            }
        }
        expected.sort(null);
        PcapSplitExactnessTest.assertSameFrames(expected, actual, "corpus through Spark in 16 KB splits");
        assertTrue(df.rdd().getNumPartitions() > files.size(), "large files were split: "
                + df.rdd().getNumPartitions() + " tasks for " + files.size() + " files");
    }

    @Test
    void valuesEqualTsharksForEveryFrame() throws IOException {
        Path file = SparkTests.corpus().resolve("zeek__methods.pcap");
        List<String> expected = new ArrayList<>();
        for (String line : Files.readAllLines(SparkTests.corpus().resolve("expected/zeek__methods.pcap.tcp.tsv"))
                .subList(1, 656)) {
            String[] f = line.split("\t", -1);
            // frame.number, time_epoch, ip.src, tcp.srcport, ip.dst, tcp.dstport, flags, seq_raw, ack_raw, len, window
            expected.add(String.join(" ", f[0], f[1].replace(".", "").replaceFirst("^0+", ""), f[3], f[5], f[6], f[8],
                    Integer.toString(Integer.decode(f[9])), f[10], f[11], f[12], f[13]));
        }
        List<String> actual = new ArrayList<>();
        for (Row r : pcap(file.toString()).orderBy("frame_number").select("frame_number", "timestamp_ns", "src_ip",
                "src_port", "dst_ip", "dst_port", "tcp_flags", "tcp_seq", "tcp_ack", "payload_length", "tcp_window")
                .collectAsList()) {
            List<String> f = new ArrayList<>();
            for (int i = 0; i < r.size(); i++) {
                f.add(String.valueOf(r.get(i)));
            }
            actual.add(String.join(" ", f));
        }
        PcapSplitExactnessTest.assertSameFrames(expected, actual, "zeek__methods.pcap against tshark");
    }

    @Test
    void onlyTheSelectedColumnsAreRead() {
        Dataset<Row> df = pcap(SparkTests.corpus().resolve("zeek__methods.pcap").toString())
                .select("frame_number", "tcp_flags").where(col("tcp_flags").isNotNull());
        String plan = df.queryExecution().executedPlan().toString();
        assertTrue(plan.contains("frame_number") && plan.contains("tcp_flags"), plan);
        assertFalse(plan.contains("src_ip") || plan.contains("payload"), "pruned: " + plan);
        assertEquals(655, df.count());
        assertEquals(2, df.schema().size());
    }

    @Test
    void aDirectoryIsReadRecursivelyAndCompressedCapturesWhole() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("dir/sub"));
        Files.copy(SparkTests.sample("nginx-nodelay-on.pcap.gz"), dir.resolve("a.pcap.gz"));
        Files.copy(SparkTests.corpus().resolve("zeek__methods.pcap"), tmp.resolve("dir/b.pcap"));
        Files.writeString(tmp.resolve("dir/_ignored.pcap"), "not read: names starting with _ are skipped");
        spark.conf().set("spark.sql.files.maxPartitionBytes", "8k");
        spark.conf().set("spark.sql.files.openCostInBytes", "1k");
        Dataset<Row> df = pcap(tmp.resolve("dir").toString());
        long gz = PcapSplitExactnessTest.direct(SparkTests.sample("nginx-nodelay-on.pcap.gz")).size();
        assertEquals(gz + 655, df.count());
        assertEquals(2, df.select("file").distinct().count());
        assertEquals(gz, df.where(col("file").endsWith("a.pcap.gz")).select("frame_number").distinct().count());
    }

    @Test
    void aDamagedCaptureEndsAtTheDamageUnlessFailOnDamage() {
        String damaged = SparkTests.corpus().resolve(DAMAGED).toString();
        assertEquals(6, pcap(damaged).count());
        Exception e = assertThrows(Exception.class,
                () -> spark.read().format("pcap").option("failOnDamage", "true").load(damaged).count());
        assertTrue(String.valueOf(e.getMessage()).contains("byte"), e.getMessage());
    }

    @Test
    void aLargeCaptureIsReadByAsManyTasksAsCores() throws IOException {
        Path big = tmp.resolve("big.pcap");
        Files.write(big, PcapSplitExactnessTest.CraftedPcap.build(30_000, false)); // ~20 MB
        Dataset<Row> df = pcap(big.toString()).select("frame_number");
        assertEquals(spark.sparkContext().defaultParallelism(), df.rdd().getNumPartitions());
        assertEquals(30_000, df.count());
        assertEquals(30_000, df.distinct().count());
    }
}
