package io.ackscope.tables;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Test support: whether two analyze outputs hold the same tables, row for row, as an analyst would compare them
 * (the Java form of {@code bench/tables-equal.sh}). A table is a top-level directory of the output, not starting
 * with {@code _} or {@code .}, with Parquet files at any depth (flat or Hive-partitioned: the files are read with
 * {@code hive_partitioning=false}, so only the columns inside them count, and the partition directories may
 * differ). Tables must have the same columns (names and types, by name) and the same rows as a multiset: DuckDB's
 * {@code EXCEPT ALL} is empty both ways. Which files hold the rows does not matter.
 */
public final class SameRows {
    private SameRows() {
    }

    /**
     * The columns of {@code capture_files} that say how a run read each file, not what it holds: a run plans its
     * splits from the files it reads, so a run that adds one file to an earlier output reads it otherwise than a run
     * over every file. {@link #differences(Path, Path)} leaves them out.
     */
    public static final Set<String> HOW_READ = Set.of("capture_files.read_mode", "capture_files.whole_reason",
            "capture_files.splits", "capture_files.seek_frames", "capture_files.seek_offsets");

    /** The differences between outputs {@code a} and {@code b}, one line each; empty when they hold the same rows. */
    public static List<String> differences(Path a, Path b) throws IOException, SQLException {
        return differences(a, b, HOW_READ);
    }

    /** As {@link #differences(Path, Path)}, leaving out the tables ({@code name}) and columns ({@code table.column}) named in {@code skip}. */
    public static List<String> differences(Path a, Path b, Set<String> skip) throws IOException, SQLException {
        List<String> out = new ArrayList<>();
        Set<String> ta = tables(a);
        Set<String> tb = tables(b);
        Set<String> all = new TreeSet<>(ta);
        all.addAll(tb);
        all.removeAll(skip);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (String t : all) {
                if (!ta.contains(t) || !tb.contains(t)) {
                    out.add(t + ": only in " + (ta.contains(t) ? a : b));
                    continue;
                }
                String x = scan(a, t);
                String y = scan(b, t);
                Set<String> cx = columns(st, x);
                Set<String> cy = columns(st, y);
                if (!cx.equals(cy)) {
                    out.add(t + ": columns differ: " + cx + " | " + cy);
                    continue;
                }
                String list = String.join(", ", cx.stream().map(col -> col.substring(0, col.indexOf(' ')))
                        .filter(col -> !skip.contains(t + "." + col))
                        .map(col -> '"' + col.replace("\"", "\"\"") + '"').toList());
                long onlyA = count(st, "SELECT count(*) FROM (SELECT " + list + " FROM " + x + " EXCEPT ALL SELECT "
                        + list + " FROM " + y + ")");
                long onlyB = count(st, "SELECT count(*) FROM (SELECT " + list + " FROM " + y + " EXCEPT ALL SELECT "
                        + list + " FROM " + x + ")");
                if (onlyA != 0 || onlyB != 0) {
                    out.add(String.format("%s: %d rows only in the first (of %d), %d only in the second (of %d)",
                            t, onlyA, count(st, "SELECT count(*) FROM " + x), onlyB,
                            count(st, "SELECT count(*) FROM " + y)));
                }
            }
        }
        return out;
    }

    /** The output's tables: top-level directories holding Parquet files at any depth. */
    static Set<String> tables(Path dir) throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p) && !name.startsWith("_") && !name.startsWith(".") && hasParquet(p)) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    private static boolean hasParquet(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".parquet"));
        }
    }

    private static String scan(Path dir, String table) {
        return DuckTables.files(dir, table);
    }

    /** "name type" of every column, sorted by name, so that column order inside files does not matter. */
    private static Set<String> columns(Statement st, String scan) throws SQLException {
        Set<String> cols = new TreeSet<>();
        try (ResultSet r = st.executeQuery("DESCRIBE SELECT * FROM " + scan)) {
            while (r.next()) {
                cols.add(r.getString(1) + " " + r.getString(2));
            }
        }
        return cols;
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet r = st.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
