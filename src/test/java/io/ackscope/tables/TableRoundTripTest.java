package io.ackscope.tables;

import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tables package on its own, without Spark: rows written by {@link ParquetTableWriter} to a local file read back
 * by {@link TableReader} as they were set, over several pages and row groups, with nulls, empty lists and maps.
 */
class TableRoundTripTest {
    @TempDir
    Path tmp;

    private static final Column ID = new Column("id", ColumnType.LONG, false, "", "row number");
    private static final Column PORT = new Column("port", ColumnType.INT, true, "", "null every fifth row");
    private static final Column KIND = new Column("kind", ColumnType.STRING, true, "", "few values, some null");
    private static final Column WHEN = new Column("when", ColumnType.TIMESTAMP, false, "", "from nanoseconds");
    private static final Column OK = new Column("ok", ColumnType.BOOLEAN, false, "", "even rows");
    private static final Column GAPS = new Column("gaps", ColumnType.LONG_LIST, false, "µs", "0 to 2 values");
    private static final Column SKIPPED = new Column("skipped", ColumnType.STRING_LONG_MAP, false, "", "0 or 1 entry");
    private static final TableSchema T = new TableSchema("round_trip", "a table of every shape the report reads",
            List.of(ID, PORT, KIND, WHEN, OK, GAPS, SKIPPED));

    private static final int ROWS = 3 * ParquetTableWriter.PAGE_ROWS + 17;

    @Test
    void rowsWrittenAreTheRowsRead() throws IOException {
        Path file = tmp.resolve(T.name()).resolve("part-00000.parquet");
        Files.createDirectories(file.getParent());
        RowBuffer r = new RowBuffer(T);
        // 64 KB row groups: several of them, each of several pages
        try (ParquetTableWriter w = new ParquetTableWriter(T, new LocalOutputFile(file), ParquetFileWriter.Mode.CREATE,
                Map.of("written.by", "TableRoundTripTest"), 64 * 1024)) {
            for (int i = 0; i < ROWS; i++) {
                r.clear().setLong(0, i).setTimestampNanos(3, 1_700_000_000_000_000_000L + i * 1_500L)
                        .setBoolean(4, i % 2 == 0).setLongList(5, i % 3 == 0 ? new long[0] : new long[]{i, -i})
                        .setStringLongMap(6, i % 2 == 0 ? Map.of() : Map.of("UDP", (long) i));
                if (i % 5 != 0) {
                    r.setInt(1, 1024 + i % 7);
                }
                r.setString(2, i % 4 == 3 ? null : List.of("GET", "POST", "käse").get(i % 3));
                w.write(r);
            }
            assertEquals(ROWS, w.rows());
        }
        List<String> read = new ArrayList<>();
        int[] batches = {0};
        TableReader.scan(tmp, T, T.columns(), b -> {
            batches[0]++;
            TableReader.LongColumn id = b.longs(ID), port = b.longs(PORT), when = b.longs(WHEN), ok = b.longs(OK);
            for (int i = 0; i < b.rows; i++) {
                read.add(id.values[i] + "|" + (port.present[i] ? port.values[i] : "null") + "|"
                        + b.strings(KIND)[i] + "|" + when.values[i] + "|" + ok.values[i] + "|"
                        + Arrays.toString(b.longLists(GAPS)[i]) + "|" + b.maps(SKIPPED).get(i));
            }
        });
        assertTrue(batches[0] > 1, "several row groups: " + batches[0]);
        assertEquals(ROWS, read.size());
        for (int i = 0; i < ROWS; i++) {
            Map<String, Long> skipped = new LinkedHashMap<>();
            if (i % 2 != 0) {
                skipped.put("UDP", (long) i);
            }
            String expected = i + "|" + (i % 5 != 0 ? Integer.toString(1024 + i % 7) : "null") + "|"
                    + (i % 4 == 3 ? null : List.of("GET", "POST", "käse").get(i % 3)) + "|"
                    + (1_700_000_000_000_000L + i * 1_500L / 1000) + "|" + (i % 2 == 0 ? 1 : 0) + "|"
                    + Arrays.toString(i % 3 == 0 ? new long[0] : new long[]{i, -i}) + "|" + skipped;
            assertEquals(expected, read.get(i), "row " + i);
        }
    }

    @Test
    void aRequiredColumnLeftNullIsRefusedByName() throws IOException {
        Path file = tmp.resolve("refused.parquet");
        try (ParquetTableWriter w = new ParquetTableWriter(T, new LocalOutputFile(file), ParquetFileWriter.Mode.CREATE,
                Map.of(), ParquetTableWriter.ROW_GROUP_BYTES)) {
            RowBuffer r = new RowBuffer(T).clear().setLong(0, 1);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.write(r));
            assertEquals("round_trip.when is required but was not set", e.getMessage());
        }
    }

    @Test
    void aColumnNotAskedForIsNamedWhenTaken() throws IOException {
        Path file = tmp.resolve(T.name()).resolve("part-00000.parquet");
        Files.createDirectories(file.getParent());
        try (ParquetTableWriter w = new ParquetTableWriter(T, new LocalOutputFile(file), ParquetFileWriter.Mode.CREATE,
                Map.of(), ParquetTableWriter.ROW_GROUP_BYTES)) {
            w.write(new RowBuffer(T).clear().setLong(0, 7).setTimestampNanos(3, 0).setBoolean(4, true)
                    .setLongList(5, new long[0]).setStringLongMap(6, Map.of()));
        }
        List<String> errors = new ArrayList<>();
        TableReader.scan(tmp, T, List.of(ID), b -> {
            assertEquals(7, b.longs(ID).values[0]);
            errors.add(assertThrows(IllegalArgumentException.class, () -> b.strings(KIND)).getMessage());
        });
        assertEquals(List.of("column kind was not requested"), errors);
    }
}
