package io.ackscope.cli;

import io.ackscope.spark.source.SparkSchemas;
import io.ackscope.tables.DuckTables;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.SchemaDoc;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.ConnectionUid;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.spark.sql.types.StructField;
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
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ackscope sql} and {@code ackscope export} on a real analyze output of the stalling sample, checked against
 * DuckDB reading the same Parquet files as an analyst would.
 */
class SqlExportCommandsTest {

    private static final Path SAMPLE = Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz");
    private static Path out;

    private record Run(int exit, String out, String err) {
    }

    /** Runs a command in-process; {@code sql} and {@code export} print through the streams given. */
    private static Run run(Command c, String... args) throws Exception {
        com.beust.jcommander.JCommander.newBuilder().addObject(c).build().parse(args);
        return new Run(c.run(), "", "");
    }

    private static Run sql(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        SqlCommand c = new SqlCommand(new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        int exit;
        try {
            com.beust.jcommander.JCommander.newBuilder().addObject(c).build().parse(args);
            exit = c.run();
        } catch (CommandFailure f) {
            return new Run(f.exitCode(), o.toString(StandardCharsets.UTF_8), f.getMessage());
        } catch (Exception x) {
            throw new AssertionError(x);
        }
        return new Run(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    /**
     * The marker of {@code output} without its manifest, as versions before the manifest wrote it: a hand-made
     * output's files are then read as its directories hold them (with a manifest, only the files it lists).
     */
    static void withoutManifest(Path output) throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        Path marker = output.resolve("_SUCCESS");
        var root = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(marker.toFile());
        root.remove("output_files");
        Files.writeString(marker, json.writeValueAsString(root));
        Files.deleteIfExists(output.resolve("._SUCCESS.crc"));
    }

    @BeforeAll
    static void analyze(@TempDir Path dir) {
        out = dir.resolve("out");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        PrintStream saved = System.out;
        System.setOut(ps); // analyze's summary goes to standard output
        try {
            assertEquals(0, Main.run(new String[]{"analyze", SAMPLE.toString(), "--out", out.toString()}, ps, ps),
                    buf.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(saved);
        }
        String summary = buf.toString(StandardCharsets.UTF_8);
        // quiet by default: how the time went is behind --verbose
        assertTrue(summary.lines().noneMatch(l -> l.startsWith("task time") || l.startsWith("wall time")
                || l.startsWith("read in ")), summary);
        assertTrue(summary.lines().anyMatch(l -> l.matches("ackscope analyze: .* in \\d+\\.\\d s \\(.*/s\\)")), summary);
    }

    private static List<List<String>> duckdb(String query) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
            for (String t : List.of("connections", "stalls", "exchanges")) {
                s.execute("CREATE VIEW " + t + " AS SELECT * FROM " + DuckTables.scan(out, t));
            }
            return DuckDbRows.query(s, query);
        }
    }

    @Test
    void csvResultEqualsDuckdbOnTheSameFiles() throws Exception {
        String q = "SELECT server_ip, server_port, count(*) AS n, sum(stalls) AS stalls, sum(exchanges) AS ex "
                + "FROM connections GROUP BY server_ip, server_port ORDER BY n DESC";
        Run r = sql(out.toString(), q, "--format", "csv");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("server_ip,server_port,n,stalls,ex", lines.get(0));
        List<List<String>> want = duckdb(q);
        assertEquals(1, want.size());
        assertEquals(String.join(",", want.get(0)), lines.get(1));
        assertEquals("127.0.0.1,18781,21,1320,", lines.get(1).substring(0, 24));
    }

    /** Two outputs whose sources have the same name: the output column says which one a row came from. */
    @Test
    void twoOutputsAreToldApartByTheirOutputColumn(@TempDir Path dir) throws Exception {
        Path copy = dir.resolve("again");
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(out)) {
            for (Path p : files.toList()) {
                java.nio.file.Files.copy(p, copy.resolve(out.relativize(p).toString()));
            }
        }
        Run r = sql(out.toString(), copy.toString(), "SELECT output, source, count(*) AS n FROM connections "
                + "GROUP BY output, source ORDER BY output", "--format", "csv");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("output,source,n", lines.get(0));
        List<String> want = new java.util.ArrayList<>(List.of(out + ",sample-pcaps,21", copy + ",sample-pcaps,21"));
        java.util.Collections.sort(want);
        assertEquals(want, lines.subList(1, lines.size()));
    }

