package io.ackscope.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commands that read an analyze output ({@code sql}, {@code export}, {@code report}) given what a hostile user
 * would give them: statements that write, change the session or run code, and result files inside the output.
 * Each case asserts the exit status the README documents and that the output is byte for byte what it was, its
 * connections counted before and after.
 */
class ReadersHostileTest {

    private static final Path SAMPLE = Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz");
    private static final long CONNECTIONS = 21;
    private static Path out;

    private record Run(int exit, String err) {
    }

    private static Run ackscope(String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int exit = Main.run(args, ps, ps);
        return new Run(exit, buf.toString(StandardCharsets.UTF_8));
    }

    @BeforeAll
    static void analyze(@TempDir Path dir) {
        out = dir.resolve("o");
        Run r = ackscope("analyze", SAMPLE.toString(), "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(CONNECTIONS, OutputBytes.rows(out, "connections"));
    }

    /** Runs {@code args}, expects {@code exit} and {@code message} in the error, and the output unchanged. */
    private static void refusedIntact(int exit, String message, String... args) {
        Map<String, String> before = OutputBytes.of(out);
        Run r = ackscope(args);
        assertEquals(exit, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertEquals(before, OutputBytes.of(out));
        assertEquals(CONNECTIONS, OutputBytes.rows(out, "connections"));
    }

    private static void sqlRefused(String statement, String... extra) {
        String[] args = Stream.concat(Stream.of("sql", out.toString(), statement), Stream.of(extra))
                .toArray(String[]::new);
        refusedIntact(2, "refused", args);
    }

    @Test
    void insertOverwriteDirectoryOntoATableIsRefused() {
        sqlRefused("INSERT OVERWRITE DIRECTORY '" + out.resolve("connections") + "' USING parquet SELECT 1 AS x");
    }

    @Test
    void sessionAndCatalogStatementsAreRefused() {
        sqlRefused("SET spark.sql.shuffle.partitions=1");
        sqlRefused("ADD JAR /nonexistent/x.jar");
        sqlRefused("CREATE TABLE t USING parquet LOCATION '" + out.resolve("connections") + "' AS SELECT 1 AS x",
                "--conf", "spark.sql.legacy.allowNonEmptyLocationInCTAS=true");
        sqlRefused("CACHE TABLE connections");
    }

    @Test
    void reflectionFunctionsAreNotCallable() {
        sqlRefused("SELECT java_method('java.util.UUID', 'randomUUID')");
        sqlRefused("SELECT reflect('java.lang.String', 'valueOf', stream) FROM connections");
        sqlRefused("SELECT IDENTIFIER('refl' || 'ect')('java.lang.String', 'valueOf', 1)");
    }

    @Test
    void queriesStillRun() {
        for (String q : new String[]{"SELECT count(*) FROM connections", "WITH c AS (SELECT * FROM connections) "
                + "SELECT count(*) FROM c", "EXPLAIN SELECT 1", "DESCRIBE connections", "SHOW TABLES", "VALUES (1)"}) {
            Map<String, String> before = OutputBytes.of(out);
            Run r = ackscope("sql", out.toString(), q, "--format", "csv");
            assertEquals(0, r.exit(), q + ": " + r.err());
            assertEquals(before, OutputBytes.of(out));
        }
    }

    /** A copy of the output in {@code dir}, for a case that changes it. */
    private static Path copyOfOutput(Path dir) throws Exception {
        Path copy = dir.resolve("o");
        try (Stream<Path> s = Files.walk(out)) {
            for (Path p : s.toList()) {
                Files.copy(p, copy.resolve(out.relativize(p).toString()));
            }
        }
        return copy;
    }

    /** A part file's directory: a table's partition. */
    private static Path partition() throws Exception {
        try (Stream<Path> s = Files.walk(out.resolve("connections"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow()
                    .getParent();
        }
    }

    private static Path partFile() throws Exception {
        try (Stream<Path> s = Files.list(partition())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
    }

    @Test
    void sqlOutIntoATablePartitionIsRefused() throws Exception {
        refusedIntact(2, "inside table connections", "sql", out.toString(), "SELECT * FROM connections", "--out",
                partition().resolve("extra.parquet").toString());
        Path notes = Files.writeString(out.resolve("notes.csv"), "kept\n");
        try {
            refusedIntact(2, "already exists", "sql", out.toString(), "SELECT 1 AS x", "--out", notes.toString());
            assertEquals("kept\n", Files.readString(notes));
        } finally {
            Files.delete(notes);
        }
    }

    @Test
    void exportAndReportNeverReplaceTheMarkerOrAPartFile() throws Exception {
        refusedIntact(2, "_SUCCESS", "export", out.toString(), "--zeek-conn", out.resolve("_SUCCESS").toString());
        refusedIntact(2, "_SUCCESS", "report", out.toString(), "--out", out.resolve("_SUCCESS").toString());
        refusedIntact(2, "inside table", "report", out.toString(), "--out", partFile().toString());
        refusedIntact(2, "inside table", "export", out.toString(), "--zeek-conn", partFile().toString());
    }

    /** A capture (here the very one the output was made from, copied) is never replaced, whatever its name. */
    @Test
    void noResultReplacesACapture(@TempDir Path dir) throws Exception {
        Path gz = dir.resolve("a.pcap.gz");
        Files.copy(SAMPLE, gz);
        Path plain = dir.resolve("conn.log");
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(SAMPLE))) {
            Files.write(plain, in.readAllBytes());
        }
        Map<Path, byte[]> before = Map.of(gz, Files.readAllBytes(gz), plain, Files.readAllBytes(plain));
        refusedIntact(2, "is a gzip file", "export", out.toString(), "--zeek-conn", gz.toString());
        refusedIntact(2, "is a pcap file", "export", out.toString(), "--zeek-conn", plain.toString());
        refusedIntact(2, "is a pcap file", "report", out.toString(), "--out", plain.toString());
        Path csv = dir.resolve("result.csv");
        Files.createSymbolicLink(csv, plain);
        refusedIntact(2, "is a pcap file", "sql", out.toString(), "SELECT 1", "--out", csv.toString());
        for (Map.Entry<Path, byte[]> e : before.entrySet()) {
            assertTrue(java.util.Arrays.equals(e.getValue(), Files.readAllBytes(e.getKey())), e.getKey().toString());
        }
    }

    @Test
    void aLinkIntoTheOutputIsJudgedByWhereItPoints(@TempDir Path dir) throws Exception {
        Path link = dir.resolve("conn.log");
        Files.createSymbolicLink(link, out.resolve("_SUCCESS"));
        refusedIntact(2, "_SUCCESS", "export", out.toString(), "--zeek-conn", link.toString());
    }

    /** A copy of the output with one part file of connections rewritten by DuckDB without {@code client_packets}. */
    @Test
    void exportRefusesAPartFileWithoutAColumnAsReportDoes(@TempDir Path dir) throws Exception {
        Path copy = copyOfOutput(dir);
        Path part = copy.resolve(out.relativize(partFile()).toString());
        Path without = dir.resolve("without.parquet");
        try (var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement()) {
            st.execute("COPY (SELECT * EXCLUDE (client_packets) FROM read_parquet('" + part + "')) TO '" + without
                    + "' (FORMAT parquet)");
        }
        Files.move(without, part, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path log = dir.resolve("conn.log");
        Run r = ackscope("export", copy.toString(), "--zeek-conn", log.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains(part.getFileName() + ": table connections has no column client_packets"),
                r.err());
        assertFalse(Files.exists(log));
        Run report = ackscope("report", copy.toString(), "--out", dir.resolve("r.html").toString());
        assertEquals(1, report.exit(), report.err());
        assertTrue(report.err().contains("has no column client_packets"), report.err());
    }

    /** {@code sql ... --format csv}'s standard output. */
    private static String sqlCsv(Path output, String query) {
        return stdout("sql", output.toString(), query, "--format", "csv");
    }

    /** The standard output of {@code args}, which must succeed. */
    private static String stdout(String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            Run r = ackscope(args);
            assertEquals(0, r.exit(), r.err());
        } finally {
            System.setOut(stdout);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aFileTheManifestDoesNotListIsNotRead(@TempDir Path dir) throws Exception {
        Path copy = copyOfOutput(dir);
        Path part = copy.resolve(out.relativize(partFile()).toString());
        Files.copy(part, part.resolveSibling("part-99999-stray.snappy.parquet"));
        assertEquals(List.of("n", Long.toString(CONNECTIONS)),
                sqlCsv(copy, "SELECT count(*) AS n FROM connections").lines().toList());
        // export reads local outputs without Spark: the manifest decides there too
        Path log = dir.resolve("conn.log");
        Run r = ackscope("export", copy.toString(), "--zeek-conn", log.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(CONNECTIONS, Files.readAllLines(log).stream().filter(l -> !l.startsWith("#")).count());
        String report = stdout("report", copy.toString(), "--out", dir.resolve("r.html").toString());
        assertTrue(report.contains("; " + CONNECTIONS + " connections;"), report);
    }

    @Test
    void aCommitDuringTheQueryFailsItsResult(@TempDir Path dir) throws Exception {
        Path copy = copyOfOutput(dir);
        var conf = new org.apache.hadoop.conf.Configuration();
        OutputSnapshot same = OutputSnapshot.take(conf, List.of(copy.toString()));
        same.verify();
        OutputSnapshot before = OutputSnapshot.take(conf, List.of(copy.toString()));
        Path marker = copy.resolve("_SUCCESS");
        Files.writeString(marker, Files.readString(marker).replace("\"tool\"", "\"tool\" "));
        java.io.IOException e = assertThrows(java.io.IOException.class, before::verify);
        assertTrue(e.getMessage().contains("committed to it while the query read it"), e.getMessage());
    }

    @Test
    void aNewFileBesideTheTablesIsWritten() {
        Path log = out.resolve("conn.log");
        Map<String, String> before = OutputBytes.of(out);
        Run r = ackscope("export", out.toString(), "--zeek-conn", log.toString());
        try {
            assertEquals(0, r.exit(), r.err());
            assertTrue(Files.isRegularFile(log));
            Map<String, String> after = OutputBytes.of(out);
            after.remove("conn.log");
            assertEquals(before, after);
        } finally {
            assertFalse(!log.toFile().delete() && Files.exists(log));
        }
    }
}
