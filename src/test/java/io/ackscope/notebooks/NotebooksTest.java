package io.ackscope.notebooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ackscope.cli.Main;
import io.ackscope.spark.views.OutputViews;
import io.ackscope.tables.DuckTables;
import io.ackscope.tables.HiveLayout;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Assumptions;
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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyst notebooks and docs/analysts.md against real analyze outputs of the two nginx samples (stalling and
 * fixed). Every query in them runs through DuckDB's JDBC driver, so a renamed column fails the build; then every
 * notebook runs top to bottom in Jupyter's own executor (nbclient) and its key figures are checked against the
 * tables. Where Python lacks nbclient, ipykernel, duckdb, pandas or matplotlib, that second part says so loudly and
 * is skipped, or fails when {@code ACKSCOPE_REQUIRE_NOTEBOOKS} is set (as .ci/run sets it). The stalling output
 * stays partitioned by source and date as the writer made it (the docs' pruning question needs its {@code date});
 * the fixed one is laid out flat, as schema version 3 and before wrote tables ({@link HiveLayout#flatten}), so the
 * notebooks read both layouts.
 */
class NotebooksTest {

    private static final Path NOTEBOOKS = Path.of("notebooks");
    private static final Path ANALYSTS = Path.of("docs", "analysts.md");
    private static final Pattern SQL_IN_CELL = Pattern.compile("con\\.sql\\(\"\"\"(.*?)\"\"\"\\)", Pattern.DOTALL);
    private static final Pattern SQL_IN_DOC = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern SPARK_SQL_IN_DOC = Pattern.compile("```sparksql\\n(.*?)```", Pattern.DOTALL);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path off;
    private static Path on;

    @BeforeAll
    static void analyze(@TempDir Path dir) throws IOException {
        off = analyze("sample-pcaps/nginx-nodelay-off.pcap.gz", dir.resolve("off"));
        on = analyze("sample-pcaps/nginx-nodelay-on.pcap.gz", dir.resolve("on"));
        HiveLayout.flatten(on);
    }

    private static Path analyze(String capture, Path out) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[]{"analyze", capture, "--out", out.toString()}, ps, ps),
                buf.toString(StandardCharsets.UTF_8));
        return out.toAbsolutePath();
    }

    /** A DuckDB session with the stalling output's tables as views, and both outputs as schemas before/after. */
    private static Connection duckdb() throws SQLException, IOException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
            views(s, off, "main");
            views(s, off, "before");
            views(s, on, "after");
        }
        return c;
    }

    private static void views(Statement s, Path out, String schema) throws SQLException, IOException {
        DuckTables.views(s, out, schema);
    }

    private static List<String> notebookQueries() throws IOException {
        List<String> queries = new ArrayList<>();
        try (var files = Files.list(NOTEBOOKS)) {
            for (Path nb : files.filter(p -> p.toString().endsWith(".ipynb")).sorted().toList()) {
                for (JsonNode cell : JSON.readTree(nb.toFile()).get("cells")) {
                    if (!cell.get("cell_type").asText().equals("code")) {
                        continue;
                    }
                    StringBuilder src = new StringBuilder();
                    cell.get("source").forEach(l -> src.append(l.asText()));
                    Matcher m = SQL_IN_CELL.matcher(src.toString().replace("\\\"", "\""));
                    while (m.find()) {
                        queries.add(nb.getFileName() + ": " + m.group(1));
                    }
                }
            }
        }
        return queries;
    }

    /** The code blocks of docs/analysts.md that {@code pattern} finds, in order. */
    private static List<String> docBlocks(Pattern pattern) throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher m = pattern.matcher(Files.readString(ANALYSTS));
        while (m.find()) {
            blocks.add(m.group(1).strip().replaceAll(";\\s*$", ""));
        }
        return blocks;
    }

    /**
     * Each question of docs/analysts.md in Spark SQL (as {@code ackscope sql} runs it: {@link OutputViews}) gives the
     * rows its DuckDB form gives, cell by cell (numbers compared as decimals, times as instants).
     */
    @Test
    void everySparkSqlQueryOfTheDocsGivesTheDuckdbQuerysRows() throws Exception {
        List<String> duck = docBlocks(SQL_IN_DOC);
        List<String> spark = docBlocks(SPARK_SQL_IN_DOC);
        assertEquals(duck.size(), spark.size(), "every question in both dialects");
        SparkSession session = SparkSession.builder().master("local[1]").appName("analysts.md")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.session.timeZone", "UTC").getOrCreate();
        try (Connection c = duckdb(); Statement st = c.createStatement()) {
            OutputViews.register(session, List.of(off.toString()));
            for (int i = 0; i < duck.size(); i++) {
                List<List<String>> fromSpark = new ArrayList<>();
                for (Row r : session.sql(spark.get(i)).collectAsList()) {
                    List<String> row = new ArrayList<>();
                    for (int k = 0; k < r.length(); k++) {
                        row.add(cell(r.get(k)));
                    }
                    fromSpark.add(row);
                }
                List<List<String>> fromDuckdb = new ArrayList<>();
                try (ResultSet r = st.executeQuery(duck.get(i))) {
                    while (r.next()) {
                        List<String> row = new ArrayList<>();
                        for (int k = 1; k <= r.getMetaData().getColumnCount(); k++) {
                            row.add(cell(r.getObject(k)));
                        }
                        fromDuckdb.add(row);
                    }
                }
                assertTrue(!fromDuckdb.isEmpty(), duck.get(i));
                assertEquals(fromDuckdb, fromSpark, spark.get(i));
            }
        } finally {
            session.stop();
        }
    }

    /** A cell of either engine as comparable text. */
    private static String cell(Object v) {
        if (v instanceof Number n) {
            return new java.math.BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
        }
        if (v instanceof java.sql.Timestamp t) {
            return t.toInstant().toString();
        }
        if (v instanceof java.time.OffsetDateTime t) {
            return t.toInstant().toString();
        }
        if (v instanceof java.time.LocalDateTime t) {
            return t.toInstant(java.time.ZoneOffset.UTC).toString();
        }
        return String.valueOf(v);
    }

    @Test
    void everyQueryOfTheNotebooksAndDocsRunsOnDuckdb() throws Exception {
        List<String> queries = new ArrayList<>(notebookQueries());
        Matcher m = SQL_IN_DOC.matcher(Files.readString(ANALYSTS));
        int doc = 0;
        while (m.find()) {
            queries.add("docs/analysts.md: " + m.group(1));
            doc++;
        }
        assertTrue(queries.size() - doc >= 10, "notebook queries found: " + (queries.size() - doc));
        assertTrue(doc >= 6, "docs/analysts.md queries found: " + doc);
        List<String> failures = new ArrayList<>();
        try (Connection c = duckdb(); Statement s = c.createStatement()) {
            for (String q : queries) {
                String sql = q.substring(q.indexOf(": ") + 2).strip().replaceAll(";\\s*$", "");
                try (ResultSet r = s.executeQuery(sql)) {
                    assertTrue(r.getMetaData().getColumnCount() > 0);
                } catch (SQLException e) {
                    failures.add(q.substring(0, q.indexOf(": ")) + ": " + e.getMessage().lines().findFirst()
                            .orElse("") + "\n  in: " + sql.lines().findFirst().orElse(""));
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void notebooksRunTopToBottomAndAgreeWithTheTables(@TempDir Path tmp) throws Exception {
        String python = python();
        JsonNode pm = execute(python, "postmortem.ipynb", tmp, Map.of("ACKSCOPE_OUT", off.toString()));
        JsonNode ba = execute(python, "before-after.ipynb", tmp,
                Map.of("ACKSCOPE_BEFORE", off.toString(), "ACKSCOPE_AFTER", on.toString()));
        try (Connection c = duckdb(); Statement s = c.createStatement()) {
            assertEquals(scalar(s, "SELECT count(*) FROM exchanges WHERE complete_us IS NOT NULL"),
                    pm.get("requests").asLong());
            assertEquals(1360, pm.get("requests").asLong());
            assertEquals(scalar(s, "SELECT count(*) FROM stalls"), pm.get("stalled_requests").asLong());
            assertEquals(1340, pm.get("after_first_requests").asLong());
            long p50 = pm.get("after_first_p50_us").asLong();
            assertEquals(scalar(s, "SELECT quantile_disc(complete_us, 0.5) FROM exchanges WHERE exchange_index > 0"),
                    p50);
            assertTrue(p50 > 40_000 && p50 < 48_000, "the delayed-ACK timer: " + p50);
            assertEquals(scalar(s, "SELECT count(*) FROM ack_delays WHERE ack_class = 'DELAYED_40MS'"),
                    pm.get("delayed_40ms_acks").asLong());
            assertEquals(scalar(s, "SELECT quantile_disc(complete_us, 0.5) FROM after.exchanges"),
                    ba.get("after_p50_us").asLong());
            assertTrue(ba.get("after_p50_us").asLong() < 2_000, "fixed: " + ba);
            assertEquals(0, ba.get("after_stalled").asLong());
        }
    }

    private static long scalar(Statement s, String q) throws SQLException {
        try (ResultSet r = s.executeQuery(q)) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * Runs {@code name} with nbclient; returns its key-figures line, after checking that no cell failed and that it
     * drew as many plots as it says.
     */
    private static JsonNode execute(String python, String name, Path tmp, Map<String, String> env) throws Exception {
        Path executed = tmp.resolve(name);
        ProcessBuilder pb = new ProcessBuilder(python, "execute.py", name, executed.toString(), "300")
                .directory(NOTEBOOKS.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("MPLBACKEND", "module://matplotlib_inline.backend_inline");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(360, TimeUnit.SECONDS), name + " did not finish");
        assertEquals(0, p.exitValue(), name + ": " + out);
        JsonNode figures = null;
        int images = 0;
        for (JsonNode cell : JSON.readTree(executed.toFile()).get("cells")) {
            for (JsonNode o : cell.path("outputs")) {
                assertTrue(!o.get("output_type").asText().equals("error"), name + ": " + o);
                images += o.path("data").has("image/png") ? 1 : 0;
                if (o.get("output_type").asText().equals("stream")) {
                    StringBuilder t = new StringBuilder();
                    o.get("text").forEach(l -> t.append(l.asText()));
                    if (t.toString().startsWith("{")) {
                        figures = JSON.readTree(t.toString());
                    }
                }
            }
        }
        assertTrue(figures != null, name + " printed no key figures");
        assertEquals(figures.get("plots").asInt(), images, name + ": plots drawn");
        return figures;
    }

    /** The Python that has what the notebooks need, or a loud skip (a failure under ACKSCOPE_REQUIRE_NOTEBOOKS). */
    private static String python() throws Exception {
        List<String> candidates = new ArrayList<>();
        if (System.getenv("ACKSCOPE_NOTEBOOK_PYTHON") != null) {
            candidates.add(System.getenv("ACKSCOPE_NOTEBOOK_PYTHON"));
        }
        candidates.add(Path.of(".venv-notebooks", "bin", "python").toAbsolutePath().toString());
        candidates.add("python3");
        String why = "";
        for (String python : candidates) {
            try {
                Process p = new ProcessBuilder(python, "-c",
                        "import nbclient, nbformat, ipykernel, matplotlib_inline, duckdb, pandas, matplotlib")
                        .redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return python;
                }
                why += "\n  " + python + ": " + out.strip().lines().reduce((a, b) -> b).orElse("");
            } catch (IOException e) {
                why += "\n  " + python + ": " + e.getMessage();
            }
        }
        String message = "NOTEBOOKS NOT EXECUTED: no Python with nbclient, ipykernel, duckdb, pandas and matplotlib"
                + why + "\n  make one: python3 -m venv .venv-notebooks && .venv-notebooks/bin/pip install "
                + "nbclient ipykernel duckdb pandas matplotlib (as .ci/run does)";
        System.err.println(message);
        if (System.getenv("ACKSCOPE_REQUIRE_NOTEBOOKS") != null) {
            throw new AssertionError(message);
        }
        Assumptions.abort(message);
        return null;
    }
}
