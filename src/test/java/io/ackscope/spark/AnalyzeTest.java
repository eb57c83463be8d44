package io.ackscope.spark;

import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.source.SparkSchemas;
import io.ackscope.spark.source.SplitStats;

import io.ackscope.tables.EngineTables;
import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.PacketSchema;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.SchemaDoc;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.RttSample;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze} on real captures (bundled nginx samples, corpus captures, a damaged one) gives the same tables as
 * the single-JVM engine, whatever the partition count and split size; accounts for every frame; and commits its
 * output directory safely.
 */
@Tag("slow")
class AnalyzeTest {
    static final String DAMAGED = "suri__bug-1450-04__tls_DER-incomplete-header.pcap";

    @TempDir
    static Path tmp;
    static SparkSession spark;
    static Path inputs;
    static List<Path> files;
    static EngineReference ref;
    static final Map<String, Path> outputs = new HashMap<>();

    @BeforeAll
    static void setUp() throws IOException {
        spark = SparkTests.session("AnalyzeTest");
        inputs = SparkTests.copyCorpus(tmp.resolve("in"), "zeek__methods.pcap", "zeek__bro.org.pcap",
                "pcpp__four_ipv6_http_streams.pcap", DAMAGED, "gopacket__le_test102.pcapng");
        Files.copy(SparkTests.sample("nginx-nodelay-off.pcap.gz"), inputs.resolve("nginx-nodelay-off.pcap.gz"));
        try (var s = Files.list(inputs)) {
            files = s.sorted().toList();
        }
        ref = EngineReference.run(files);
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    /** Runs analyze once per (partitions, split size) and keeps its output for the tests. */
    static synchronized Path analyzed(int partitions, String maxPartitionBytes) throws IOException {
        String key = partitions + "/" + maxPartitionBytes;
        Path out = outputs.get(key);
        if (out == null) {
            out = tmp.resolve("out-" + partitions + "-" + maxPartitionBytes);
            spark.conf().set("spark.sql.files.maxPartitionBytes", maxPartitionBytes);
            spark.conf().set("spark.sql.files.openCostInBytes", "1k");
            try {
                Analyze.run(spark, new Analyze.Options(List.of(inputs.toString()), out.toString(), false, false,
                        partitions), new PrintStream(OutputStream.nullOutputStream()), false);
            } finally {
                spark.conf().unset("spark.sql.files.maxPartitionBytes");
                spark.conf().unset("spark.sql.files.openCostInBytes");
            }
            outputs.put(key, out);
        }
        return out;
    }

    /** A table's files as they are, without the partition columns of their directories. */
    static org.apache.spark.sql.Dataset<Row> files(Path table) {
        return files(spark, table);
    }

    /** As {@link #files(Path)}, on {@code spark}. */
    static org.apache.spark.sql.Dataset<Row> files(org.apache.spark.sql.SparkSession spark, Path table) {
        return spark.read().option("recursiveFileLookup", "true").parquet(table.toString());
    }

    static List<List<Object>> table(Path out, String name) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : files(out.resolve(name)).collectAsList()) {
            rows.add(SparkTests.comparable(r));
        }
        return rows;
    }

    @Test
    void referenceRunIsNotTrivial() {
        assertTrue(ref.connections.size() > 50, "connections: " + ref.connections.size());
        assertTrue(ref.rows.get("stalls").size() > 10, "the nodelay-off sample has stalls");
        assertTrue(ref.rows.get("exchanges").size() > 100);
    }

    @ParameterizedTest(name = "{0} shuffle partitions")
    @ValueSource(ints = {1, 3})
    void engineTablesEqualTheSingleJvmEngine(int partitions) throws IOException {
        Path out = analyzed(partitions, "128m");
        for (TableSchema t : EngineTables.ALL) {
            List<List<Object>> expected = ref.rows.getOrDefault(t.name(), List.of());
            assertEquals(SparkTests.sortedText(expected), SparkTests.sortedText(table(out, t.name())), t.name());
        }
    }

    @Test
    void engineTablesDoNotDependOnSplitSize() throws IOException {
        Path whole = analyzed(3, "128m");
        Path split = analyzed(3, "16k");
        for (TableSchema t : EngineTables.ALL) {
            assertEquals(SparkTests.sortedText(table(whole, t.name())), SparkTests.sortedText(table(split, t.name())),
                    t.name());
        }
        assertEquals(SparkTests.sortedText(table(whole, "latency_summary")),
                SparkTests.sortedText(table(split, "latency_summary")));
        assertEquals(SparkTests.sortedText(table(whole, "findings")), SparkTests.sortedText(table(split, "findings")));
    }

    @Test
    void findingsLeadWithTheNagleStallWhateverThePartitioning() throws IOException {
        Path one = analyzed(1, "128m");
        Path split = analyzed(3, "16k");
        assertEquals(SparkTests.sortedText(table(one, "findings")), SparkTests.sortedText(table(split, "findings")));
        Row top = spark.read().parquet(one.resolve("findings").toString()).orderBy(
                org.apache.spark.sql.functions.col("time_lost_us").desc()).first();
        assertEquals("NAGLE_SERVER_HELD", top.getAs("cause"));
        long stalls = ref.rows.get("stalls").size();
        assertEquals(stalls, (long) top.getAs("events"), "one occurrence per stall");
        assertTrue((double) top.getAs("share") > 0.5, "share " + top.getAs("share"));
        assertEquals(16, top.getList(top.fieldIndex("evidence_frames")).size());
    }

    @Test
    void captureFilesAccountForEveryFrame() throws IOException {
        Path out = analyzed(3, "128m");
        List<Row> rows = spark.read().parquet(out.resolve("capture_files").toString()).orderBy("file_index")
                .collectAsList();
        assertEquals(files.size(), rows.size());
        long frames = 0;
        for (Row r : rows) {
            long f = r.getLong(r.fieldIndex("frames"));
            frames += f;
            assertEquals(f, r.getLong(r.fieldIndex("tcp_frames")) + r.getLong(r.fieldIndex("skipped_frames")));
            Map<String, Long> skipped = r.getJavaMap(r.fieldIndex("skipped_by_reason"));
            assertEquals(r.getLong(r.fieldIndex("skipped_frames")),
                    skipped.values().stream().mapToLong(Long::longValue).sum(), "skipped by reason sums up");
            assertEquals(f, r.getLong(r.fieldIndex("frames_ok")) + r.getLong(r.fieldIndex("frames_truncated"))
                    + r.getLong(r.fieldIndex("frames_malformed")) + r.getLong(r.fieldIndex("frames_unsupported")));
            assertTrue(r.getBoolean(r.fieldIndex("complete")));
            String file = r.getString(r.fieldIndex("file"));
            if (file.endsWith(DAMAGED)) {
                assertEquals(6, f, "the 6 good frames before the damage");
                assertFalse(r.isNullAt(r.fieldIndex("error_offset")));
                assertNotNull(r.getString(r.fieldIndex("error")));
            } else {
                assertTrue(r.isNullAt(r.fieldIndex("error_offset")), file);
            }
            if (file.endsWith(".gz")) {
                assertEquals("whole", r.getString(r.fieldIndex("read_mode")));
            }
        }
        assertEquals(ref.frames, frames, "every frame the single-JVM feeder read");
    }

    /** capture_files' seek points of one file read whole and in 64 KB splits: frame numbers and offsets. */
    @Test
    void seekPointsAreRecordsOfTheFileWhateverTheSplitSize() throws Exception {
        Path in = tmp.resolve("seek-in");
        Path plain = SparkTests.gunzippedSample("nginx-nodelay-on.pcap.gz", in);
        List<Long> offsets = new ArrayList<>();
        try (io.ackscope.capture.CaptureReader r = io.ackscope.capture.Captures.open(plain)) {
            while (r.next()) {
                offsets.add(r.recordOffset());
            }
        }
        assertTrue(offsets.size() > 2 * SplitStats.SEEK_POINT_FRAMES, "frames: " + offsets.size());
        List<Object> previous = null;
        for (String split : List.of("128m", "64k")) {
            Path out = tmp.resolve("seek-out-" + split);
            spark.conf().set("spark.sql.files.maxPartitionBytes", split);
            spark.conf().set("spark.sql.files.minPartitionNum", "1");
            try {
                Analyze.run(spark, new Analyze.Options(List.of(in.toString()), out.toString(), false, false, 2),
                        new PrintStream(OutputStream.nullOutputStream()), false);
            } finally {
                spark.conf().unset("spark.sql.files.maxPartitionBytes");
                spark.conf().unset("spark.sql.files.minPartitionNum");
            }
            Row r = spark.read().parquet(out.resolve("capture_files").toString()).collectAsList().get(0);
            assertEquals(split.equals("64k") ? "split" : "whole", r.getString(r.fieldIndex("read_mode")));
            List<Long> frames = r.getList(r.fieldIndex("seek_frames"));
            List<Long> at = r.getList(r.fieldIndex("seek_offsets"));
            assertEquals((offsets.size() - 1) / SplitStats.SEEK_POINT_FRAMES + 1, frames.size(), split);
            for (int i = 0; i < frames.size(); i++) {
                assertEquals(1 + i * SplitStats.SEEK_POINT_FRAMES, frames.get(i), split);
                assertEquals(offsets.get((int) (frames.get(i) - 1)), at.get(i), split + ": frame " + frames.get(i));
            }
            List<Object> now = List.of(frames, at);
            if (previous != null) {
                assertEquals(previous, now, "split reads give the whole read's seek points");
            }
            previous = now;
        }
    }

    @Test
    void latencySummaryHoldsNearestRankPercentilesPerServer() throws IOException {
        Path out = analyzed(3, "128m");
        Map<String, ConnectionRecord> byStream = new HashMap<>();
        Map<String, List<Long>> values = new TreeMap<>();
        for (ConnectionRecord c : ref.connections) {
            String server = c.resp().address() + " " + c.resp().port();
            byStream.put(Long.toString(c.id().stream()), c);
            if (c.initialRttNanos() >= 0) {
                values.computeIfAbsent(server + " handshake_rtt", k -> new ArrayList<>()).add(c.initialRttNanos() / 1000);
            }
        }
        for (RttSample s : ref.rtts) {
            if (s.kind() == RttSample.Kind.DATA_ACK) {
                ConnectionRecord c = byStream.get(Long.toString(s.connection().stream()));
                values.computeIfAbsent(c.resp().address() + " " + c.resp().port() + " data_rtt",
                        k -> new ArrayList<>()).add(s.valueNanos() / 1000);
            }
        }
        for (AckDelay a : ref.ackDelays) {
            ConnectionRecord c = byStream.get(Long.toString(a.connection().stream()));
            values.computeIfAbsent(c.resp().address() + " " + c.resp().port() + " ack_delay",
                    k -> new ArrayList<>()).add(a.valueNanos() / 1000);
        }
        for (Exchange e : ref.exchanges) {
            if (e.ttfbNanos() >= 0) {
                ConnectionRecord c = byStream.get(Long.toString(e.connection().stream()));
                values.computeIfAbsent(c.resp().address() + " " + c.resp().port() + " ttfb",
                        k -> new ArrayList<>()).add(e.ttfbNanos() / 1000);
            }
            if (e.completeNanos() >= 0) {
                ConnectionRecord c = byStream.get(Long.toString(e.connection().stream()));
                values.computeIfAbsent(c.resp().address() + " " + c.resp().port() + " complete",
                        k -> new ArrayList<>()).add(e.completeNanos() / 1000);
            }
        }
        List<Row> rows = spark.read().parquet(out.resolve("latency_summary").toString()).collectAsList();
        int checked = 0;
        for (Row r : rows) {
            String server = r.getString(r.fieldIndex("server_ip")) + " " + r.getInt(r.fieldIndex("server_port"));
            for (String[] m : LatencySummaryTable.METRICS) {
                List<Long> v = values.getOrDefault(server + " " + m[0], List.of());
                assertEquals(v.size(), r.getLong(r.fieldIndex(m[0] + "_count")), server + " " + m[0]);
                if (v.isEmpty()) {
                    assertTrue(r.isNullAt(r.fieldIndex(m[0] + "_p50_us")));
                    continue;
                }
                List<Long> sorted = new ArrayList<>(v);
                sorted.sort(null);
                assertEquals(nearestRank(sorted, 0.5), r.getLong(r.fieldIndex(m[0] + "_p50_us")), server + m[0]);
                assertEquals(nearestRank(sorted, 0.9), r.getLong(r.fieldIndex(m[0] + "_p90_us")), server + m[0]);
                assertEquals(nearestRank(sorted, 0.99), r.getLong(r.fieldIndex(m[0] + "_p99_us")), server + m[0]);
                assertEquals(sorted.get(sorted.size() - 1), r.getLong(r.fieldIndex(m[0] + "_max_us")));
                long[] h = new long[LatencySummaryTable.BUCKETS];
                for (long x : v) {
                    h[LatencySummaryTable.bucket(x)]++;
                }
                List<Long> hist = r.getList(r.fieldIndex(m[0] + "_histogram"));
                for (int k = 0; k < h.length; k++) {
                    assertEquals(h[k], hist.get(k), server + " " + m[0] + " bucket " + k);
                }
                checked++;
            }
        }
        assertTrue(checked > 10, "checked " + checked);
    }

    private static long nearestRank(List<Long> sorted, double p) {
        int idx = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, idx));
    }

    @Test
    void writtenTablesHaveTheDocumentedSchemas() throws IOException {
        Path out = analyzed(3, "128m");
        for (TableSchema t : SchemaDoc.tables()) {
            if (t == PacketSchema.TABLE) {
                continue;
            }
            Path dir = out.resolve(t.name());
            assertTrue(Files.exists(dir.resolve("_SUCCESS")), t.name() + " committed");
            assertEquals(typed(SparkSchemas.of(t)), typed(files(dir).schema()), t.name());
            try (var parts = Files.walk(dir)) {
                for (Path part : parts.filter(p -> p.toString().endsWith(".parquet")).toList()) {
                    try (var reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                            org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                                    new org.apache.hadoop.fs.Path(part.toUri()), new org.apache.hadoop.conf.Configuration()))) {
                        assertEquals(ParquetTableWriter.parquetSchema(t),
                                reader.getFooter().getFileMetaData().getSchema(), part.toString());
                    }
                }
            }
        }
        String marker = Files.readString(out.resolve("_SUCCESS"));
        assertTrue(marker.contains("\"tool\":\"ackscope\"") && marker.contains("\"connections\":"), marker);
    }

    private static List<String> typed(org.apache.spark.sql.types.StructType s) {
        List<String> l = new ArrayList<>();
        for (org.apache.spark.sql.types.StructField f : s.fields()) {
            l.add(f.name() + " " + f.dataType().simpleString());
        }
        return l;
    }

    @Test
    void packetsTableHasOneRowPerFrameWithTheSourceSchema() throws IOException {
        Path out = tmp.resolve("with-packets");
        RunSummary s = Analyze.run(spark, new Analyze.Options(List.of(files.get(0).toString()), out.toString(),
                false, true, 2), new PrintStream(OutputStream.nullOutputStream()), false);
        var packets = files(out.resolve("packets"));
        assertEquals(typed(SparkSchemas.of(PacketSchema.TABLE)), typed(packets.schema()));
        assertEquals(s.frames(), packets.count());
        assertEquals(s.frames(), packets.select("frame").distinct().count());
        assertEquals(s.frames(), s.tableRows().get("packets"));
        assertEquals(List.of("in"), packets.select("source").distinct().as(org.apache.spark.sql.Encoders.STRING())
                .collectAsList(), "the file's directory names its source");
    }

    @Test
    void latencyBucketsAreLogTwoMicroseconds() {
        assertEquals(0, LatencySummaryTable.bucket(0));
        assertEquals(1, LatencySummaryTable.bucket(1));
        assertEquals(2, LatencySummaryTable.bucket(2));
        assertEquals(2, LatencySummaryTable.bucket(3));
        assertEquals(3, LatencySummaryTable.bucket(4));
        assertEquals(16, LatencySummaryTable.bucket(40_000)); // 2^15 = 32768 <= 40 ms < 2^16
        assertEquals(LatencySummaryTable.BUCKETS - 1, LatencySummaryTable.bucket(Long.MAX_VALUE));
    }

    @Test
    void refusesANonEmptyOutputWithoutOverwriteAndReplacesAnEarlierRunWithIt() throws IOException {
        Path out = tmp.resolve("reused");
        Analyze.Options first = new Analyze.Options(List.of(files.get(0).toString()), out.toString(), false, false, 2);
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        Analyze.run(spark, first, quiet, false);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        IOException e = assertThrows(IOException.class, () -> Analyze.run(spark, first, quiet, false));
        assertTrue(e.getMessage().contains("--overwrite"), e.getMessage());
        Analyze.run(spark, new Analyze.Options(List.of(files.get(1).toString()), out.toString(), true, false, 2),
                quiet, false);
        List<Row> captured = spark.read().parquet(out.resolve("capture_files").toString()).collectAsList();
        assertEquals(1, captured.size());
        assertTrue(captured.get(0).getString(0).endsWith(files.get(1).getFileName().toString()));
        try (var s = Files.list(out)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(OutputDirectory.STAGING_PREFIX)));
        }
    }

    @Test
    void refusesToOverwriteADirectoryThatIsNotAnAckscopeOutput() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("foreign"));
        Files.writeString(out.resolve("thesis.tex"), "do not delete");
        IOException e = assertThrows(IOException.class, () -> Analyze.run(spark, new Analyze.Options(
                List.of(files.get(0).toString()), out.toString(), true, false, 2),
                new PrintStream(OutputStream.nullOutputStream()), false));
        assertTrue(e.getMessage().contains("not an ackscope output"), e.getMessage());
        assertTrue(Files.exists(out.resolve("thesis.tex")));
    }
}
