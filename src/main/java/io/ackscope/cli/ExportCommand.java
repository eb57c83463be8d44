package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.spark.views.OutputViews;
import io.ackscope.spark.views.ZeekConnLog;
import io.ackscope.tables.EngineTables.Connections;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ackscope export DIR... --zeek-conn FILE}: the connections of one or more analyze outputs as Zeek's
 * {@code conn.log} ({@link ZeekConnLog}), in order of first packet, for zeek-cut, Brim/Zui and scripts written for
 * Zeek. {@code -} writes to standard output. Local outputs are read with {@code tables/TableReader}, without a Spark
 * session; outputs on other file systems (or with {@code --master} a cluster) through Spark.
 */
@Parameters(commandDescription = "Export analyze outputs in other tools' formats: --zeek-conn FILE writes Zeek's "
        + "conn.log")
final class ExportCommand extends TablesCommand {

    /** The schema version that named connections' first instant {@code first_time}. */
    private static final int FIRST_TIME_VERSION = 3;

    @Parameter(description = "DIR... (analyze outputs)", required = true)
    List<String> outputs = new ArrayList<>();

    @Parameter(names = "--zeek-conn", description = "Write the connections as a Zeek conn.log (TSV with Zeek's "
            + "header lines) to this file, or - for standard output", required = true)
    String zeekConn;

    @Parameter(names = "--format", description = "tsv: Zeek's ASCII log; json: Zeek's JSON log (one object per "
            + "line, as LogAscii::use_json writes it)")
    String format = "tsv";

    ExportCommand() {
        this(System.out, System.err);
    }

    ExportCommand(PrintStream stdout, PrintStream console) {
        super(stdout, console);
    }

    /**
     * Refuses a connections table with a part file that lacks a column the log is made of, as the report does
     * (Spark would read the column as null in that file's rows, and the log would carry {@code null} counts): each
     * file's Parquet footer is read. Partition columns come from the paths and are not looked for in the files.
     *
     * @throws IOException naming the file and the column
     */
    private static void requireColumns(Dataset<Row> connections, org.apache.hadoop.conf.Configuration conf)
            throws IOException {
        for (String file : connections.inputFiles()) {
            // Spark gives URIs (a Hive escape %25 in a partition directory reads %2525): parsed as one, not as a path
            org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(java.net.URI.create(file));
            org.apache.parquet.schema.MessageType schema;
            try (var r = io.ackscope.tables.ParquetFiles.open(
                    org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(path, conf))) {
                schema = r.getFooter().getFileMetaData().getSchema();
            }
            for (String c : ZeekConnLog.COLUMNS) {
                if (!schema.containsField(c) && !path.toUri().getPath().contains("/" + c + "=")) {
                    throw new IOException(path + ": table connections has no column " + c
                            + " (written by a different version of ackscope, or damaged); nothing exported");
                }
            }
        }
    }

    @Override
    public int run() throws Exception {
        ZeekConnLog.Format logFormat = switch (format) {
            case "tsv" -> ZeekConnLog.Format.TSV;
            case "json" -> ZeekConnLog.Format.JSON;
            default -> throw new ParameterException("--format must be tsv or json, not " + format);
        };
        boolean toStdout = zeekConn.equals("-");
        if (!toStdout) {
            checkOutputFile("--zeek-conn", zeekConn);
            ResultTarget.refuse("--zeek-conn", zeekConn, outputs, false);
        }
        List<java.nio.file.Path> local = localOutputs();
        if (local != null) {
            return exportLocal(local, toStdout, logFormat);
        }
        SparkSession spark = session("ackscope export");
        try {
            OutputSnapshot snapshot = OutputSnapshot.take(spark.sparkContext().hadoopConfiguration(), outputs);
            if (!OutputViews.register(spark, outputs, t -> t.equals("connections") || t.equals("exchanges"), false)
                    .containsKey("connections")) {
                throw new ParameterException("no connections table in " + String.join(", ", outputs));
            }
            if (!java.util.Arrays.asList(spark.table("connections").columns()).contains(Connections.FIRST_TIME.name())) {
                throw noFirstTime();
            }
            requireColumns(spark.table("connections"), spark.sparkContext().hadoopConfiguration());
            Dataset<Row> connections = spark.table("connections");
            org.apache.spark.sql.Column httpSeen = org.apache.spark.sql.functions.lit(false);
            if (spark.catalog().tableExists("exchanges")) {
                // one row per connection with an HTTP request or response; joined on the tables' key
                Dataset<Row> http = spark.table("exchanges")
                        .where("http_method IS NOT NULL OR http_status IS NOT NULL")
                        .select("source", "stream").distinct().withColumn("http", org.apache.spark.sql.functions.lit(true));
                connections = connections.join(http, scala.jdk.javaapi.CollectionConverters.asScala(
                        List.of("source", "stream")).toSeq(), "left");
                httpSeen = org.apache.spark.sql.functions.coalesce(org.apache.spark.sql.functions.col("http"),
                        org.apache.spark.sql.functions.lit(false));
            }
            List<org.apache.spark.sql.Column> columns = new ArrayList<>();
            ZeekConnLog.COLUMNS.forEach(c -> columns.add(org.apache.spark.sql.functions.col(c)));
            List<String> present = java.util.Arrays.asList(connections.columns());
            for (io.ackscope.tables.Column c : ZeekConnLog.SIDE_BYTES) {
                // an output written before the column: its fields stay unset
                columns.add(present.contains(c.name()) ? org.apache.spark.sql.functions.col(c.name())
                        : org.apache.spark.sql.functions.lit(null).cast("long").as(c.name()));
            }
            columns.add(httpSeen.as(ZeekConnLog.HTTP_SEEN));
            Dataset<Row> rows = connections.select(columns.toArray(new org.apache.spark.sql.Column[0]))
                    .orderBy(Connections.FIRST_TIME.name(), "source", "client_ip", "client_port");
            return emit(toStdout, w -> ZeekConnLog.write(rows.toLocalIterator(), w, Instant.now(), logFormat),
                    snapshot);
        } catch (ParameterException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw CommandFailure.line(EXIT_FAILURE, oneLine(e), e);
        } finally {
            spark.stop();
        }
    }

