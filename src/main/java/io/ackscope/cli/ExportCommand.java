package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.spark.OutputViews;
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
 * Zeek. {@code -} writes to standard output.
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
            try (var r = org.apache.parquet.hadoop.ParquetFileReader.open(
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
        boolean toStdout = zeekConn.equals("-");
        if (!toStdout) {
            checkOutputFile("--zeek-conn", zeekConn);
            ResultTarget.refuse("--zeek-conn", zeekConn, outputs, false);
        }
        SparkSession spark = session("ackscope export");
        try {
            OutputSnapshot snapshot = OutputSnapshot.take(spark.sparkContext().hadoopConfiguration(), outputs);
            if (!OutputViews.register(spark, outputs).containsKey("connections")) {
                throw new ParameterException("no connections table in " + String.join(", ", outputs));
            }
            if (!java.util.Arrays.asList(spark.table("connections").columns()).contains(Connections.FIRST_TIME.name())) {
                throw new IOException(String.join(", ", outputs) + ": connections has no " + Connections.FIRST_TIME.name()
                        + " column (an output written before schema version " + FIRST_TIME_VERSION
                        + "): analyze the captures again");
            }
            requireColumns(spark.table("connections"), spark.sparkContext().hadoopConfiguration());
            Dataset<Row> rows = spark.table("connections")
                    .select(ZeekConnLog.COLUMNS.stream().map(org.apache.spark.sql.functions::col)
                            .toArray(org.apache.spark.sql.Column[]::new))
                    .orderBy(Connections.FIRST_TIME.name(), "source", "client_ip", "client_port");
            Writer w = toStdout ? new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8))
                    : Files.newBufferedWriter(Path.of(zeekConn), StandardCharsets.UTF_8);
            long n;
            try {
                n = ZeekConnLog.write(rows.toLocalIterator(), w, Instant.now());
                w.flush();
            } finally {
                if (!toStdout) {
                    w.close();
                }
            }
            try {
                snapshot.verify();
            } catch (IOException e) {
                if (!toStdout) {
                    Files.deleteIfExists(Path.of(zeekConn));
                }
                throw e;
            }
            if (!toStdout) {
                console.println(n + (n == 1 ? " connection" : " connections") + " written to "
                        + TerminalText.escape(zeekConn));
            }
            return EXIT_OK;
        } catch (ParameterException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw CommandFailure.line(EXIT_FAILURE, oneLine(e), e);
        } finally {
            spark.stop();
        }
    }
}
