package io.ackscope.tables;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The one way the tests open an analyze output's tables in DuckDB, as docs/analysts.md tells analysts to: every
 * Parquet file below the table's directory ({@code **}{@code /*.parquet} also matches the files of a flat table),
 * Hive partitions as columns ({@code source} from the path, unescaped, equal to the files' own; {@code date}
 * added), files of different schema versions joined by column name.
 */
public final class DuckTables {
    private DuckTables() {
    }

    /** The {@code read_parquet(...)} table function over table {@code table} of the output {@code out}. */
    public static String scan(Path out, String table) {
        return scan(out.resolve(table));
    }

    /** As {@link #scan(Path, String)}, for a table directory. */
    public static String scan(Path tableDir) {
        String glob = tableDir.toAbsolutePath() + "/**/*.parquet";
        return "read_parquet('" + glob.replace("'", "''") + "', hive_partitioning = true, union_by_name = true)";
    }

    /**
     * The files' own rows of table {@code table} of {@code out}, without partition columns: what a reader that
     * knows nothing of partitions sees (the {@code source} column is in the files too).
     */
    public static String files(Path out, String table) {
        String glob = out.resolve(table).toAbsolutePath() + "/**/*.parquet";
        return "read_parquet('" + glob.replace("'", "''") + "', hive_partitioning = false, union_by_name = true)";
    }

    /** A view of each table of {@code out} (each directory not starting with {@code _}), in {@code schema}. */
    public static void views(Statement s, Path out, String schema) throws SQLException, IOException {
        s.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
        try (var tables = Files.list(out)) {
            for (Path t : tables.filter(Files::isDirectory).sorted().toList()) {
                String name = t.getFileName().toString();
                if (!name.startsWith("_") && !name.startsWith(".")) {
                    s.execute("CREATE OR REPLACE VIEW " + schema + "." + name + " AS SELECT * FROM " + scan(t));
                }
            }
        }
    }
}
