package io.ackscope.spark.commit;

import io.ackscope.spark.SparkTests;
import io.ackscope.spark.source.SparkSchemas;

import io.ackscope.tables.Column;
import io.ackscope.tables.ColumnType;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table writer: row-group sizing, dictionary choices, and a round trip through Spark's own Parquet reader of
 * every column type, required and nullable, with nulls, empty and multi-element lists and maps, over several row
 * groups.
 */
@Tag("slow")
class ParquetTableWriterTest {
    private static final long MB = 1024 * 1024;

    @TempDir
    static Path tmp;
    static SparkSession spark;

    @BeforeAll
    static void setUp() {
        spark = SparkTests.session("ParquetTableWriterTest");
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    @Test
    void rowGroupsShareAnEighthOfTheHeapAmongSixTablesPerCore() {
        assertEquals(4 * MB, ParquetTableWriter.rowGroupBytes(3072 * MB, 2));
        // 256 MB heap, 2 cores: 256 / 8 / 12 = 2.67 MB per writer, 32 MB for all twelve
        assertEquals(256 * MB / 8 / 12, ParquetTableWriter.rowGroupBytes(256 * MB, 2));
        assertEquals(MB, ParquetTableWriter.rowGroupBytes(64 * MB, 16));
        assertEquals(4 * MB, ParquetTableWriter.rowGroupBytes(64L * 1024 * MB, 0));
    }

    @Test
    void dictionariesOnlyForColumnsWithFewDistinctValues() {
        assertTrue(ParquetTableWriter.dictionaryEncoded(ColumnType.STRING));
        assertTrue(ParquetTableWriter.dictionaryEncoded(ColumnType.INT));
        assertFalse(ParquetTableWriter.dictionaryEncoded(ColumnType.LONG));
        assertFalse(ParquetTableWriter.dictionaryEncoded(ColumnType.TIMESTAMP));
        assertFalse(ParquetTableWriter.dictionaryEncoded(ColumnType.LONG_LIST));
    }

    /** Every type the writer takes, once required and once nullable. */
    static final TableSchema ALL_TYPES = new TableSchema("all_types", "every column type", allColumns());

    private static List<Column> allColumns() {
        List<Column> cols = new ArrayList<>();
        for (ColumnType t : ColumnType.values()) {
            if (t == ColumnType.SACK_BLOCKS) {
                continue;
            }
            String n = t.name().toLowerCase(java.util.Locale.ROOT);
            cols.add(new Column("req_" + n, t, false, null, "required " + n));
            cols.add(new Column("opt_" + n, t, true, null, "nullable " + n));
        }
        return cols;
    }

    /** Fills row {@code k}: nullable columns are null one row in three; lists and maps have 0 to 3 entries. */
    private static void fill(RowBuffer r, int k, Random rnd) {
        r.clear();
        List<Column> cols = ALL_TYPES.columns();
        for (int i = 0; i < cols.size(); i++) {
            Column c = cols.get(i);
            if (c.nullable() && (k + i) % 3 == 0) {
                continue;
            }
            int n = (k + i) % 4;
            switch (c.type()) {
                case BOOLEAN -> r.setBoolean(i, rnd.nextBoolean());
                case INT -> r.setInt(i, rnd.nextInt());
                case LONG -> r.setLong(i, rnd.nextLong());
                case DOUBLE -> r.setDouble(i, rnd.nextDouble() * 1e6);
                case STRING -> r.setString(i, k % 5 == 0 ? "" : (k % 2 == 0 ? "DATA_ACK" : "é-" + rnd.nextInt(100)));
                case BINARY -> {
                    byte[] b = new byte[n * 5];
                    rnd.nextBytes(b);
                    r.setBinary(i, b);
                }
                case TIMESTAMP -> r.setTimestampNanos(i, 1_700_000_000_000_000_000L + rnd.nextInt(1 << 30) * 1000L);
                case STRING_LIST -> {
                    List<String> l = new ArrayList<>();
                    for (int j = 0; j < n; j++) {
                        l.add("s" + rnd.nextInt(10));
                    }
                    r.setStringList(i, l);
                }
                case INT_LIST -> r.setIntList(i, rnd.ints(n).toArray());
                case LONG_LIST -> r.setLongList(i, rnd.longs(n).toArray());
                case STRING_LONG_MAP -> {
                    Map<String, Long> m = new LinkedHashMap<>();
                    for (int j = 0; j < n; j++) {
                        m.put("k" + j, rnd.nextLong());
                    }
                    r.setStringLongMap(i, m);
                }
                case SACK_BLOCKS -> throw new AssertionError();
            }
        }
    }

    @Test
    void everyTypeReadsBackThroughSparkAcrossRowGroups() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("all_types"));
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("part-00000.snappy.parquet").toUri());
        int rows = 60_000; // about 10 MB of values: several 1 MB row groups
        List<List<Object>> expected = new ArrayList<>(rows);
        RowBuffer r = new RowBuffer(ALL_TYPES);
        Random rnd = new Random(42);
        try (ParquetTableWriter w = TableFiles.writer(ALL_TYPES, file, new Configuration(), MB)) {
            for (int k = 0; k < rows; k++) {
                fill(r, k, rnd);
                w.write(r);
                expected.add(SparkTests.comparable(r));
            }
            assertEquals(rows, w.rows());
        }
        ParquetMetadata footer;
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            footer = reader.getFooter();
        }
        assertTrue(footer.getBlocks().size() > 1, "row groups: " + footer.getBlocks().size());
        assertEquals(rows, footer.getBlocks().stream().mapToLong(b -> b.getRowCount()).sum());
        assertFalse(Files.exists(dir.resolve(".part-00000.snappy.parquet.crc")), "no checksum side file");

        var df = spark.read().parquet(dir.toString());
        // Spark reads every file column back as nullable; the file's own schema keeps required and optional
        assertEquals(SparkSchemas.of(ALL_TYPES).catalogString(), df.schema().catalogString());
        assertEquals(ParquetTableWriter.parquetSchema(ALL_TYPES), footer.getFileMetaData().getSchema());
        List<List<Object>> actual = new ArrayList<>(rows);
        for (Row row : df.collectAsList()) {
            actual.add(SparkTests.comparable(row));
        }
        // one file, one task: rows come back in file order
        for (int k = 0; k < rows; k++) {
            assertEquals(expected.get(k), actual.get(k), "row " + k);
        }
    }

    @Test
    void aRequiredColumnNotSetIsRefused() throws IOException {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(tmp.resolve("refused.parquet").toUri());
        try (ParquetTableWriter w = TableFiles.writer(ALL_TYPES, file, new Configuration())) {
            RowBuffer r = new RowBuffer(ALL_TYPES);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.write(r));
            assertEquals("all_types.req_boolean is required but was not set", e.getMessage());
            assertEquals(0, w.rows());
        }
    }

    /**
     * Every page's min, max and null count in the column index, and every chunk's statistics in the footer, are
     * those of the values the page or chunk holds (worked out here from the rows written), for every flat column;
     * strings and ints are dictionary-encoded where that is smaller, and a column of distinct strings is not.
     */
    @Test
    void pageAndChunkStatisticsDescribeTheirOwnValues() throws IOException {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(tmp.resolve("stats.parquet").toUri());
        int rows = 50_000;
        List<Object[]> written = new ArrayList<>(rows);
        RowBuffer r = new RowBuffer(ALL_TYPES);
        Random rnd = new Random(7);
        try (ParquetTableWriter w = TableFiles.writer(ALL_TYPES, file, new Configuration(), MB)) {
            for (int k = 0; k < rows; k++) {
                fill(r, k, rnd);
                w.write(r);
                written.add(r.toObjects());
            }
        }
        List<Column> cols = ALL_TYPES.columns();
        int checkedPages = 0;
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            long blockStart = 0;
            for (org.apache.parquet.hadoop.metadata.BlockMetaData block : reader.getFooter().getBlocks()) {
                for (org.apache.parquet.hadoop.metadata.ColumnChunkMetaData chunk : block.getColumns()) {
                    String name = chunk.getPath().toDotString();
                    int c = ALL_TYPES.ordinal(name.split("\\.")[0]);
                    if (name.contains(".")) {
                        continue; // lists and maps: their values are checked by the Spark round trip
                    }
                    org.apache.parquet.internal.column.columnindex.ColumnIndex index = reader.readColumnIndex(chunk);
                    org.apache.parquet.internal.column.columnindex.OffsetIndex pages = reader.readOffsetIndex(chunk);
                    assertTrue(index != null && pages != null, name + ": page indexes");
                    for (int p = 0; p < pages.getPageCount(); p++) {
                        long from = blockStart + pages.getFirstRowIndex(p);
                        long to = blockStart + (p + 1 < pages.getPageCount() ? pages.getFirstRowIndex(p + 1)
                                : block.getRowCount());
                        Extremes e = Extremes.of(written, c, from, to, cols.get(c).type());
                        String where = name + " page " + p + " rows " + from + "-" + to;
                        assertEquals(e.nulls, index.getNullCounts().get(p), where + " nulls");
                        assertEquals(e.min == null, index.getNullPages().get(p), where + " null page");
                        if (e.min != null) {
                            assertEquals(e.min, decode(index.getMinValues().get(p), cols.get(c).type()), where + " min");
                            assertEquals(e.max, decode(index.getMaxValues().get(p), cols.get(c).type()), where + " max");
                        }
                        assertTrue(to - from <= ParquetTableWriter.PAGE_ROWS, where);
                        checkedPages++;
                    }
                    Extremes e = Extremes.of(written, c, blockStart, blockStart + block.getRowCount(),
                            cols.get(c).type());
                    org.apache.parquet.column.statistics.Statistics<?> st = chunk.getStatistics();
                    assertEquals(e.nulls, st.getNumNulls(), name + " chunk nulls");
                    if (e.min != null) {
                        assertEquals(e.min, decode(ByteBuffer.wrap(st.getMinBytes()), cols.get(c).type()), name);
                        assertEquals(e.max, decode(ByteBuffer.wrap(st.getMaxBytes()), cols.get(c).type()), name);
                    }
                    boolean dict = chunk.getEncodings().contains(org.apache.parquet.column.Encoding.PLAIN_DICTIONARY);
                    switch (cols.get(c).type()) {
                        // ~100 distinct strings; ints are random (all distinct): plain is smaller
                        case STRING -> assertTrue(dict, name + " " + chunk.getEncodings());
                        default -> assertFalse(dict, name + " " + chunk.getEncodings());
                    }
                }
                blockStart += block.getRowCount();
            }
        }
        assertTrue(checkedPages > 50, "pages checked: " + checkedPages);
    }

    @Test
    void distinctStringsAreWrittenPlainAndReadBack() throws IOException {
        TableSchema t = new TableSchema("distinct_strings", "distinct strings",
                List.of(new Column("s", ColumnType.STRING, false, null, "a string"),
                        new Column("n", ColumnType.INT, true, null, "a small int")));
        Path dir = Files.createDirectories(tmp.resolve("distinct_strings"));
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("part-00000.parquet").toUri());
        RowBuffer r = new RowBuffer(t);
        try (ParquetTableWriter w = TableFiles.writer(t, file, new Configuration())) {
            for (int k = 0; k < 30_000; k++) {
                r.clear().setString(0, "GET /item/" + k + "?q=" + "x".repeat(k % 50));
                if (k % 7 != 0) {
                    r.setInt(1, k % 5);
                }
                w.write(r);
            }
        }
        assertFalse(dictionaryEncoded(file, 0));
        assertTrue(dictionaryEncoded(file, 1));
        List<Row> back = spark.read().parquet(dir.toString()).collectAsList();
        assertEquals(30_000, back.size());
        for (int k = 0; k < back.size(); k++) {
            assertEquals("GET /item/" + k + "?q=" + "x".repeat(k % 50), back.get(k).getString(0));
            assertEquals(k % 7 == 0 ? null : k % 5, back.get(k).get(1));
        }
    }

    /**
     * The first page's test counts a string's UTF-8 bytes, not its chars: 5,000 strings of 45 chars and 125 bytes,
     * 4,500 of them distinct, pay for a dictionary only against their bytes; all distinct, they do not at all.
     */
    @Test
    void theDictionaryTestCountsTheStringsUtf8Bytes() throws IOException {
        TableSchema t = new TableSchema("wide_chars", "strings of 3-byte chars",
                List.of(new Column("some_repeated", ColumnType.STRING, false, null, "90 % distinct"),
                        new Column("distinct", ColumnType.STRING, false, null, "all distinct")));
        Path dir = Files.createDirectories(tmp.resolve("wide_chars"));
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("part-00000.parquet").toUri());
        RowBuffer r = new RowBuffer(t);
        String euros = "\u20ac".repeat(40);
        try (ParquetTableWriter w = TableFiles.writer(t, file, new Configuration())) {
            for (int k = 0; k < 5_000; k++) {
                w.write(r.clear().setString(0, euros + String.format("%05d", k % 4_500))
                        .setString(1, euros + String.format("%05d", k)));
            }
        }
        assertTrue(dictionaryEncoded(file, 0));
        assertFalse(dictionaryEncoded(file, 1));
        List<Row> back = spark.read().parquet(dir.toString()).collectAsList();
        assertEquals(5_000, back.size());
        for (int k = 0; k < back.size(); k++) {
            assertEquals(euros + String.format("%05d", k % 4_500), back.get(k).getString(0));
            assertEquals(euros + String.format("%05d", k), back.get(k).getString(1));
        }
    }

    /** As parquet-mr does: pages keep the dictionary until it outgrows its page, later pages of the chunk are plain. */
    @Test
    void aDictionaryThatOutgrowsItsPageFallsBackToPlainInTheSameChunk() throws IOException {
        TableSchema t = new TableSchema("fallback", "fallback",
                List.of(new Column("s", ColumnType.STRING, true, null, "a string")));
        Path dir = Files.createDirectories(tmp.resolve("fallback"));
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("part-00000.parquet").toUri());
        RowBuffer r = new RowBuffer(t);
        List<String> expected = new ArrayList<>();
        try (ParquetTableWriter w = TableFiles.writer(t, file, new Configuration(), 64 * MB)) {
            for (int k = 0; k < 80_000; k++) {
                // two pages of ten distinct values, then distinct 100-byte values: the dictionary passes 1 MB
                String v = k % 11 == 0 ? null : k < 2 * ParquetTableWriter.PAGE_ROWS ? "kind-" + k % 10
                        : String.format("%0100d", k);
                r.clear();
                if (v != null) {
                    r.setString(0, v);
                }
                w.write(r);
                expected.add(v);
            }
        }
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            assertEquals(1, reader.getFooter().getBlocks().size());
            var chunk = reader.getFooter().getBlocks().get(0).getColumns().get(0);
            assertTrue(chunk.getEncodings().contains(org.apache.parquet.column.Encoding.PLAIN_DICTIONARY),
                    chunk.getEncodings().toString());
            assertTrue(chunk.getEncodings().contains(org.apache.parquet.column.Encoding.PLAIN),
                    chunk.getEncodings().toString());
            assertEquals(80_000 / 11 + 1, chunk.getStatistics().getNumNulls());
        }
        List<Row> back = spark.read().parquet(dir.toString()).collectAsList();
        assertEquals(expected.size(), back.size());
        for (int k = 0; k < back.size(); k++) {
            assertEquals(expected.get(k), back.get(k).getString(0), "row " + k);
        }
    }

    /** Whether column {@code c}'s chunk in the file's first row group has dictionary-encoded pages. */
    private static boolean dictionaryEncoded(org.apache.hadoop.fs.Path file, int c) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            return reader.getFooter().getBlocks().get(0).getColumns().get(c).getEncodings()
                    .contains(org.apache.parquet.column.Encoding.PLAIN_DICTIONARY);
        }
    }

    /** Min, max (as comparable Java values) and null count of column {@code c} over rows {@code [from, to)}. */
    private record Extremes(Object min, Object max, long nulls) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        static Extremes of(List<Object[]> rows, int c, long from, long to, ColumnType type) {
            Object min = null, max = null;
            long nulls = 0;
            for (long k = from; k < to; k++) {
                Object v = rows.get((int) k)[c];
                if (v == null) {
                    nulls++;
                    continue;
                }
                Comparable cv = type == ColumnType.BINARY ? new Unsigned((byte[]) v)
                        : type == ColumnType.STRING ? new Unsigned(((String) v).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        : (Comparable) v;
                if (min == null || cv.compareTo(min) < 0) {
                    min = cv;
                }
                if (max == null || cv.compareTo(max) > 0) {
                    max = cv;
                }
            }
            return new Extremes(min, max, nulls);
        }
    }

    /** Bytes ordered as Parquet orders BINARY and UTF-8 values: unsigned lexicographic. */
    private record Unsigned(byte[] b) implements Comparable<Unsigned> {
        @Override
        public int compareTo(Unsigned o) {
            return java.util.Arrays.compareUnsigned(b, o.b);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Unsigned u && java.util.Arrays.equals(b, u.b);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(b);
        }

        @Override
        public String toString() {
            return java.util.Arrays.toString(b);
        }
    }

    private static Object decode(ByteBuffer b, ColumnType type) {
        ByteBuffer le = b.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        return switch (type) {
            case BOOLEAN -> le.get(0) != 0;
            case INT -> le.getInt(0);
            case LONG, TIMESTAMP -> le.getLong(0);
            case DOUBLE -> le.getDouble(0);
            case STRING, BINARY -> {
                byte[] bytes = new byte[le.remaining()];
                le.duplicate().get(bytes);
                yield new Unsigned(bytes);
            }
            default -> throw new AssertionError(type);
        };
    }
}
