package io.ackscope.tables;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LongColumnRewrite} on files of {@link ParquetTableWriter}: the copy holds the rows of a file written with the
 * mapped values, in the same row groups as the file it copies, every other column chunk copied as it was, and the
 * mapped column's statistics those of the mapped values.
 */
class LongColumnRewriteTest {
    @TempDir
    Path tmp;

    private static final Column KEY = new Column("key", ColumnType.LONG, false, "", "first-appearance key");
    private static final Column PORT = new Column("port", ColumnType.INT, true, "", "null every fifth row");
    private static final Column KIND = new Column("kind", ColumnType.STRING, false, "", "few values");
    private static final Column GAPS = new Column("gaps", ColumnType.LONG_LIST, false, "µs", "0 to 2 values");
    private static final TableSchema T = new TableSchema("rewritten", "a table whose key column is mapped",
            List.of(KEY, PORT, KIND, GAPS));

    private static final int ROWS = 3 * ParquetTableWriter.PAGE_ROWS + 17;
    /** Keys as analyze's single pass writes them (file index above 40 bits of frame number), not in order. */
    private static final LongUnaryOperator KEY_OF = i -> (3L << 40) | ((i * 7919) % ROWS) * 3 + 5;
    /** Their ranks: keys are distinct and ascend with (i * 7919) % ROWS. */
    private static final LongUnaryOperator RANK = k -> ((k & ((1L << 40) - 1)) - 5) / 3;

    private Path write(String dir, LongUnaryOperator keyOfRow) throws IOException {
        Path file = tmp.resolve(dir).resolve(T.name()).resolve("part-00000.snappy.parquet");
        Files.createDirectories(file.getParent());
        RowBuffer r = new RowBuffer(T);
        try (ParquetTableWriter w = new ParquetTableWriter(T, new LocalOutputFile(file), ParquetFileWriter.Mode.CREATE,
                Map.of("written.by", "LongColumnRewriteTest"), 64 * 1024)) {
            for (int i = 0; i < ROWS; i++) {
                r.clear().setLong(0, keyOfRow.applyAsLong(i)).setString(2, List.of("GET", "POST", "käse").get(i % 3))
                        .setLongList(3, i % 3 == 0 ? new long[0] : new long[]{i, -i});
                if (i % 5 != 0) {
                    r.setInt(1, 1024 + i % 7);
                }
                w.write(r);
            }
        }
        return file;
    }

    private List<String> rows(String dir) throws IOException {
        List<String> out = new ArrayList<>();
        TableReader.scan(tmp.resolve(dir), T, T.columns(), b -> {
            TableReader.LongColumn key = b.longs(KEY), port = b.longs(PORT);
            for (int i = 0; i < b.rows; i++) {
                out.add(key.values[i] + "|" + (port.present[i] ? port.values[i] : "null") + "|" + b.strings(KIND)[i]
                        + "|" + java.util.Arrays.toString(b.longLists(GAPS)[i]));
            }
        });
        return out;
    }

    private static ParquetMetadata footer(Path file) throws IOException {
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
            return r.getFooter();
        }
    }

    @Test
    void theCopyHoldsTheMappedRowsInTheSameRowGroups() throws IOException {
        Path keyed = write("keyed", KEY_OF);
        write("ranked", i -> RANK.applyAsLong(KEY_OF.applyAsLong(i)));
        Path copy = tmp.resolve("copy").resolve(T.name()).resolve("part-00000.snappy.parquet");
        Files.createDirectories(copy.getParent());
        LongColumnRewrite.rewrite(new LocalInputFile(keyed), new LocalOutputFile(copy), "key", RANK);

        List<String> expected = rows("ranked");
        assertEquals(ROWS, expected.size());
        assertEquals(expected, rows("copy"));
        assertEquals("0", expected.get(0).split("\\|")[0], "row 0's key ranks first");

        ParquetMetadata before = footer(keyed), after = footer(copy);
        assertTrue(before.getBlocks().size() > 1, "several row groups: " + before.getBlocks().size());
        assertEquals(before.getBlocks().size(), after.getBlocks().size());
        assertEquals(before.getFileMetaData().getKeyValueMetaData(), after.getFileMetaData().getKeyValueMetaData());
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (int b = 0; b < before.getBlocks().size(); b++) {
            BlockMetaData was = before.getBlocks().get(b), is = after.getBlocks().get(b);
            assertEquals(was.getRowCount(), is.getRowCount());
            for (int c = 0; c < was.getColumns().size(); c++) {
                ColumnChunkMetaData x = was.getColumns().get(c), y = is.getColumns().get(c);
                assertEquals(x.getPath(), y.getPath());
                if (c == 0) {
                    min = Math.min(min, (Long) y.getStatistics().genericGetMin());
                    max = Math.max(max, (Long) y.getStatistics().genericGetMax());
                    assertEquals(was.getRowCount(), y.getValueCount());
                } else {
                    assertEquals(x.getTotalSize(), y.getTotalSize(), x.getPath() + " copied as it was");
                    assertEquals(x.getStatistics(), y.getStatistics());
                    assertEquals(x.getEncodings(), y.getEncodings());
                }
            }
        }
        assertEquals(0, min);
        assertEquals(ROWS - 1, max);
    }

    @Test
    void onlyARequiredLongColumnIsMapped() throws IOException {
        Path keyed = write("keyed", KEY_OF);
        Path copy = tmp.resolve("refused.parquet");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LongColumnRewrite.rewrite(
                new LocalInputFile(keyed), new LocalOutputFile(copy), "port", RANK));
        assertTrue(e.getMessage().endsWith("port is not a required INT64 column"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LongColumnRewrite.rewrite(
                new LocalInputFile(keyed), new LocalOutputFile(copy), "stream", RANK));
        assertTrue(e.getMessage().endsWith("has no column stream"), e.getMessage());
    }
}
