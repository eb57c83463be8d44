package io.ackscope.spark;

import io.ackscope.capture.Archive;
import io.ackscope.capture.RotatedArchive;
import io.ackscope.report.Report;
import io.ackscope.report.ReportData;
import io.ackscope.report.ReportFilter;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.ConnectionUid;
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
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze} on rotated cuts of a bundled capture (names in reverse time order, a wrapped ring, tcpdump
 * {@code -C} names, overlapping files, an exact copy, a missing file, two hosts with the same traffic) gives every
 * table of the uncut capture row for row, apart from the file and source columns, and the single-JVM reader of
 * the same archive ({@link io.ackscope.tcp.ArchiveFeeder}) gives the same rows.
 */
class ArchiveAnalyzeTest {
    /** Columns that name files or sources, which differ between an archive and the uncut capture. */
    /** Columns that depend on how the capture was cut and named: uid is derived from the source's name. */
    /** The peer columns name the other source (two hosts with the same traffic match each other's connections). */
    static final String[] FILE_COLUMNS = {"source", "uid", "first_file_index", "peer_source", "peer_stream",
            "peer_uid", "peer_match", "peer_ack_delay_us", "peer_server_turnaround_us"};

    @TempDir
    static Path tmp;
    static SparkSession spark;
    static RotatedArchive capture;
    static Path whole;
    static Path wholeOut;

    @BeforeAll
    static void setUp() throws IOException {
        spark = SparkTests.session("ArchiveAnalyzeTest");
        capture = RotatedArchive.read(SparkTests.sample("nginx-nodelay-off.pcap.gz"));
        whole = capture.write(tmp.resolve("whole/nginx.pcap"), 0, capture.frames()).getParent();
        wholeOut = analyze("whole", Archive.SourceRule.DIRECTORY, "128m", whole);
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    static Path analyze(String name, Archive.SourceRule rule, String maxPartitionBytes, Path... inputs)
            throws IOException {
        Path out = tmp.resolve("out-" + name);
        spark.conf().set("spark.sql.files.maxPartitionBytes", maxPartitionBytes);
        spark.conf().set("spark.sql.files.openCostInBytes", "1k");
        try {
            List<String> in = new ArrayList<>();
            for (Path p : inputs) {
                in.add(p.toString());
            }
            Analyze.run(spark, new Analyze.Options(in, out.toString(), false, false, 3, rule),
                    new PrintStream(OutputStream.nullOutputStream()), false);
        } finally {
            spark.conf().unset("spark.sql.files.maxPartitionBytes");
            spark.conf().unset("spark.sql.files.openCostInBytes");
        }
        return out;
    }

    /** A table's rows without the file and source columns (and without {@code also}), sorted, as text. */
    static List<String> rows(Path out, String table, String... also) {
        Dataset<Row> d = AnalyzeTest.files(spark, out.resolve(table)).drop(FILE_COLUMNS).drop(also);
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : d.collectAsList()) {
            rows.add(SparkTests.comparable(r));
        }
        return SparkTests.sortedText(rows);
    }

    static List<String> tables() {
        List<String> t = new ArrayList<>();
        for (TableSchema s : EngineTables.ALL) {
            t.add(s.name());
        }
        t.add(LatencySummaryTable.TABLE.name());
        t.add("findings");
        return t;
    }

    /** Every engine table, latency_summary and findings of {@code out} equals the uncut capture's. */
    static void assertSameAsWhole(Path out) {
        for (String t : tables()) {
            assertEquals(rows(wholeOut, t), rows(out, t), t);
        }
        assertUidsOfTheirSource(out);
    }

    /** Each connection's uid is {@link ConnectionUid}'s of its own row, and each child row's that of its connection. */
    static void assertUidsOfTheirSource(Path out) {
        Dataset<Row> conns = spark.read().parquet(out.resolve("connections").toString());
        for (Row r : conns.selectExpr("uid", "source", "client_ip", "client_port", "server_ip", "server_port",
                "unix_micros(first_time)").collectAsList()) {
            assertEquals(ConnectionUid.of(r.getString(1), r.getString(2), r.getInt(3), r.getString(4), r.getInt(5),
                    r.getLong(6)), r.getString(0));
        }
        conns.createOrReplaceTempView("uid_connections");
        for (TableSchema t : EngineTables.ALL.subList(1, EngineTables.ALL.size())) {
            if (!Files.isDirectory(out.resolve(t.name()))) {
                continue;
            }
            Dataset<Row> child = spark.read().parquet(out.resolve(t.name()).toString());
            child.createOrReplaceTempView("uid_child");
            assertEquals(child.count(), spark.sql("SELECT count(*) FROM uid_child x JOIN uid_connections c "
                    + "ON x.source = c.source AND x.stream = c.stream AND x.uid = c.uid AND x.server_ip = c.server_ip "
                    + "AND x.server_port = c.server_port").first().getLong(0), t.name());
        }
    }

