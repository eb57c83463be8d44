package io.ackscope.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
        assertEquals(16 * MB, ParquetTableWriter.rowGroupBytes(3072 * MB, 2));
        // 256 MB heap, 2 cores: 256 / 8 / 12 = 2.67 MB per writer, 32 MB for all twelve
        assertEquals(256 * MB / 8 / 12, ParquetTableWriter.rowGroupBytes(256 * MB, 2));
        assertEquals(MB, ParquetTableWriter.rowGroupBytes(64 * MB, 16));
        assertEquals(16 * MB, ParquetTableWriter.rowGroupBytes(64L * 1024 * MB, 0));
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
        try (ParquetTableWriter w = new ParquetTableWriter(ALL_TYPES, file, new Configuration(), MB)) {
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
        assertEquals(ALL_TYPES.sparkSchema().catalogString(), df.schema().catalogString());
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
        try (ParquetTableWriter w = new ParquetTableWriter(ALL_TYPES, file, new Configuration())) {
            RowBuffer r = new RowBuffer(ALL_TYPES);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.write(r));
            assertEquals("all_types.req_boolean is required but was not set", e.getMessage());
            assertEquals(0, w.rows());
        }
    }
}