    private IOException noFirstTime() {
        return new IOException(String.join(", ", outputs) + ": connections has no " + Connections.FIRST_TIME.name()
                + " column (an output written before schema version " + FIRST_TIME_VERSION
                + "): analyze the captures again");
    }

    /**
     * The outputs as local directories, or null when one is on another file system (read with Spark then, with
     * the Hadoop settings of {@code --conf}) or {@code --master} names a cluster.
     */
    private List<java.nio.file.Path> localOutputs() {
        if (master != null && !master.startsWith("local")
                || conf.stream().anyMatch(kv -> kv.startsWith("spark.master"))) {
            return null;
        }
        List<java.nio.file.Path> local = new ArrayList<>();
        for (String o : outputs) {
            java.net.URI uri = new org.apache.hadoop.fs.Path(o).toUri();
            if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
                return null;
            }
            local.add(Path.of(uri.getPath()));
        }
        return local;
    }

    /** The export of local outputs, read without Spark ({@link ZeekConnLog#writeLocal}). */
    private int exportLocal(List<java.nio.file.Path> local, boolean toStdout, ZeekConnLog.Format logFormat)
            throws CommandFailure {
        try {
            org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
            io.ackscope.spark.commit.NioLocalFileSystem.use(hadoop);
            OutputSnapshot snapshot = OutputSnapshot.take(hadoop, outputs);
            OutputViews.Local views = OutputViews.local(hadoop, outputs);
            if (!views.tables().containsKey("connections")) {
                throw new ParameterException("no connections table in " + String.join(", ", outputs));
            }
            java.util.function.Predicate<java.nio.file.Path> read = views.listed();
            return emit(toStdout, w -> {
                try {
                    return ZeekConnLog.writeLocal(local, read, w, Instant.now(), logFormat);
                } catch (ZeekConnLog.NoFirstTime e) {
                    throw noFirstTime();
                }
            }, snapshot);
        } catch (ParameterException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw CommandFailure.line(EXIT_FAILURE, oneLine(e), e);
        }
    }

    /** What writes the log to a writer and returns the connections written. */
    private interface Body {
        long write(Writer w) throws IOException;
    }

    /**
     * Writes the log to {@code --zeek-conn} (or standard output) and says how many connections went there. The file
     * is replaced only by a complete log: one that failed, or was read while an analyze run committed to an output
     * ({@code snapshot}), is removed and the command fails with the target as it was.
     */
    private int emit(boolean toStdout, Body body, OutputSnapshot snapshot) throws IOException {
        if (toStdout) {
            Writer w = new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8));
            body.write(w);
            w.flush();
            snapshot.verify();
            return EXIT_OK;
        }
        // written beside the target and moved over it whole, so a failed export leaves the target as it was
        Path target = Path.of(zeekConn).toAbsolutePath();
        Path temp = target.resolveSibling("." + target.getFileName() + ".ackscope-" + ProcessHandle.current().pid());
        long n;
        boolean done = false;
        try {
            try (Writer w = Files.newBufferedWriter(temp, StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
                n = body.write(w);
            }
            snapshot.verify();
            Files.move(temp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(temp);
            }
        }
        console.println(n + (n == 1 ? " connection" : " connections") + " written to " + TerminalText.escape(zeekConn));
        return EXIT_OK;
    }
}
