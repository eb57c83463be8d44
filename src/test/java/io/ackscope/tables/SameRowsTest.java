package io.ackscope.tables;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link SameRows} tells equal outputs from unequal ones, whatever the files' layout and column order. */
class SameRowsTest {

    private static void write(Path file, String select) throws Exception {
        Files.createDirectories(file.getParent());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet)");
        }
    }

    @Test
    void flatAndPartitionedOutputsOfTheSameRowsAreEqualAndAMissingRowIsNamed(@TempDir Path tmp) throws Exception {
        Path flat = tmp.resolve("flat");
        write(flat.resolve("connections/part-0.parquet"),
                "SELECT * FROM (VALUES ('a/b', 1, 10), ('a/b', 2, 20), ('c', 1, 30)) t(source, stream, bytes)");
        Path hive = tmp.resolve("hive");
        write(hive.resolve("connections/source=a%2Fb/date=2026-12-03/part-1.parquet"),
                "SELECT * FROM (VALUES (20, 2, 'a/b'), (10, 1, 'a/b')) t(bytes, stream, source)");
        write(hive.resolve("connections/source=c/date=2026-12-03/open-1.parquet"),
                "SELECT * FROM (VALUES ('c', 1, 30)) t(source, stream, bytes)");
        Files.createDirectories(hive.resolve("_ackscope_state/x"));
        write(hive.resolve("_ackscope_state/x/held.parquet"), "SELECT 1 AS junk");
        assertEquals(List.of(), SameRows.differences(flat, hive));

        Files.delete(hive.resolve("connections/source=c/date=2026-12-03/open-1.parquet"));
        write(hive.resolve("connections/source=c/date=2026-12-03/open-2.parquet"),
                "SELECT * FROM (VALUES ('c', 1, 31)) t(source, stream, bytes)");
        assertEquals(List.of("connections: 1 rows only in the first (of 3), 1 only in the second (of 3)"),
                SameRows.differences(flat, hive));

        write(hive.resolve("stalls/part-0.parquet"), "SELECT 1 AS stream");
        List<String> d = SameRows.differences(flat, hive);
        assertTrue(d.contains("stalls: only in " + hive), d.toString());
    }
}
