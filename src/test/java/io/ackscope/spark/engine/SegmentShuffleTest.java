package io.ackscope.spark.engine;

import io.ackscope.spark.SparkTests;
import io.ackscope.spark.source.CapturePartition;
import io.ackscope.spark.source.CapturePlanner;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SegmentRows;

import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.util.SerializableConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * analyze's shuffle hands every engine task its frames in file order without sorting them: checked on several
 * files (small ones packed together, large ones split in 16 KB pieces, a compressed one read whole) against the
 * {@code pcap} source's own rows.
 */
class SegmentShuffleTest {
    @TempDir
    static Path tmp;
    static SparkSession spark;
    static Path inputs;

    @BeforeAll
    static void setUp() throws IOException {
        spark = SparkTests.session("SegmentShuffleTest");
        inputs = SparkTests.copyCorpus(tmp.resolve("in"), "zeek__methods.pcap", "zeek__bro.org.pcap",
                "pcpp__four_ipv6_http_streams.pcap", "gopacket__le_test102.pcapng", "tcpdump__dns_tcp.pcap",
                "tcpdump__tcp-handshake-nano.pcap", "zeek__tcp-syslog.pcap");
        Files.copy(SparkTests.sample("nginx-nodelay-off.pcap.gz"), inputs.resolve("nginx-nodelay-off.pcap.gz"));
        SparkTests.gunzippedSample("lab-nginx-nodelay-off.pcap.gz", inputs);
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    static Broadcast<SerializableConfiguration> conf;

    /** The plan analyze makes of the inputs with 16 KB splits and a 1 KB open cost. */
    static ReadPlan plan() throws IOException {
        Configuration hadoop = CapturePlanner.hadoopConf(spark, Map.of());
        conf = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(new SerializableConfiguration(hadoop));
        spark.conf().set("spark.sql.files.maxPartitionBytes", "16k");
        spark.conf().set("spark.sql.files.openCostInBytes", "1k");
        try {
            return CapturePlanner.plan(spark, List.of(inputs.toString()), hadoop, conf);
        } finally {
            spark.conf().unset("spark.sql.files.maxPartitionBytes");
            spark.conf().unset("spark.sql.files.openCostInBytes");
        }
    }

    /** Each reducer's rows as file-order keys, in the order the reducer gave them. */
    static List<List<Long>> reduced(ReadPlan plan, int reducers) {
        SegmentShuffle.Shuffled s = SegmentShuffle.inFileOrder(spark.sparkContext(), plan, conf, null, reducers,
                0, true, io.ackscope.tcp.FrameFilter.NONE);
        s.readStage(spark.sparkContext());
        JavaRDD<InternalRow> rows = JavaRDD.fromRDD(s.rows(), s.rows().elementClassTag());
        return rows.mapPartitions(it -> {
            List<Long> keys = new ArrayList<>();
            while (it.hasNext()) {
                InternalRow r = it.next();
                keys.add(EngineTask.key(r.getInt(SegmentRows.FILE_INDEX), r.getLong(SegmentRows.FRAME)));
            }
            return List.of(keys).iterator();
        }).collect();
    }

    @Test
    void everyReducerGetsItsConnectionsFramesInFileOrder() throws IOException {
        ReadPlan plan = plan();
        assertTrue(plan.partitions().size() > 20, "read tasks: " + plan.partitions().size());
        assertTrue(plan.partitions().stream().anyMatch(p -> p.splits().size() > 1), "some task reads several splits");

        List<List<Long>> reducers = reduced(plan, 3);
        assertEquals(3, reducers.size());
        List<Long> all = new ArrayList<>();
        for (List<Long> keys : reducers) {
            assertTrue(keys.size() > 100, "a reducer's rows: " + keys.size());
            for (int i = 1; i < keys.size(); i++) {
                assertTrue(keys.get(i - 1) < keys.get(i), "file order broken at row " + i);
            }
            all.addAll(keys);
        }
        // exactly the TCP frames the pcap source gives for the same files
        List<Long> expected = new ArrayList<>();
        for (Row r : spark.read().format("pcap").load(inputs.toString())
                .where("ip_protocol = 6 and tcp_flags is not null")
                .select("file_index", "frame").collectAsList()) {
            expected.add(EngineTask.key(r.getInt(0), r.getLong(1)));
        }
        Collections.sort(expected);
        Collections.sort(all);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), i < all.size() ? all.get(i) : null, "row " + i + " of the sorted keys");
        }
        assertEquals(expected.size(), all.size(), "rows");
    }

    @Test
    void readTasksOutOfFileOrderAreCaughtNotAnalysed() throws IOException {
        ReadPlan plan = plan();
        List<CapturePartition> reversed = new ArrayList<>(plan.partitions());
        Collections.reverse(reversed);
        ReadPlan bad = new ReadPlan(plan.files(), plan.filePlans(), reversed);
        SparkException e = assertThrows(SparkException.class, () -> reduced(bad, 2));
        assertTrue(String.valueOf(e.getMessage()).contains("out of file order"), e.getMessage());
    }
}