    static Row source(Path out, String name) {
        return spark.read().parquet(out.resolve("sources").toString()).where("source = '" + name + "'").first();
    }

    @Test
    void theUncutCaptureIsNotTrivial() {
        assertEquals(21, spark.read().parquet(wholeOut.resolve("connections").toString()).count());
        assertTrue(spark.read().parquet(wholeOut.resolve("stalls").toString()).count() > 1000);
    }

    @Test
    void rotatedFilesWhoseNamesDoNotSortInTimeOrderGiveTheUncutTables() throws IOException {
        capture.write(tmp.resolve("reversed/host"), capture.pieces(8), RotatedArchive.reversed(8, "cap-", ".pcap"));
        assertSameAsWhole(analyze("reversed", Archive.SourceRule.DIRECTORY, "128m", tmp.resolve("reversed")));
        capture.write(tmp.resolve("ring/host"), capture.pieces(8), RotatedArchive.wrappedRing("ring.pcap", 8, 3));
        Path ring = analyze("ring", Archive.SourceRule.DIRECTORY, "16k", tmp.resolve("ring"));
        assertSameAsWhole(ring);
        capture.write(tmp.resolve("c/host"), capture.pieces(12), RotatedArchive.tcpdumpC("cap.pcap"));
        Path c = analyze("c", Archive.SourceRule.DIRECTORY, "128m", tmp.resolve("c"));
        assertSameAsWhole(c);
        Row s = source(c, "host");
        assertEquals(12, s.getInt(s.fieldIndex("files")));
        assertEquals(capture.frames(), s.getLong(s.fieldIndex("frames")));
        assertEquals(0, s.getInt(s.fieldIndex("gaps")));
        assertEquals(0, s.getLong(s.fieldIndex("duplicate_frames")));
    }

    @Test
    void framesTwoFilesBothHoldAreAnalysedOnceAndACopyIsSkipped() throws IOException {
        Path dir = tmp.resolve("overlap/host");
        List<int[]> pieces = RotatedArchive.overlapping(capture.pieces(8), 300);
        capture.write(dir, pieces, i -> "part" + i + ".pcap");
        Files.copy(dir.resolve("part2.pcap"), dir.resolve("part2.pcap.copy"));
        Path out = analyze("overlap", Archive.SourceRule.DIRECTORY, "16k", tmp.resolve("overlap"));
        assertSameAsWhole(out);
        Row s = source(out, "host");
        assertEquals(8, s.getInt(s.fieldIndex("files")));
        assertEquals(7 * 300, s.getLong(s.fieldIndex("duplicate_frames")));
        assertEquals(7, s.getInt(s.fieldIndex("overlapping_files")));
        assertEquals(capture.frames(), s.getLong(s.fieldIndex("frames")));
        assertEquals(1, s.getInt(s.fieldIndex("copies_skipped")));
        assertEquals(List.of("file:" + dir.resolve("part2.pcap.copy") + " = file:" + dir.resolve("part2.pcap")),
                s.getList(s.fieldIndex("copies")));
        List<Row> files = spark.read().parquet(out.resolve("capture_files").toString()).orderBy("file_index")
                .collectAsList();
        long base = 0;
        for (int i = 0; i < files.size(); i++) {
            Row f = files.get(i);
            assertEquals(base, f.getLong(f.fieldIndex("first_source_frame")), "file " + i);
            assertEquals(i == 0 ? 0 : 300, f.getLong(f.fieldIndex("duplicate_frames")), "file " + i);
            base += f.getLong(f.fieldIndex("frames")) - f.getLong(f.fieldIndex("duplicate_frames"));
        }
        assertEquals(capture.frames(), base);
        assertSingleJvmAgrees(out, tmp.resolve("overlap"));
    }

