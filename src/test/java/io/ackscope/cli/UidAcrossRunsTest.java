package io.ackscope.cli;

import io.ackscope.tables.DuckTables;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.TableSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two {@code analyze} runs over overlapping inputs of one capture source (files A+B, then B+C: three lab captures
 * in one directory, so B's connections are numbered after A's in the first run and from 0 in the second) combine
 * by {@code uid} as an analyst would, with DuckDB over both outputs' Parquet files.
 */
class UidAcrossRunsTest {

    private static final String[] A_B_C = {"lab-cause-zero-window", "lab-cause-server-slow", "lab-cause-network-delay"};
    private static Path first;
    private static Path second;

    @BeforeAll
    static void analyzeTwice(@TempDir Path dir) throws Exception {
        first = analyze(dir, "run1", A_B_C[0], A_B_C[1]);
        second = analyze(dir, "run2", A_B_C[1], A_B_C[2]);
    }

    /** Copies the named samples into {@code dir/run/cap/} (source {@code cap}) and analyses that directory. */
    private static Path analyze(Path dir, String run, String... samples) throws Exception {
        Path cap = Files.createDirectories(dir.resolve(run).resolve("cap"));
        for (String s : samples) {
            Files.copy(Path.of("sample-pcaps", s + ".pcap.gz"), cap.resolve(s + ".pcap.gz"));
        }
        Path out = dir.resolve(run + "-out");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[]{"analyze", dir.resolve(run).toString(), "--out", out.toString()}, ps,
                ps), buf.toString(StandardCharsets.UTF_8));
        return out;
    }

    /** DuckDB with {@code t1}/{@code t2} views of each engine table {@code t} of the two outputs. */
    private static List<List<String>> query(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
            for (TableSchema t : EngineTables.ALL) {
                for (int run = 1; run <= 2; run++) {
                    Path table = (run == 1 ? first : second).resolve(t.name());
                    String from = Files.isDirectory(table)
                            ? DuckTables.scan(table)
                            : "(SELECT * FROM " + DuckTables.scan(first, "connections") + " LIMIT 0)";
                    s.execute("CREATE VIEW " + t.name() + run + " AS SELECT * FROM " + from);
                }
            }
            return DuckDbRows.query(s, sql);
        }
    }

    private static long number(String sql) throws SQLException {
        return Long.parseLong(query(sql).get(0).get(0));
    }

    private static final String SAME = " USING (source, client_ip, client_port, server_ip, server_port, "
            + "first_time)";

    @Test
    void theSharedFileGivesTheSameUidsUnderOtherStreamNumbers() throws SQLException {
        long both = number("SELECT count(*) FROM connections1 JOIN connections2" + SAME);
        assertTrue(both > 0, "file B's connections are in both runs");
        assertEquals(both, number("SELECT count(*) FROM connections2 WHERE uid IN (SELECT uid FROM connections1)"));
        List<List<String>> pairs = query("SELECT connections1.uid, connections2.uid, connections1.stream, "
                + "connections2.stream FROM connections1 JOIN connections2" + SAME);
        for (List<String> p : pairs) {
            assertEquals(p.get(0), p.get(1), "one connection, one uid in both runs");
            assertTrue(p.get(0).matches("C[0-9A-Za-z]{17}"), p.get(0));
        }
        // B's connections come after A's in the first run, first in the second: stream does not survive a run
        assertTrue(pairs.stream().anyMatch(p -> !p.get(2).equals(p.get(3))), pairs.toString());
    }

    @Test
    void theUnionDistinctByUidHasEachConnectionOnce() throws SQLException {
        long run1 = number("SELECT count(*) FROM connections1");
        long run2 = number("SELECT count(*) FROM connections2");
        long shared = number("SELECT count(*) FROM connections1 JOIN connections2" + SAME);
        long unique = number("SELECT count(DISTINCT (source, client_ip, client_port, server_ip, server_port, "
                + "first_time)) FROM (SELECT * FROM connections1 UNION ALL SELECT * FROM connections2)");
        assertTrue(run1 > shared && run2 > shared, run1 + " " + run2 + " " + shared);
        assertEquals(run1 + run2 - shared, unique);
        assertEquals(unique, number("SELECT count(*) FROM (SELECT DISTINCT uid FROM connections1 "
                + "UNION SELECT DISTINCT uid FROM connections2)"));
        assertEquals(unique, number("SELECT count(*) FROM (SELECT uid FROM connections1 UNION ALL "
                + "SELECT uid FROM connections2 WHERE uid NOT IN (SELECT uid FROM connections1))"));
        assertEquals(run1, number("SELECT count(DISTINCT uid) FROM connections1"), "uids are unique in a run");
    }

    @Test
    void childRowsJoinTheirConnectionOnUidAndNameItsServer() throws SQLException {
        String all = "(SELECT * FROM connections1 UNION ALL SELECT * FROM connections2)";
        for (TableSchema t : EngineTables.ALL.subList(1, EngineTables.ALL.size())) {
            for (int run = 1; run <= 2; run++) {
                String child = t.name() + run;
                String conns = "connections" + run;
                long rows = number("SELECT count(*) FROM " + child);
                // by (source, stream) within the run, and by uid: the same connection, its server endpoint
                assertEquals(rows, number("SELECT count(*) FROM " + child + " x JOIN " + conns + " c ON "
                        + "x.source = c.source AND x.stream = c.stream AND x.uid = c.uid "
                        + "AND x.server_ip = c.server_ip AND x.server_port = c.server_port"), child);
                // and across runs: every child row finds exactly one connection in the union distinct by uid
                assertEquals(rows, number("SELECT count(*) FROM " + child + " x JOIN (SELECT DISTINCT uid FROM "
                        + all + ") USING (uid)"), child);
            }
        }
        assertTrue(number("SELECT count(*) FROM rtt_samples1") > 0);
        assertTrue(number("SELECT count(*) FROM exchanges2") > 0);
        // the shared file's child rows are the same rows in both runs, keyed by uid instead of stream
        assertEquals(number("SELECT count(*) FROM exchanges1 WHERE uid IN (SELECT uid FROM connections2)"),
                number("SELECT count(*) FROM exchanges2 WHERE uid IN (SELECT uid FROM connections1)"));
        assertNotEquals(0, number("SELECT count(*) FROM exchanges1 WHERE uid IN (SELECT uid FROM connections2)"));
    }

    @Test
    void theSchemaVersionIsInSuccessAndInEveryParquetFile() throws Exception {
        String marker = Files.readString(first.resolve("_SUCCESS"));
        assertTrue(marker.contains("\"schema_version\":" + TableSchema.VERSION), marker);
        List<Path> files;
        try (var w = Files.walk(first)) {
            files = w.filter(p -> p.toString().endsWith(".parquet")).toList();
        }
        assertTrue(files.size() >= EngineTables.ALL.size(), files.toString());
        for (Path f : files) {
            assertEquals(List.of(List.of(Integer.toString(TableSchema.VERSION))),
                    query("SELECT decode(value) FROM parquet_kv_metadata('" + f + "') WHERE decode(key) = '"
                            + TableSchema.VERSION_KEY + "'"), f.toString());
        }
    }
}
