package io.ackscope.spark;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Row-group sizing and dictionary choices of the table writer. */
class ParquetTableWriterTest {
    private static final long MB = 1024 * 1024;

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
}