    @Test
    void aMissingFileIsAGapAndTheConnectionsAcrossItAreMarked() throws IOException {
        List<int[]> pieces = capture.pieces(8);
        Path dir = tmp.resolve("missing/host");
        Path rest = tmp.resolve("missing-rest/host/rest.pcap");
        List<Path> written = capture.write(dir, pieces, i -> "cap" + i + ".pcap");
        Files.delete(written.get(4));
        // the same frames in one file: what the archive must equal, but for the gap
        try (OutputStream o = Files.newOutputStream(Files.createDirectories(rest.getParent()).resolve("rest.pcap"))) {
            o.write(capture.file(0, pieces.get(4)[0]));
            byte[] after = capture.file(pieces.get(4)[1], capture.frames());
            o.write(after, 24, after.length - 24);
        }
        Path out = analyze("missing", Archive.SourceRule.DIRECTORY, "128m", tmp.resolve("missing"));
        Path restOut = analyze("missing-rest", Archive.SourceRule.DIRECTORY, "128m", rest.getParent());
        for (String t : tables()) {
            assertEquals(rows(restOut, t, "crosses_file_gap"), rows(out, t, "crosses_file_gap"), t);
        }
        Row s = source(out, "host");
        assertEquals(1, s.getInt(s.fieldIndex("gaps")));
        assertEquals(List.of(3), s.getList(s.fieldIndex("gap_after_files")));
        long crossing = spark.read().parquet(out.resolve("connections").toString()).where("crosses_file_gap").count();
        assertTrue(crossing > 0, "connections open across the missing file");
        assertEquals(0, spark.read().parquet(restOut.resolve("connections").toString()).where("crosses_file_gap")
                .count());
        assertSingleJvmAgrees(out, tmp.resolve("missing"));
    }

    @Test
    void twoHostsWithTheSameTrafficAreTwoSources() throws IOException {
        Path root = tmp.resolve("hosts");
        capture.write(root.resolve("hostA"), capture.pieces(8), RotatedArchive.reversed(8, "cap-", ".pcap"));
        capture.write(root.resolve("hostB"), capture.pieces(5), RotatedArchive.tcpdumpC("cap.pcap"));
        Path out = analyze("hosts", Archive.SourceRule.DIRECTORY, "16k", root);
        for (String t : tables()) {
            List<String> once = rows(wholeOut, t);
            List<String> twice = new ArrayList<>(once);
            twice.addAll(once);
            twice.sort(null);
            assertEquals(twice, rows(out, t), t);
            Map<String, Long> perSource = new TreeMap<>();
            for (Row r : spark.read().parquet(out.resolve(t).toString()).groupBy("source").count().collectAsList()) {
                perSource.put(r.getString(0), r.getLong(1));
            }
            assertEquals(once.isEmpty() ? Map.of() : Map.of("hostA", (long) once.size(), "hostB", (long) once.size()),
                    perSource, t);
        }
        Dataset<Row> streams = spark.read().parquet(out.resolve("connections").toString());
        // the same traffic at both: every connection matched, no delay between the points, no loss
        assertEquals(0, streams.where("peer_source IS NULL").count());
        Row pair = spark.read().parquet(out.resolve("source_pairs").toString()).first();
        assertEquals(List.of("hostA", "hostB", 0L, 0L, 0L, 0L, 0L, 0L), List.of(pair.getAs("source_a"),
                pair.getAs("source_b"), pair.getAs("clock_offset_us"), pair.getAs("clock_offset_error_us"),
                pair.getAs("one_way_a_to_b_p99_us"), pair.getAs("one_way_b_to_a_p99_us"), pair.getAs("lost_a_to_b"),
                pair.getAs("lost_b_to_a")));
        assertEquals(0, streams.where("source = 'hostB'").agg(org.apache.spark.sql.functions.min("stream"))
                .first().getLong(0), "stream numbers start at 0 in each source");
        assertFalse(rows(out, "sources").isEmpty());
        assertSingleJvmAgrees(out, root);
        // the hosts named one by one, in the other order, with another split size: the same tables, sources included
        Path reordered = analyze("hosts-reordered", Archive.SourceRule.DIRECTORY, "128m", root.resolve("hostB"),
                root.resolve("hostA"));
        for (String t : tables()) {
            assertEquals(allRows(out, t), allRows(reordered, t), t);
        }
    }