    /** latency_summary's response-time percentiles are nearest-rank over exchanges.complete_us, as DuckDB's. */
    @Test
    void latencySummaryHasTheResponseTimePercentilesOfTheExchanges() throws Exception {
        Run r = sql(out.toString(), "SELECT complete_count, complete_p50_us, complete_p90_us, complete_p99_us, "
                + "complete_max_us FROM latency_summary", "--format", "csv");
        assertEquals(0, r.exit(), r.err());
        List<List<String>> want = duckdb("SELECT count(complete_us), quantile_disc(complete_us, 0.5), "
                + "quantile_disc(complete_us, 0.9), quantile_disc(complete_us, 0.99), max(complete_us) FROM exchanges");
        assertEquals(String.join(",", want.get(0)), r.out().lines().toList().get(1));
        assertTrue(Long.parseLong(want.get(0).get(0)) > 1000, want.toString());
    }

    @Test
    void tableFormIsAlignedAndCountsItsRows() {
        Run r = sql(out.toString(), "SELECT stream, conn_state, history FROM connections ORDER BY stream LIMIT 3");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("stream | conn_state | history", "-------+------------+--------",
                "     0 | SF         | ShAFf", "     1 | S1         | ShADad", "     2 | S1         | ShADad", "(3 rows)"),
                r.out().lines().toList());
        Run cut = sql(out.toString(), "SELECT stream FROM connections", "--max-rows", "2");
        assertTrue(cut.out().endsWith("(21 rows, 2 shown; --max-rows, --format csv or --out for all)\n"), cut.out());
    }

    @Test
    void jsonLinesAndParquetFilesCarryEveryRow(@TempDir Path dir) throws Exception {
        Run json = sql(out.toString(), "SELECT stream, first_time, vantage FROM connections ORDER BY stream",
                "--format", "json");
        List<String> lines = json.out().lines().toList();
        assertEquals(21, lines.size());
        var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines.get(0));
        assertEquals(0, node.get("stream").asLong());
        String first = duckdb("SELECT strftime(first_time, '%Y-%m-%dT%H:%M:%S.%fZ') FROM connections "
                + "WHERE stream = 0").get(0).get(0);
        assertEquals(first, node.get("first_time").asText());

        Path parquet = dir.resolve("slow.parquet");
        Run p = sql(out.toString(), "SELECT * FROM stalls WHERE duration_us > 40000", "--out", parquet.toString());
        assertEquals(0, p.exit(), p.err());
        long want = Long.parseLong(duckdb("SELECT count(*) FROM stalls WHERE duration_us > 40000").get(0).get(0));
        assertTrue(want > 1000, "the sample stalls: " + want);
        assertEquals(want + " rows written to " + parquet + "\n", p.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM read_parquet('" + parquet + "')")) {
            r.next();
            assertEquals(want, r.getLong(1));
        }
        Path csv = dir.resolve("slow.csv");
        assertEquals(0, sql(out.toString(), "SELECT stream FROM stalls", "--out", csv.toString()).exit());
        assertEquals(1321, Files.readAllLines(csv).size(), "header and every stall");
    }

    @Test
    void aTableOfOneParquetFileWithoutRowsIsAViewOfItsColumnsWithoutRows(@TempDir Path dir) throws Exception {
        // the sample's output with its stalls (1,320 rows) replaced by one Parquet file of the table's schema and no
        // row group, as a writer that leaves a file for an empty table writes it: Spark reads the columns from its
        // footer (a directory without any file is the other case, made from ackscope's schema)
        Path copy = dir.resolve("out");
        try (Stream<Path> s = Files.walk(out)) {
            for (Path p : s.toList()) {
                if (!p.startsWith(out.resolve("stalls")) || p.equals(out.resolve("stalls"))) {
                    Files.copy(p, copy.resolve(out.relativize(p).toString()));
                }
            }
        }
        withoutManifest(copy);
        TableSchema stalls = SchemaDoc.tables().stream().filter(t -> t.name().equals("stalls")).findFirst()
                .orElseThrow();
        Path empty = copy.resolve("stalls").resolve("part-00000.parquet");
        new ParquetTableWriter(stalls, new LocalOutputFile(empty), ParquetFileWriter.Mode.CREATE,
                SparkSchemas.footer(stalls), ParquetTableWriter.ROW_GROUP_BYTES).close();
        try (Stream<Path> s = Files.walk(copy.resolve("stalls"))) {
            assertEquals(List.of(empty), s.filter(Files::isRegularFile).toList());
        }
        Run count = sql(copy.toString(), "SELECT count(*) AS n FROM stalls", "--format", "csv");
        assertEquals(List.of("n", "0"), count.out().lines().toList(), count.err());
        List<String> columns = new java.util.ArrayList<>();
        for (StructField f : SparkSchemas.of(stalls).fields()) {
            columns.add(f.name() + " " + f.dataType().simpleString());
        }
        assertTrue(columns.size() > 10, columns.toString());
        columns.add("output string");     // the output a row was read from, last in every view of ackscope sql
        Run describe = sql(copy.toString(), "DESCRIBE stalls", "--format", "json");
        assertEquals(0, describe.exit(), describe.err());
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<String> described = new java.util.ArrayList<>();
        for (String line : describe.out().lines().toList()) {
            var row = json.readTree(line);
            described.add(row.get("col_name").asText() + " " + row.get("data_type").asText());
        }
        assertEquals(columns, described);
        Run rows = sql(copy.toString(), "SELECT * FROM stalls", "--format", "json");
        assertEquals(0, rows.exit(), rows.err());
        assertEquals("", rows.out());
        // the other views of the copy still read their rows
        assertEquals(List.of("n", "21"), sql(copy.toString(), "SELECT count(*) AS n FROM connections", "--format",
                "csv").out().lines().toList());
    }

    @Test
    void aBadQueryOrAnIncompleteOutputIsOneLine(@TempDir Path dir) throws Exception {
        Run bad = sql(out.toString(), "SELECT * FROM nope");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().startsWith("query: [TABLE_OR_VIEW_NOT_FOUND] The table or view `nope` cannot be found."),
                bad.err());
        assertTrue(bad.err().contains("(views: "), bad.err());
        assertTrue(bad.err().contains("connections"), bad.err());
        assertEquals(1, bad.err().lines().count());
        Files.createDirectories(dir.resolve("half"));
        Run half = sql(dir.resolve("half").toString(), "SELECT 1");
        assertEquals(1, half.exit());
        assertEquals(dir.resolve("half") + " is not a complete ackscope analyze output (no _SUCCESS marker)",
                half.err());
    }

    @Test
    void pcapViewReadsTheCapturesFrameByFrame() {
        Run r = sql(out.toString(), "SELECT count(*) AS frames FROM pcap", "--pcap", SAMPLE.toString(),
                "--format", "csv");
        assertEquals(0, r.exit(), r.err());
        Run frames = sql(out.toString(), "SELECT sum(frames) FROM capture_files", "--format", "csv");
        assertEquals(frames.out().lines().toList().get(1), r.out().lines().toList().get(1));
    }

    @Test
    void zeekConnLogHasZeeksHeaderAndOneStableLinePerConnection(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("conn.log");
        ExportCommand e = new ExportCommand(System.out, new PrintStream(new ByteArrayOutputStream()));
        run(e, out.toString(), "--zeek-conn", log.toString());
        List<String> lines = Files.readAllLines(log);
        assertEquals("#separator \\x09", lines.get(0));
        assertEquals(List.of("#set_separator\t,", "#empty_field\t(empty)", "#unset_field\t-", "#path\tconn"),
                lines.subList(1, 5));
        assertTrue(lines.get(5).matches("#open\t\\d{4}-\\d\\d-\\d\\d-\\d\\d-\\d\\d-\\d\\d"), lines.get(5));
        assertTrue(lines.get(lines.size() - 1).startsWith("#close\t"));
        // as zeek-cut reads it: columns by the names of #fields, types from #types
        List<String> fields = Arrays.asList(lines.get(6).substring("#fields\t".length()).split("\t"));
        List<String> types = Arrays.asList(lines.get(7).substring("#types\t".length()).split("\t"));
        assertEquals(22, fields.size());
        assertEquals("source", fields.get(21), "the source is the last column, after Zeek's own");
        assertEquals(fields.size(), types.size());
        List<String> data = lines.subList(8, lines.size() - 1);
        assertEquals(21, data.size());
        List<List<String>> want = duckdb("SELECT client_ip, client_port, conn_state, history, client_packets, uid, "
                + "source, server_ip, server_port, epoch_us(first_time) "
                + "FROM connections ORDER BY first_time, client_ip, client_port");
        HashSet<String> uids = new HashSet<>();
        for (int i = 0; i < data.size(); i++) {
            String[] f = data.get(i).split("\t", -1);
            assertEquals(fields.size(), f.length, data.get(i));
            List<String> w = want.get(i);
            assertEquals(w.subList(0, 5), List.of(f[fields.indexOf("id.orig_h")], f[fields.indexOf("id.orig_p")],
                    f[fields.indexOf("conn_state")], f[fields.indexOf("history")], f[fields.indexOf("orig_pkts")]));
            assertTrue(f[fields.indexOf("uid")].matches("C[0-9A-Za-z]{17}"), f[1]);
            // the table's uid, derived from source, endpoints and first microsecond as ConnectionUid does
            assertEquals(w.get(5), f[fields.indexOf("uid")]);
            assertEquals(ConnectionUid.of(w.get(6), w.get(0), Integer.parseInt(w.get(1)), w.get(7),
                    Integer.parseInt(w.get(8)), Long.parseLong(w.get(9))), w.get(5));
            uids.add(f[fields.indexOf("uid")]);
            assertEquals("tcp", f[fields.indexOf("proto")]);
            assertEquals(w.get(6), f[fields.indexOf("source")]);
        }
        assertEquals(21, uids.size(), "one uid per connection");
        Path again = dir.resolve("again.log");
        run(new ExportCommand(System.out, new PrintStream(new ByteArrayOutputStream())), out.toString(),
                "--zeek-conn", again.toString());
        List<String> second = Files.readAllLines(again);
        assertEquals(data, second.subList(8, second.size() - 1), "the same uids and lines in a second run");
    }

    /** DuckDB reads the TSV with the SQL types Zeek's #types name, and the JSON form, to the same rows. */
    @Test
    void zeekConnLogReadsAsZeeksTypesAndItsJsonFormAsTheSameRows(@TempDir Path dir) throws Exception {
        Path tsv = dir.resolve("conn.log");
        Path json = dir.resolve("conn.json");
        run(new ExportCommand(System.out, new PrintStream(new ByteArrayOutputStream())), out.toString(),
                "--zeek-conn", tsv.toString());
        run(new ExportCommand(System.out, new PrintStream(new ByteArrayOutputStream())), out.toString(),
                "--zeek-conn", json.toString(), "--format", "json");
        List<String> lines = Files.readAllLines(tsv);
        List<String> fields = Arrays.asList(lines.get(6).substring("#fields\t".length()).split("\t"));
        List<String> types = Arrays.asList(lines.get(7).substring("#types\t".length()).split("\t"));
        StringBuilder columns = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            String sql = switch (types.get(i)) {
                case "time", "interval" -> "DOUBLE";
                case "port" -> "USMALLINT";
                case "count" -> "UBIGINT";
                case "bool" -> "BOOLEAN";
                default -> "VARCHAR"; // string, enum, addr, set[string]
            };
            columns.append(i == 0 ? "" : ", ").append('\'').append(fields.get(i)).append("': '").append(sql)
                    .append('\'');
        }
        String q = "SELECT \"id.orig_h\", \"id.orig_p\", service, orig_bytes, resp_bytes, missed_bytes, ts, "
                + "duration, history, source, orig_ip_bytes, resp_ip_bytes FROM %s "
                + "ORDER BY ts, \"id.orig_h\", \"id.orig_p\"";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String fromTsv = "read_csv('" + tsv + "', delim = '\t', header = false, auto_detect = false, "
                    + "comment = '#', quote = '', escape = '', "
                    + "nullstr = '-', columns = {" + columns + "})";
            List<List<String>> a = DuckDbRows.query(s, String.format(q, fromTsv));
            List<List<String>> b = DuckDbRows.query(s, String.format(q, "read_json_auto('" + json + "')"));
            assertEquals(21, a.size());
            assertEquals(a, b, "the TSV and JSON forms hold the same values");
            List<List<String>> want = duckdb("SELECT c.stream, c.client_ip || ':' || c.client_port, "
                    + "c.server_ip || ':' || c.server_port, EXISTS (SELECT 1 FROM exchanges e "
                    + "WHERE e.source = c.source AND e.stream = c.stream AND (e.http_method IS NOT NULL "
                    + "OR e.http_status IS NOT NULL)) FROM connections c ORDER BY c.first_time, c.client_ip, "
                    + "c.client_port");
            // the byte fields against Zeek's rule applied to tshark's dissection (Zeek is not installed here)
            Map<Long, Map<String, TsharkSideBytes.Side>> tshark = TsharkSideBytes.of(SAMPLE);
            int http = 0;
            for (int i = 0; i < a.size(); i++) {
                List<String> row = a.get(i);
                ZeekConnBytesTest.assertZeekBytes(tshark.get(Long.parseLong(want.get(i).get(0))), want.get(i).get(1),
                        want.get(i).get(2), row.subList(3, 6), row.subList(10, 12));
                assertEquals(want.get(i).get(3).equals("true") ? "http" : null, row.get(2), "service");
                http += row.get(2) == null ? 0 : 1;
                assertTrue(Double.parseDouble(row.get(6)) > 1.6e9, "ts as epoch seconds: " + row.get(6));
            }
            assertTrue(http > 0, "connections with HTTP seen");
        }
        String first = Files.readAllLines(json).get(0);
        assertTrue(first.matches("\\{\"ts\":\\d+\\.\\d{6},\"uid\":\"C\\w{17}\",\"id\\.orig_h\":.*"), first);
        assertTrue(!first.contains("\"local_orig\"") && !first.contains("\"tunnel_parents\""),
                "unset fields are left out, as Zeek's JSON writer does: " + first);
    }

    @Test
    void exportOfAnOutputBeforeVersion3SaysSo(@TempDir Path dir) throws Exception {
        // an output as an older version wrote it: the same tables, connections without first_time (version 2
        // called it otherwise, version 1 had no uid either)
        Path old = dir.resolve("old");
        ZeekConnBytesTest.copyWithConnectionsExcluding(out, old, "first_time");
        ExportCommand e = new ExportCommand(System.out, new PrintStream(new ByteArrayOutputStream()));
        CommandFailure f = org.junit.jupiter.api.Assertions.assertThrows(CommandFailure.class,
                () -> run(e, old.toString(), "--zeek-conn", dir.resolve("conn.log").toString()));
        assertEquals(1, f.exitCode());
        assertEquals(old + ": connections has no first_time column (an output written before schema version 3): "
                + "analyze the captures again", f.getMessage());
    }

    @Test
    void stallColumnsAddUpAndTheNaturalQueryFindsTheStalledShare() throws Exception {
        assertEquals("0", duckdb("SELECT count(*) FROM exchanges WHERE stall_us <> coalesce(stall_before_response_us,"
                + " 0) + coalesce(stall_in_response_us, 0)").get(0).get(0));
        assertEquals("0", duckdb("SELECT count(*) FROM connections WHERE stall_us <> server_held_stall_us "
                + "+ client_held_stall_us").get(0).get(0));
        // one name for stall time in every table; the stalls' duration_us stays as its alias
        assertEquals(List.of(List.of("0", "1320")), duckdb("SELECT count(*) FILTER (WHERE stall_us <> duration_us), "
                + "count(*) FROM stalls"));
        // each connection's held stall time is its stalls' durations by holder (each row rounded down to the µs)
        List<List<String>> off = duckdb("SELECT c.uid, c.server_held_stall_us, c.client_held_stall_us, s.server, "
                + "s.client, s.n FROM connections c JOIN (SELECT uid, count(*) AS n, "
                + "sum(duration_us) FILTER (WHERE holding_side = 'SERVER') AS server, "
                + "sum(duration_us) FILTER (WHERE holding_side = 'CLIENT') AS client FROM stalls GROUP BY uid) s "
                + "USING (uid) WHERE c.server_held_stall_us NOT BETWEEN coalesce(s.server, 0) "
                + "AND coalesce(s.server, 0) + s.n OR c.client_held_stall_us NOT BETWEEN coalesce(s.client, 0) "
                + "AND coalesce(s.client, 0) + s.n");
        assertEquals(List.of(), off);
        // the sample's responses wait mostly in stalls: stall_us over complete_us is above one half
        List<String> share = duckdb("SELECT sum(stall_us) / sum(complete_us), sum(stall_in_response_us), "
                + "sum(stall_us) FROM exchanges").get(0);
        assertTrue(Double.parseDouble(share.get(0)) > 0.5, share.toString());
        assertTrue(Long.parseLong(share.get(1)) > 0 && Long.parseLong(share.get(1)) <= Long.parseLong(share.get(2)),
                share.toString());
    }
}
