package io.ackscope.report;

import io.ackscope.capture.Fifos;
import io.ackscope.cli.Main;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A capture that can be read only once (a FIFO, standard input) is analysed from that one read, and the report,
 * which re-reads captures for its flow graphs, leaves them out for it and says why instead of waiting for a second
 * writer on the FIFO.
 */
class PipedCaptureReportTest {

    @TempDir
    Path tmp;

    private static long rows(Path dir, TableSchema table) throws IOException {
        AtomicLong n = new AtomicLong();
        TableReader.scan(dir, table, java.util.List.of(table.column("stream")), b -> n.addAndGet(b.rows));
        return n.get();
    }

    /** A second open of the FIFO would block for ever: the timeout turns that hang into a failure. */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void analyzeReadsAFifoOnceAndTheReportSaysWhyItHasNoFlowGraphs() throws Exception {
        Path fifo = Fifos.make(tmp.resolve("capture.fifo"));
        Thread writer = Fifos.feed(fifo, Files.readAllBytes(AnalyzedCaptures.LATENCY));
        Path out = tmp.resolve("out");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int code = Main.run(new String[] {"analyze", fifo.toString(), "--out", out.toString()}, ps, ps);
        writer.join();
        assertEquals(0, code, buf.toString(StandardCharsets.UTF_8));

        Path fromFile = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        for (TableSchema table : new TableSchema[] {Tables.CONNECTIONS, Tables.ACK_DELAYS, Tables.RTT_SAMPLES}) {
            assertEquals(rows(fromFile, table), rows(out, table), table.name() + ": the FIFO analysed as the file");
        }
        java.util.List<String> reasons = new java.util.ArrayList<>();
        TableReader.scan(out, Tables.CAPTURE_FILES, java.util.List.of(CaptureFilesTable.WHOLE_REASON),
                b -> reasons.addAll(
                        java.util.Arrays.asList(b.strings(CaptureFilesTable.WHOLE_REASON)).subList(0, b.rows)));
        assertEquals(java.util.List.of("not a regular file (a FIFO or device): read once, whole"), reasons);
        String html = Files.readString(out.resolve(Report.FILE_NAME));
        assertTrue(html.contains("No flow graph: the capture " + fifo + " was a pipe or device that analyze read "
                + "once, so its packets cannot be read again"), "no note on the missing flow graphs");
        assertFalse(Files.readString(fromFile.resolve(Report.FILE_NAME)).contains("No flow graph"),
                "the file's report has its flow graphs");
    }

    @Test
    void onlyRegularFilesOutsideDevAndProcAreReadAgain() throws Exception {
        Path file = Files.writeString(tmp.resolve("capture.pcap"), "x");
        assertTrue(LadderReader.rereadable(file));
        assertFalse(LadderReader.rereadable(Fifos.make(tmp.resolve("f"))));
        assertFalse(LadderReader.rereadable(Path.of("/dev/stdin")), "names the report's own input");
        assertFalse(LadderReader.rereadable(Path.of("/proc/self/fd/0")));
        assertFalse(LadderReader.rereadable(tmp), "a directory");
    }
}