    static List<String> allRows(Path out, String table) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : spark.read().parquet(out.resolve(table).toString()).collectAsList()) {
            rows.add(SparkTests.comparable(r));
        }
        return SparkTests.sortedText(rows);
    }

    /**
     * The report's worst connections with their flow graphs (re-read from the files: frames numbered in the
     * source, duplicates skipped), without the file index of each arrow.
     */
    static List<String> flowGraphs(Path out, ReportFilter filter) throws IOException {
        ReportData d = Report.data(out, filter, true);
        List<String> l = new ArrayList<>();
        for (ReportData.Connection c : d.worstConnections()) {
            assertEquals(null, c.ladder().unavailable(), "flow graph of stream " + c.stream());
            l.add(c.stream() + " " + c.server() + " " + c.stalls() + " "
                    + c.ladder().rows().stream().map(r -> r.toString().replaceAll("fileIndex=\\d+, ", "")).toList());
        }
        return l;
    }

    @Test
    void theReportKeepsSourcesApartAndDrawsTheUncutFlowGraphs() throws IOException {
        Path root = tmp.resolve("report");
        capture.write(root.resolve("hostA"), RotatedArchive.overlapping(capture.pieces(8), 200),
                RotatedArchive.reversed(8, "cap-", ".pcap"));
        capture.write(root.resolve("hostB"), capture.pieces(3), RotatedArchive.tcpdumpC("cap.pcap"));
        Path out = analyze("report", Archive.SourceRule.DIRECTORY, "16k", root);
        List<String> whole = flowGraphs(wholeOut, ReportFilter.ALL);
        assertTrue(whole.size() >= 4 && whole.get(0).contains("HELD"), whole.toString());
        for (String host : List.of("hostA", "hostB")) {
            List<String> one = flowGraphs(out, ReportFilter.ALL.withSources(List.of(host)));
            // the same 21 connections, flow graphs and stall counts; the server is named with its source
            assertEquals(whole.size(), one.size(), host);
            for (int i = 0; i < whole.size(); i++) {
                assertTrue(whole.get(i).equals(one.get(i).replace(" at " + host + " ", " ")), host + " " + i);
            }
        }
        ReportData both = Report.data(out, ReportFilter.ALL, false);
        assertEquals(2, both.endpoints().size(), "the server seen from two capture points: " + both.endpoints());
        assertTrue(both.endpoints().get(0).server().endsWith(" at hostA")
                || both.endpoints().get(0).server().endsWith(" at hostB"), both.endpoints().get(0).server());
        assertEquals(both.endpoints().get(0).connections(), both.endpoints().get(1).connections());
        assertEquals(21, both.endpoints().get(0).connections());
    }

    /**
     * The single-JVM reader of the same inputs gives every engine table of {@code out}, row for row (the peer
     * columns, from matching sources with each other, are analyze's own).
     */
    static void assertSingleJvmAgrees(Path out, Path input) throws IOException {
        EngineReference ref = EngineReference.run(List.of(input));
        for (TableSchema t : EngineTables.ALL) {
            List<List<Object>> analyzed = new ArrayList<>();
            Dataset<Row> d = AnalyzeTest.files(spark, out.resolve(t.name()));
            if (t == EngineTables.CONNECTIONS || t == EngineTables.STALLS || t == EngineTables.EXCHANGES) {
                for (String peer : t == EngineTables.STALLS ? new String[]{"peer_ack_delay_us"}
                        : t == EngineTables.EXCHANGES ? new String[]{"peer_server_turnaround_us"}
                        : new String[]{"peer_source", "peer_stream", "peer_uid", "peer_match"}) {
                    d = d.withColumn(peer, org.apache.spark.sql.functions.lit(null).cast(d.schema().apply(peer)
                            .dataType()));
                }
            }
            for (Row r : d.collectAsList()) {
                analyzed.add(SparkTests.comparable(r));
            }
            assertEquals(SparkTests.sortedText(ref.rows.getOrDefault(t.name(), List.of())),
                    SparkTests.sortedText(analyzed), t.name());
        }
    }
}
