package io.ackscope.cli;

import io.ackscope.tables.DuckTables;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a hostile test compares before and after: every file of a directory (relative path to SHA-256 of its
 * bytes, links not followed) and the rows of a table as DuckDB counts them.
 */
final class OutputBytes {
    private OutputBytes() {
    }

    /** Relative path to the SHA-256 of each regular file below {@code dir}. */
    static Map<String, String> of(Path dir) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p));
                files.put(dir.relativize(p).toString(), HexFormat.of().formatHex(d));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return files;
    }

    /** The rows of table {@code table} of the output {@code out}, read by DuckDB from its Parquet files. */
    static long rows(Path out, String table) {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM " + DuckTables.scan(out, table))) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
