package io.ackscope.report;

import io.ackscope.tables.Column;
import io.ackscope.tables.ColumnType;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scans opened together (the report's prefetch) read what one scan at a time reads, and stop when closed. */
class TableReaderTest {

    @TempDir
    Path tmp;

    /** The example table of {@link #exampleTable}. */
    private static final TableSchema T = new TableSchema("t", "parquet-mr's example writer", List.of(
            new Column("a", ColumnType.LONG, false, "", ""), new Column("b", ColumnType.LONG, true, "", ""),
            new Column("c", ColumnType.INT, false, "", ""), new Column("d", ColumnType.INT, true, "", ""),
            new Column("few", ColumnType.STRING, true, "", ""), new Column("many", ColumnType.STRING, true, "", ""),
            new Column("word", ColumnType.STRING, false, "", "")));
    private static final Column NO_SUCH_COLUMN = new Column("no_such_column", ColumnType.LONG, true, "", "");

    private static List<Column> columns(List<String> names) {
        return names.stream().map(T::column).toList();
    }

    /** The rows of {@code columns} (scalar long and string columns) as text, in table order. */
    private static List<String> rows(TableReader.Scan scan, TableSchema t, List<String> longs, List<String> strings)
            throws IOException {
        List<String> out = new ArrayList<>();
        scan.forEach(b -> {
            for (int i = 0; i < b.rows; i++) {
                StringBuilder sb = new StringBuilder();
                for (String c : longs) {
                    TableReader.LongColumn l = b.longs(t.column(c));
                    sb.append(l.present[i] ? Long.toString(l.values[i]) : "null").append('|');
                }
                for (String c : strings) {
                    sb.append(b.strings(t.column(c))[i]).append('|');
                }
                out.add(sb.toString());
            }
        });
        return out;
    }

    /**
     * A table of {@code copies} part files, each a copy of one part of {@code table} of the latency capture's
     * output: more row groups than a scan decodes ahead.
     */
    private Path copiedTable(TableSchema table, int copies) throws IOException {
        return copiedTable(table, copies, "tables-" + copies);
    }

    private Path copiedTable(TableSchema schema, int copies, String dirName) throws IOException {
        String table = schema.name();
        Path src = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY).resolve(table);
        Path part = null;     // the largest of its files, flat or partitioned
        for (Path p : io.ackscope.tables.HiveLayout.files(src)) {
            part = part == null || Files.size(p) > Files.size(part) ? p : part;
        }
        assertTrue(part != null, "no Parquet file in " + src);
        Path dir = tmp.resolve(dirName);
        Files.createDirectories(dir.resolve(table));
        for (int i = 0; i < copies; i++) {
            Files.copy(part, dir.resolve(table).resolve(String.format("part-%05d.parquet", i)));
        }
        return dir;
    }

    /**
     * A table written by parquet-mr's own example writer (not ackscope's): {@code rows} rows in pages of 2 KB and
     * row groups of 64 KB, with a 1 KB dictionary page, so that dictionaries fill up and fall back to PLAIN (or, in
     * version-2 files, to the DELTA encodings, which the page decoder leaves to parquet-mr), and optional columns
     * that are null every third row.
     */
    private Path exampleTable(String name, org.apache.parquet.column.ParquetProperties.WriterVersion version, int rows)
            throws IOException {
        org.apache.parquet.schema.MessageType schema = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
                "message t { required int64 a; optional int64 b; required int32 c; optional int32 d;"
                        + " optional binary few (UTF8); optional binary many (UTF8); required binary word (UTF8); }");
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir.resolve("t"));
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("t/part-00000.parquet").toUri());
        org.apache.parquet.example.data.simple.SimpleGroupFactory groups =
                new org.apache.parquet.example.data.simple.SimpleGroupFactory(schema);
        java.util.Random random = new java.util.Random(7);
        try (org.apache.parquet.hadoop.ParquetWriter<org.apache.parquet.example.data.Group> w =
                     org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(file).withType(schema)
                             .withWriterVersion(version).withPageSize(2048).withDictionaryPageSize(1024)
                             .withRowGroupSize(64 * 1024L).withDictionaryEncoding(true)
                             .withCompressionCodec(org.apache.parquet.hadoop.metadata.CompressionCodecName.SNAPPY)
                             .withConf(new org.apache.hadoop.conf.Configuration(false)).build()) {
            for (int i = 0; i < rows; i++) {
                org.apache.parquet.example.data.Group g = groups.newGroup();
                g.add("a", random.nextLong());
                if (i % 3 != 0) {
                    g.add("b", (long) (i % 50) - 25);
                }
                g.add("c", i < rows / 2 ? i % 7 : random.nextInt());
                if (i % 3 != 1) {
                    g.add("d", -i);
                }
                if (i % 3 != 2) {
                    g.add("few", List.of("GET", "POST", "HEAD", "käse").get(i % 4));
                    g.add("many", "/path/" + i + "?q=" + random.nextInt(1000));
                }
                g.add("word", i % 11 == 0 ? "" : "w" + (i % 300));
                w.write(g);
            }
        }
        return dir;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(org.apache.parquet.column.ParquetProperties.WriterVersion.class)
    void pageDecodingReadsWhatParquetMrReads(org.apache.parquet.column.ParquetProperties.WriterVersion version)
            throws IOException {
        int rows = 30_000;
        Path dir = exampleTable("example-" + version, version, rows);
        List<String> longs = List.of("a", "b", "c", "d");
        List<String> strings = List.of("few", "many", "word");
        List<String> all = new ArrayList<>(longs);
        all.addAll(strings);
        List<String> fast;
        List<String> slow;
        try (TableReader.Scan s = TableReader.open(dir, T, columns(all), List.of(), true)) {
            fast = rows(s, T, longs, strings);
        }
        try (TableReader.Scan s = TableReader.open(dir, T, columns(all), List.of(), false)) {
            slow = rows(s, T, longs, strings);
        }
        assertEquals(rows, slow.size());
        // the values written: nulls, a non-ASCII string, the empty string
        assertTrue(slow.get(0).matches("-?\\d+\\|null\\|0\\|0\\|GET\\|/path/0\\?q=\\d+\\|\\|"), slow.get(0));
        assertTrue(slow.get(1).matches("-?\\d+\\|-24\\|1\\|null\\|POST\\|/path/1\\?q=\\d+\\|w1\\|"), slow.get(1));
        assertTrue(slow.get(3).matches("-?\\d+\\|null\\|3\\|-3\\|käse\\|/path/3\\?q=\\d+\\|w3\\|"), slow.get(3));
        assertTrue(slow.get(2).endsWith("|-23|2|-2|null|null|w2|"), slow.get(2));
        for (int i = 0; i < rows; i++) {
            assertEquals(slow.get(i), fast.get(i), "row " + i);
        }
    }

    @Test
    void optionalColumnsAreReadWhereAPartFileHasThem() throws IOException {
        Path dir = exampleTable("example-optional",
                org.apache.parquet.column.ParquetProperties.WriterVersion.PARQUET_1_0, 3_000);
        List<String> asRequired;
        try (TableReader.Scan s = TableReader.open(dir, T, columns(List.of("a", "b")))) {
            asRequired = rows(s, T, List.of("a", "b"), List.of());
        }
        List<String> asOptional = new ArrayList<>();
        int[] batches = {0};
        TableReader.scan(dir, T, columns(List.of("a")), List.of(T.column("b"), NO_SUCH_COLUMN), batch -> {
            assertTrue(batch.has(T.column("a")) && batch.has(T.column("b")), "the columns the file has");
            assertFalse(batch.has(NO_SUCH_COLUMN), "a column the file does not have");
            batches[0]++;
            for (int i = 0; i < batch.rows; i++) {
                TableReader.LongColumn a = batch.longs(T.column("a")), b = batch.longs(T.column("b"));
                asOptional.add(a.values[i] + "|" + (b.present[i] ? Long.toString(b.values[i]) : "null") + "|");
            }
        });
        assertTrue(batches[0] > 1, "row groups: " + batches[0]);
        assertEquals(asRequired, asOptional);
    }

    /**
     * A Hive-partitioned table ({@code source=.../date=.../}) is read file by file in path order, provisional rows
     * ({@code open-*}) included; hidden entries ({@code _*}, {@code .*}, with all they hold) and non-Parquet files
     * are not read.
     */
    @Test
    void partitionedTablesAreReadInPathOrderSkippingHiddenEntries() throws IOException {
        TableSchema table = Tables.CONNECTIONS;
        List<String> longs = List.of("stream", "client_port");
        Path stalling = onlyPart(AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY).resolve(table.name()));
        Path fixed = onlyPart(AnalyzedCaptures.tables(AnalyzedCaptures.GOOD).resolve(table.name()));
        Path dir = tmp.resolve("partitioned");
        Path t = dir.resolve(table.name());
        Path a = Files.createDirectories(t.resolve("source=a%2Fb").resolve("date=2026-12-02"));
        Path b = Files.createDirectories(t.resolve("source=b").resolve("date=2026-12-01"));
        Files.copy(fixed, b.resolve("part-00000.parquet"));
        Files.copy(stalling, a.resolve("part-00000.parquet"));
        Files.copy(fixed, a.resolve("open-00000.parquet"));
        Files.copy(fixed, Files.createDirectories(t.resolve("_temporary").resolve("0")).resolve("p.parquet"));
        Files.copy(fixed, a.resolve(".part-00001.parquet"));
        Files.copy(fixed, Files.createDirectories(a.resolve("_staging")).resolve("part-00002.parquet"));
        Files.writeString(a.resolve("_SUCCESS"), "");
        Files.writeString(a.resolve("notes.txt"), "not a table file");
        List<String> expected = new ArrayList<>();
        for (Path p : List.of(fixed, stalling, fixed)) {     // open- before part-, a%2Fb before b
            Path one = tmp.resolve("one");
            Files.createDirectories(one.resolve(table.name()));
            Files.copy(p, one.resolve(table.name()).resolve("part-00000.parquet"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            try (TableReader.Scan s = TableReader.open(one, table, Tables.CONNECTIONS_COLUMNS)) {
                expected.addAll(rows(s, table, longs, List.of()));
            }
        }
        try (TableReader.Scan s = TableReader.open(dir, table, Tables.CONNECTIONS_COLUMNS)) {
            assertEquals(expected, rows(s, table, longs, List.of()));
        }
        assertEquals(expected.size(), TableReader.rows(dir, table));
        assertTrue(TableReader.exists(dir, table));
    }

    /** The one Parquet file of a small table, flat or partitioned. */
    private static Path onlyPart(Path tableDir) throws IOException {
        List<Path> parts = io.ackscope.tables.HiveLayout.files(tableDir);
        assertEquals(1, parts.size(), parts.toString());
        return parts.get(0);
    }

    @Test
    void scansOpenedTogetherReadTheirTablesWhateverTheOrderOfConsuming() throws IOException {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        List<String> rttLongs = List.of("stream", "closing_time", "rtt_us");
        List<String> ackLongs = List.of("stream", "ack_time", "ack_delay_us");
        List<String> alone = new ArrayList<>();
        List<String> aloneAcks = new ArrayList<>();
        try (TableReader.Scan s = TableReader.open(dir, Tables.RTT_SAMPLES, Tables.RTT_SAMPLES_COLUMNS)) {
            alone.addAll(rows(s, Tables.RTT_SAMPLES, rttLongs, List.of("kind")));
        }
        try (TableReader.Scan s = TableReader.open(dir, Tables.ACK_DELAYS, Tables.ACK_DELAYS_COLUMNS)) {
            aloneAcks.addAll(rows(s, Tables.ACK_DELAYS, ackLongs, List.of("acking_side", "method", "ack_class")));
        }
        assertTrue(alone.size() > 100, "rtt_samples rows: " + alone.size());
        assertTrue(aloneAcks.size() > 10, "ack_delays rows: " + aloneAcks.size());
        try (TableReader.Scan rtt = TableReader.open(dir, Tables.RTT_SAMPLES, Tables.RTT_SAMPLES_COLUMNS);
             TableReader.Scan acks = TableReader.open(dir, Tables.ACK_DELAYS, Tables.ACK_DELAYS_COLUMNS)) {
            // the second one opened is consumed first, while the first one's decoder waits with its row groups
            assertEquals(aloneAcks,
                    rows(acks, Tables.ACK_DELAYS, ackLongs, List.of("acking_side", "method", "ack_class")));
            assertEquals(alone, rows(rtt, Tables.RTT_SAMPLES, rttLongs, List.of("kind")));
        }
    }

    @Test
    void aScanOfManyRowGroupsReadsThemAllInOrder() throws IOException {
        Path dir = copiedTable(Tables.RTT_SAMPLES, 2 * TableReader.AHEAD + 3);
        List<String> one;
        try (TableReader.Scan s = TableReader.open(copiedTable(Tables.RTT_SAMPLES, 1),
                Tables.RTT_SAMPLES, Tables.RTT_SAMPLES_COLUMNS)) {
            one = rows(s, Tables.RTT_SAMPLES, List.of("stream", "rtt_us"), List.of("kind"));
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 2 * TableReader.AHEAD + 3; i++) {
            expected.addAll(one);
        }
        assertTrue(one.size() > 10, "rows in one part: " + one.size());
        try (TableReader.Scan s = TableReader.open(dir, Tables.RTT_SAMPLES, Tables.RTT_SAMPLES_COLUMNS)) {
            List<String> got = rows(s, Tables.RTT_SAMPLES, List.of("stream", "rtt_us"), List.of("kind"));
            assertEquals(expected.size(), got.size());
            assertTrue(expected.equals(got), "rows differ from the part file's, repeated");
        }
    }

    @Test
    void closingAScanThatWasNotConsumedStopsItsDecoder() throws Exception {
        Path dir = copiedTable(Tables.ACK_DELAYS, 2 * TableReader.AHEAD + 3);
        String name = "ackscope-table-reader-" + Tables.ACK_DELAYS.name();
        TableReader.Scan s = TableReader.open(dir, Tables.ACK_DELAYS, Tables.ACK_DELAYS_COLUMNS);
        Thread decoder = null;
        long deadline = System.nanoTime() + 30_000_000_000L;
        // more row groups than fit ahead: the decoder fills the queue and then waits in put() for a consumer
        while (decoder == null || !waitsToHandOver(decoder)) {
            assertTrue(System.nanoTime() < deadline, "no decoder thread " + name + " waiting in put()");
            decoder = null;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals(name)) {
                    decoder = t;
                }
            }
            Thread.onSpinWait();
        }
        s.close();
        decoder.join(30_000);
        assertFalse(decoder.isAlive(), "the decoder still runs after close");
    }

    /** Whether {@code t} is parked in a blocking queue's put: it has a batch and no room to hand it over. */
    private static boolean waitsToHandOver(Thread t) {
        if (t.getState() != Thread.State.WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getMethodName().equals("put") && e.getClassName().endsWith("BlockingQueue")) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aDamagedPartFileIsNamedByItsPathInTheError() throws IOException {
        Path dir = copiedTable(Tables.ACK_DELAYS, 2, "damaged");
        Path part = dir.resolve(Tables.ACK_DELAYS.name()).resolve("part-00001.parquet");
        byte[] good = Files.readAllBytes(part);
        // cut short: no footer magic at the end
        Files.write(part, java.util.Arrays.copyOf(good, 300));
        IOException cut = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> TableReader.scan(dir, Tables.ACK_DELAYS, Tables.ACK_DELAYS_COLUMNS, b -> { }));
        assertTrue(cut.getMessage().startsWith(part + " is not a Parquet file"), cut.getMessage());
        assertFalse(cut.getMessage().contains("LocalInputFile@"), cut.getMessage());
        // the footer's metadata scrambled, its length and magic intact: Parquet's message names no file
        byte[] scrambled = good.clone();
        int footerLength = java.nio.ByteBuffer.wrap(good, good.length - 8, 4)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        for (int i = good.length - 8 - footerLength; i < good.length - 8; i++) {
            scrambled[i] ^= 0x5a;
        }
        Files.write(part, scrambled);
        IOException bad = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> TableReader.scan(dir, Tables.ACK_DELAYS, Tables.ACK_DELAYS_COLUMNS, b -> { }));
        assertTrue(bad.getMessage().startsWith(part + ": damaged Parquet file (table " + Tables.ACK_DELAYS.name()
                        + "): "),
                bad.getMessage());
    }
}
