package io.ackscope.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ackscope.output.OutputMarker;
import io.ackscope.spark.views.OutputViews;
import io.ackscope.tables.Column;
import io.ackscope.tables.ColumnType;
import io.ackscope.tables.DuckTables;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.HiveLayout;
import io.ackscope.tables.SchemaDoc;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every reader of the tables over a Hive-partitioned output (schema version 4's layout,
 * {@code TABLE/source=ESC/date=YYYY-MM-DD/*.parquet}) gives what it gives over the same files laid flat (versions up
 * to 3): the tables package's reader, DuckDB's JDBC driver, the Spark views of {@code ackscope sql} and the report.
 *
 * <p>The two nginx samples lie in a directory named {@code 50%off}, one source per file ({@code --source-by file}:
 * the sources are {@code 50%off/a-nginx-...pcap.gz}, with a {@code /} and a {@code %} to escape). Each source is
 * analysed alone; its files go into one partitioned output (where the writer put them: small tables by source only,
 * the vantage tables flat) and, renamed, into one flat output. A run of one source numbers its files from 0, as
 * {@code file_index} counts within the source, so the report over either must place each file by (source,
 * file_index): its page equals the page of one run over both files, flow graphs included.
 */
class PartitionedTablesTest {
    /**
     * The samples as the directory names them: the stalling one second, so that the connections the report draws
     * are in the output's second file but the first of their source (file_index 0 in both).
     */
    private static final List<String> SAMPLES = List.of("a-nginx-nodelay-on.pcap.gz", "b-nginx-nodelay-off.pcap.gz");
    private static final Set<String> BY_SOURCE = HiveLayout.BY_SOURCE;
    private static final Set<String> FLAT = HiveLayout.FLAT;

    private static Path whole, parted, flat;
    private static final List<String> sources = new ArrayList<>();
    private static final List<String> dates = new ArrayList<>();

    @BeforeAll
    static void build(@TempDir Path dir) throws Exception {
        Path caps = Files.createDirectories(dir.resolve("50%off"));
        for (String s : SAMPLES) {
            Files.copy(Path.of("sample-pcaps", s.substring(2)), caps.resolve(s));
        }
        whole = analyze(dir.resolve("whole"), caps);
        parted = Files.createDirectories(dir.resolve("parted"));
        flat = Files.createDirectories(dir.resolve("flat"));
        for (int i = 0; i < SAMPLES.size(); i++) {
            Path one = analyze(dir.resolve("one-" + i), caps.resolve(SAMPLES.get(i)));
            String source = only("SELECT DISTINCT source FROM " + DuckTables.files(one, "capture_files"));
            String date = only("SELECT DISTINCT CAST(first_time AT TIME ZONE 'UTC' AS DATE) FROM "
                    + DuckTables.files(one, "capture_files") + " WHERE CAST(first_time AT TIME ZONE 'UTC' AS DATE)"
                    + " = CAST(last_time AT TIME ZONE 'UTC' AS DATE)");   // one day: every row's date is the file's
            sources.add(source);
            dates.add(date);
            lay(one, i, source, date);
        }
        assertEquals(List.of("50%off/" + SAMPLES.get(0), "50%off/" + SAMPLES.get(1)), sources);
        marker(parted);
        marker(flat);
    }

    private static Path analyze(Path out, Path input) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[]{"analyze", input.toString(), "--source-by", "file",
                "--out", out.toString()}, ps, ps), buf.toString(StandardCharsets.UTF_8));
        return out;
    }

    /**
     * Copies the Parquet files of source {@code i}'s output into the flat output (renamed {@code s<i>-k-...}) and
     * moves them into the partitioned one: into the partition directories the writer made them in, or, from a
     * flat writer, into those {@link HiveLayout#partition} gives. Its first connections file becomes provisional
     * rows ({@code open-*.parquet}, which readers read like any other).
     */
    private static void lay(Path one, int i, String source, String date) throws IOException {
        try (Stream<Path> tables = Files.list(one)) {
            for (Path t : tables.filter(Files::isDirectory).toList()) {
                String name = t.getFileName().toString();
                if (name.startsWith("_")) {
                    continue;      // _ackscope_state
                }
                Files.createDirectories(flat.resolve(name));
                List<Path> files = HiveLayout.files(t);
                for (int k = 0; k < files.size(); k++) {
                    Path f = files.get(k);
                    String n = f.getFileName().toString();
                    if (name.equals("connections") && k == 0) {
                        n = n.replace("part-", "open-");
                    }
                    Path in = t.relativize(f).getParent();
                    Path to = Files.createDirectories(in != null ? parted.resolve(name).resolve(in)
                            : HiveLayout.partition(parted.resolve(name), source, date));
                    Files.copy(f, flat.resolve(name).resolve("s" + i + "-" + k + "-" + n));
                    Files.move(f, to.resolve((FLAT.contains(name) ? "s" + i + "-" : "") + n));
                }
            }
        }
    }

    /** The one run's marker, its manifest listing the files of {@code out}. */
    private static void marker(Path out) throws IOException {
        ObjectNode m = (ObjectNode) new ObjectMapper().readTree(Files.readString(whole.resolve(OutputMarker.FILE)));
        m.remove("output_files");
        List<String> files = new ArrayList<>();
        try (Stream<Path> w = Files.walk(out)) {
            w.filter(Files::isRegularFile).forEach(p -> files.add(out.relativize(p).toString()));
        }
        files.sort(null);
        Files.writeString(out.resolve(OutputMarker.FILE), OutputMarker.withFiles(m.toString(), files));
    }

    private static String only(String sql) throws SQLException {
        List<List<String>> rows = duckdb(sql);
        assertEquals(1, rows.size(), sql + ": " + rows);
        return rows.get(0).get(0);
    }

    private static List<List<String>> duckdb(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
            return DuckDbRows.query(s, sql);
        }
    }

    private static final Set<ColumnType> READ = Set.of(ColumnType.BOOLEAN, ColumnType.INT, ColumnType.LONG,
            ColumnType.DOUBLE, ColumnType.STRING, ColumnType.TIMESTAMP, ColumnType.INT_LIST, ColumnType.LONG_LIST,
            ColumnType.STRING_LONG_MAP);

    /** Every row of {@code t} in {@code out} as text, in the order the tables package's reader gives them. */
    private static List<String> tableReaderRows(Path out, TableSchema t) throws IOException {
        List<Column> columns = t.columns().stream().filter(c -> READ.contains(c.type())).toList();
        List<String> rows = new ArrayList<>();
        TableReader.scan(out, t, List.of(), columns, b -> {
            for (int i = 0; i < b.rows; i++) {
                StringBuilder sb = new StringBuilder();
                for (Column c : columns) {
                    if (!b.has(c)) {
                        continue;
                    }
                    Object v = switch (c.type()) {
                        case STRING -> b.strings(c)[i];
                        case INT_LIST, LONG_LIST -> java.util.Arrays.toString(b.longLists(c)[i]);
                        case STRING_LONG_MAP -> b.maps(c).get(i);
                        case DOUBLE -> b.doubles(c).present[i] ? b.doubles(c).exact[i] : null;
                        default -> b.longs(c).present[i] ? b.longs(c).values[i] : null;
                    };
                    sb.append(c.name()).append('=').append(v).append(' ');
                }
                rows.add(sb.toString());
            }
        });
        return rows;
    }

    private static List<TableSchema> tables() {
        return SchemaDoc.tables().stream().filter(t -> Files.isDirectory(flat.resolve(t.name()))).toList();
    }

    @Test
    void theTableReaderReadsEveryPartitionedTableAsTheFlatOne() throws Exception {
        assertTrue(tables().containsAll(EngineTables.ALL), "the engine tables are laid out");
        for (TableSchema t : tables()) {
            List<String> fromParted = tableReaderRows(parted, t);
            List<String> fromFlat = tableReaderRows(flat, t);
            assertEquals(fromFlat.size(), TableReader.rows(parted, t), t.name());
            assertEquals(Long.parseLong(only("SELECT count(*) FROM " + DuckTables.files(flat, t.name()))),
                    fromParted.size(), t.name());
            fromParted.sort(null);
            fromFlat.sort(null);
            assertEquals(fromFlat, fromParted, t.name());
        }
        assertTrue(TableReader.rows(parted, EngineTables.CONNECTIONS) > 20);
        assertTrue(Files.exists(parted.resolve("connections").resolve("source=50%25off%2F" + SAMPLES.get(0))
                .resolve("date=" + dates.get(0))), "escaped as Hive escapes");
    }

    @Test
    void duckdbReadsTheSourceFromThePathUnescapedAndPrunesByIt() throws Exception {
        for (TableSchema t : tables()) {
            if (FLAT.contains(t.name())) {
                continue;
            }
            // with partitions as columns: the files' rows, source taken from the path, equal to the files' own
            boolean dated = !BY_SOURCE.contains(t.name());
            String hive = "SELECT * EXCLUDE (source" + (dated ? ", date" : "") + "), source FROM "
                    + DuckTables.scan(parted, t.name());
            String files = "SELECT * EXCLUDE (source), source FROM " + DuckTables.files(flat, t.name());
            assertEquals("0", only("SELECT count(*) FROM (" + hive + " EXCEPT ALL " + files + ")"), t.name());
            assertEquals("0", only("SELECT count(*) FROM (" + files + " EXCEPT ALL " + hive + ")"), t.name());
        }
        assertEquals(List.of(List.of(sources.get(0), dates.get(0)), List.of(sources.get(1), dates.get(1))),
                duckdb("SELECT DISTINCT source, CAST(date AS VARCHAR) FROM " + DuckTables.scan(parted, "exchanges")
                        + " ORDER BY 1"));
        String pruned = "SELECT count(*) FROM " + DuckTables.scan(parted, "exchanges") + " WHERE source = '"
                + sources.get(1) + "' AND date >= DATE '" + dates.get(1) + "'";
        assertEquals(only("SELECT count(*) FROM " + DuckTables.files(flat, "exchanges") + " WHERE source = '"
                + sources.get(1) + "'"), only(pruned));
        String plan = String.join("\n", duckdb("EXPLAIN ANALYZE " + pruned).stream().map(r -> r.get(1)).toList());
        assertTrue(plan.replace(" ", "").contains("ScanningFiles:"), plan);
    }

    @Test
    void theSparkViewsOfAckscopeSqlGiveTheFlatRowsWithTheDate(@TempDir Path dir) throws Exception {
        SparkSession spark = SparkSession.builder().master("local[1]").appName("partitioned")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.session.timeZone", "UTC").getOrCreate();
        try {
            OutputViews.register(spark, List.of(flat.toString()));
            List<List<String>> expected = new ArrayList<>();
            for (TableSchema t : tables()) {
                expected.add(sparkRows(spark, t.name()));
            }
            OutputViews.register(spark, List.of(parted.toString()));
            for (int i = 0; i < tables().size(); i++) {
                TableSchema t = tables().get(i);
                assertEquals(expected.get(i), sparkRows(spark, t.name()), t.name());
                boolean dated = !FLAT.contains(t.name()) && !BY_SOURCE.contains(t.name());
                assertEquals(dated, List.of(spark.table(t.name()).columns()).contains("date"), t.name());
                if (dated) {
                    assertEquals(DataTypes.DateType, spark.table(t.name()).schema().apply("date").dataType());
                }
            }
            String q = "SELECT count(*) FROM exchanges WHERE source = '" + sources.get(0) + "' AND date >= DATE '"
                    + dates.get(0) + "'";
            assertEquals(Long.parseLong(only("SELECT count(*) FROM " + DuckTables.files(flat, "exchanges")
                    + " WHERE source = '" + sources.get(0) + "'")), spark.sql(q).first().getLong(0));
            String plan = spark.sql(q).queryExecution().executedPlan().toString();
            assertTrue(plan.contains("PartitionFilters: [isnotnull(source"), plan);
            // a flat and a partitioned output in one view: joined by column name, date null in the flat one's rows
            OutputViews.register(spark, List.of(flat.toString(), parted.toString()));
            Row r = spark.sql("SELECT count(*), count(date) FROM connections").first();
            long n = expected.get(tables().indexOf(EngineTables.CONNECTIONS)).size();
            assertEquals(2 * n, r.getLong(0));
            assertEquals(n, r.getLong(1));
            aSourceNamedLikeANumberStaysAString(spark, dir);
            theWrittenSchemaIsTheInferredOne(spark);
        } finally {
            spark.stop();
        }
    }

    @Test
    void exportWritesTheSameConnLogFromEitherLayout(@TempDir Path dir) throws Exception {
        List<String> fromFlat = connLog(flat, dir.resolve("flat.log"));
        assertEquals(42, fromFlat.size(), "one line per connection of both sources");
        assertEquals(fromFlat, connLog(parted, dir.resolve("parted.log")));
    }

    /** The data lines of {@code export --zeek-conn} of {@code out} (its header has the time it was written). */
    private static List<String> connLog(Path out, Path log) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[]{"export", out.toString(), "--zeek-conn", log.toString()}, ps, ps),
                buf.toString(StandardCharsets.UTF_8));
        return Files.readAllLines(log).stream().filter(l -> !l.startsWith("#")).toList();
    }

    /** A view's rows as sorted text, without {@code date} (a flat output has none). */
    private static List<String> sparkRows(SparkSession spark, String view) {
        return sorted(spark.table(view).drop("date"));
    }

    /**
     * The views read each table with the Spark schema its first file's footer holds ({@link OutputViews#table}):
     * for every table of the three outputs (partitioned, flat, and one run's) that gives the schema (names, types,
     * nullability, metadata, order, partition columns) and the rows Spark's own schema inference gives
     * ({@link OutputViews#inferred}); for a source named like a number, the schema of any other name.
     */
    private static void theWrittenSchemaIsTheInferredOne(SparkSession spark) throws IOException {
        int compared = 0;
        java.util.Set<String> dated = new java.util.HashSet<>();
        for (Path out : List.of(whole, parted, flat)) {
            for (TableSchema t : tables()) {
                Path dir = out.resolve(t.name());
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                List<String> files;
                try (Stream<Path> s = Files.walk(dir)) {
                    files = s.filter(p -> p.getFileName().toString().endsWith(".parquet")
                            && !dir.relativize(p).toString().matches("(.*/)?[._].*")).map(Path::toString).sorted()
                            .toList();
                }
                if (files.isEmpty()) {
                    continue;
                }
                org.apache.spark.sql.types.StructType written = OutputViews.writtenSchema(
                        spark.sparkContext().hadoopConfiguration(), files.get(0));
                assertNotNull(written, files.get(0) + ": no Spark schema in its footer");
                var fast = OutputViews.table(spark, dir.toString(), files);
                var slow = OutputViews.inferred(spark, dir.toString(), files);
                assertEquals(slow.schema(), fast.schema(), dir.toString());
                assertEquals(slow.schema().json(), fast.schema().json(), dir.toString());
                assertEquals(sorted(slow), sorted(fast), dir.toString());
                if (List.of(fast.columns()).contains("date")) {
                    dated.add(t.name());
                }
                compared++;
            }
        }
        assertTrue(compared >= 3 * 10, "tables compared: " + compared);
        assertFalse(dated.isEmpty(), "partitioned tables with a date among them");
        // a source named like a number: Spark's inference types it as an int, and read again as a string it comes
        // last; the footer's schema keeps it a string where the files have it, as for any other name
        Path numbered = parted.getParent().resolve("sources-2026").resolve("sources");
        String file;
        try (Stream<Path> s = Files.walk(numbered)) {
            file = s.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow().toString();
        }
        var fast = OutputViews.table(spark, numbered.toString(), List.of(file));
        assertEquals(OutputViews.inferred(spark, parted.resolve("sources").toString(),
                List.of(firstPart(parted.resolve("sources")))).schema(), fast.schema());
        assertEquals("2026", fast.first().getAs("source"));
        assertEquals(sorted(OutputViews.inferred(spark, numbered.toString(), List.of(file)).drop("source")),
                sorted(fast.drop("source")));
    }

    private static String firstPart(Path table) throws IOException {
        try (Stream<Path> s = Files.walk(table)) {
            return s.filter(p -> p.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow().toString();
        }
    }

    private static List<String> sorted(org.apache.spark.sql.Dataset<Row> df) {
        List<String> rows = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            rows.add(r.toString());
        }
        rows.sort(null);
        return rows;
    }

    /** A source named like a number ({@code source=2026}) is still a string: Spark would type it as an int. */
    private static void aSourceNamedLikeANumberStaysAString(SparkSession spark, Path dir) throws IOException {
        Path t = Files.createDirectories(dir.resolve("sources").resolve("source=2026"));
        Path part = HiveLayout.partition(parted.resolve("sources"), sources.get(0), dates.get(0));
        try (Stream<Path> s = Files.list(part)) {
            Files.copy(s.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow(),
                    t.resolve("part-00000.parquet"));
        }
        var df = OutputViews.table(spark, dir.resolve("sources").toString());
        assertEquals(DataTypes.StringType, df.schema().apply("source").dataType());
        assertEquals("2026", df.first().getAs("source"));
        var listed = OutputViews.table(spark, dir.resolve("sources").toString(),
                List.of(t.resolve("part-00000.parquet").toString()));
        assertEquals(DataTypes.StringType, listed.schema().apply("source").dataType());
        assertEquals("2026", listed.first().getAs("source"));
        copyTree(dir.resolve("sources"), parted.getParent().resolve("sources-2026").resolve("sources"));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q);
                }
            }
        }
    }

    @Test
    void theReportOfThePartitionedOutputIsTheOneRunsReport(@TempDir Path dir) throws Exception {
        String one = report(whole, dir.resolve("whole.html"));
        String fromParted = report(parted, dir.resolve("parted.html"));
        assertNotEquals(-1, one.indexOf(SAMPLES.get(1)), "both files listed");
        assertTrue(one.contains(" of file 1, "), "the flow graphs of the second file's connections");
        assertEquals(one, fromParted);
        assertEquals(one, report(flat, dir.resolve("flat.html")));
    }

    /** The report of {@code out}, its times and its tables directory masked. */
    private static String report(Path out, Path html) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[]{"report", out.toString(), "--out", html.toString()}, ps, ps),
                buf.toString(StandardCharsets.UTF_8));
        return Files.readString(html).replace(out.toAbsolutePath().toString(), "<out>").replace(out.toString(),
                "<out>").replaceAll("generated \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC", "generated <time>");
    }
}
