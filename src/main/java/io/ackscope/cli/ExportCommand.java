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

    @Override
    public int run() throws Exception {
        boolean toStdout = zeekConn.equals("-");
        if (!toStdout) {
            checkOutputFile("--zeek-conn", zeekConn);
        }
        SparkSession spark = session("ackscope export");
        try {
            if (!OutputViews.register(spark, outputs).containsKey("connections")) {
                throw new ParameterException("no connections table in " + String.join(", ", outputs));
            }
            if (!java.util.Arrays.asList(spark.table("connections").columns()).contains(Connections.FIRST_TIME.name())) {
                throw new IOException(String.join(", ", outputs) + ": connections has no " + Connections.FIRST_TIME.name()
                        + " column (an output written before schema version " + FIRST_TIME_VERSION
                        + "): analyze the captures again");
            }
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
