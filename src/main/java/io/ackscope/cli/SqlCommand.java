package io.ackscope.cli;

import com.beust.jcommander.IParameterValidator;
import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.spark.views.OutputViews;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ackscope sql DIR... "QUERY"}: Spark SQL over the tables of one or more analyze outputs, each table a view
 * of its name (over every output given), and the captures of {@code --pcap} as the view {@code pcap}. The result
 * goes to standard output as an aligned table, CSV or JSON Lines, or to {@code --out FILE} as CSV, JSON Lines or
 * Parquet by the file's extension. Runs embedded Spark, as analyze does.
 */
@Parameters(commandDescription = "Run a SQL query over analyze outputs (each table a view; --pcap captures as the "
        + "view pcap) and print or write the result")
final class SqlCommand extends TablesCommand {

    @Parameter(description = "DIR... QUERY (analyze outputs, then the query; with --file, outputs only)",
            required = true)
    List<String> args = new ArrayList<>();

    @Parameter(names = {"-f", "--file"}, description = "Read the query from this file")
    String file;

    @Parameter(names = "--format", description = "Standard output form: table, csv or json (one object per line)",
            validateWith = FormatName.class)
    String format = "table";

    @Parameter(names = "--out", description = "Write the result to this file instead: .csv, .json (one object per "
            + "line) or .parquet")
    String out;

    @Parameter(names = "--pcap", description = "Capture file, directory or glob to register as the view pcap "
            + "(one row per frame, as analyze --packets); repeatable")
    List<String> pcaps = new ArrayList<>();

    @Parameter(names = "--max-rows", description = "Rows shown in the table form", validateWith =
            OptionRange.Positive.class)
    int maxRows = 1000;

    SqlCommand() {
        this(System.out, System.err);
    }

    SqlCommand(PrintStream stdout, PrintStream console) {
        super(stdout, console);
    }

    /** {@code --format}: table, csv or json. */
    public static final class FormatName implements IParameterValidator {
        @Override
        public void validate(String name, String value) {
            if (!List.of("table", "csv", "json").contains(value)) {
                throw new ParameterException(name + " must be table, csv or json: " + value);
            }
        }
    }

    @Override
    public int run() throws Exception {
        List<String> outputs = new ArrayList<>(args);
        String query;
        if (file != null) {
            query = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } else {
            if (outputs.size() < 2) {
                throw new ParameterException("expected DIR... \"QUERY\" (or DIR... --file q.sql)");
            }
            query = outputs.remove(outputs.size() - 1);
        }
        String kind = out == null ? format : extension(out);
        if (out != null) {
            checkOutputFile("--out", out);
            List<String> read = new ArrayList<>(outputs);
            read.addAll(pcaps);
            ResultTarget.refuse("--out", out, read, false);
        }
        SparkSession spark = session("ackscope sql");
        try {
            OutputSnapshot snapshot = OutputSnapshot.take(spark.sparkContext().hadoopConfiguration(), outputs);
            Map<String, List<String>> views = OutputViews.register(spark, outputs, OutputViews.namedIn(query),
                    true);
            if (!pcaps.isEmpty()) {
                OutputViews.registerCaptures(spark, pcaps);
            }
            long rows;
            try {
                rows = write(query(spark, query, views), kind);
                snapshot.verify();
            } catch (IOException | RuntimeException e) {
                if (out != null) {
                    Files.deleteIfExists(Path.of(out));
                }
                // a commit that replaced files under the query fails it with Spark's "file not found": say why
                snapshot.verify();
                throw e;
            }
            if (out != null) {
                console.println(rows + (rows == 1 ? " row" : " rows") + " written to " + TerminalText.escape(out));
            }
            return EXIT_OK;
        } catch (CommandFailure e) {
            throw e;
        } catch (IOException e) {
            throw CommandFailure.line(EXIT_FAILURE, oneLine(e), e);
        } catch (RuntimeException e) {
            throw CommandFailure.line(EXIT_FAILURE, oneLine(e), e);
        } finally {
            spark.stop();
        }
    }

    /**
     * The query's result, analysed; a query Spark cannot parse or resolve is a usage error with Spark's first line
     * and the views there are. (Spark throws its AnalysisException, a checked exception, undeclared.) A statement
     * that is not read-only ({@link QueryGuard}) is refused before Spark runs it.
     */
    private Dataset<Row> query(SparkSession spark, String query, Map<String, List<String>> views)
            throws CommandFailure {
        try {
            QueryGuard.check(spark.sessionState().sqlParser(), query);
            Dataset<Row> result = spark.sql(query);
            QueryGuard.checkAnalyzed(result.queryExecution().analyzed());
            return result;
        } catch (QueryGuard.Refused e) {
            throw CommandFailure.line(EXIT_USAGE, e.getMessage(), e);
        } catch (Exception e) {
            if (e instanceof org.apache.spark.sql.AnalysisException || e instanceof IllegalArgumentException) {
                throw CommandFailure.line(EXIT_USAGE, "query: " + oneLine(e) + " (views: "
                        + String.join(", ", views.keySet()) + (pcaps.isEmpty() ? "" : ", pcap") + ")", e);
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e);
        }
    }

    private static String extension(String file) {
        String lower = file.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".csv")) {
            return "csv";
        }
        if (lower.endsWith(".json") || lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) {
            return "json";
        }
        if (lower.endsWith(".parquet")) {
            return "parquet";
        }
        throw new ParameterException("--out " + file + ": give a .csv, .json or .parquet file");
    }

    private long write(Dataset<Row> result, String kind) throws IOException {
        if (kind.equals("parquet")) {
            return writeParquet(result, Path.of(out));
        }
        Writer w = out != null
                ? Files.newBufferedWriter(Path.of(out), StandardCharsets.UTF_8)
                : new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8));
        try {
            var it = result.toLocalIterator();
            long n = switch (kind) {
                case "csv" -> ResultWriter.csv(result.schema(), it, w);
                case "json" -> ResultWriter.jsonLines(result.schema(), it, w);
                default -> {
                    ResultWriter.table(result.schema(), it, maxRows, w);
                    yield -1;
                }
            };
            w.flush();
            return n;
        } finally {
            if (out != null) {
                w.close();
            }
        }
    }

    /** One Parquet file: Spark writes one part into a folder beside it, which then becomes the file. */
    private static long writeParquet(Dataset<Row> result, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent().resolve("." + file.getFileName() + ".ackscope-tmp");
        Dataset<Row> one = result.coalesce(1);
        one.write().mode("overwrite").parquet(dir.toString());
        try (var parts = Files.list(dir)) {
            Path part = parts.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst()
                    .orElseThrow(() -> new IOException("Spark wrote no Parquet file in " + dir));
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            try (var left = Files.walk(dir)) {
                for (Path p : left.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        return result.sparkSession().read().parquet(file.toString()).count();
    }
}
