package io.ackscope.spark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page of a run that appends ({@code analyze --incremental} through the command, which makes the report from a view
 * of the whole dataset: {@link io.ackscope.spark.commit.DatasetView}) is the page of one run over the files so far.
 * Apart from {@link AppendAnalyzeTest}: the command stops the Spark session it runs in.
 */
class AppendReportTest {
    @TempDir
    static Path tmp;

    /** {@code out}'s report.html with its time and its directory masked, as bench/tables-equal.sh compares it. */
    private static String page(Path out) throws Exception {
        return Files.readString(out.resolve("report.html")).replace(out.toAbsolutePath().toString(), "<out>")
                .replaceAll("generated \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC", "generated <time>");
    }

    @Test
    void theReportOfEachAppendingRunIsThatOfOneRunOverTheFilesSoFar() throws Exception {
        List<Path> pieces = IncrementalAnalyzeTest.cut("nginx-nodelay-off.pcap.gz", 2000, tmp.resolve("page/src"));
        Path archive = tmp.resolve("archive-page");
        Path out = tmp.resolve("out-page");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (int i = 0; i < pieces.size(); i++) {
            IncrementalAnalyzeTest.add(archive, pieces.get(i), Duration.ofMinutes(5));
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            PrintStream was = System.err;
            System.setErr(new PrintStream(err, true));     // analyze says what it does on standard error
            try {
                assertEquals(0, io.ackscope.cli.Main.run(new String[]{"analyze", archive.toString(), "--out",
                        out.toString(), "--incremental", "--settle", "0s"}, quiet, System.err));
            } finally {
                System.setErr(was);
            }
            if (i > 0) {
                assertTrue(err.toString().contains("adding 1 new of " + (i + 1) + " files"), err.toString());
            }
        }
        Path ref = tmp.resolve("ref-page");
        assertEquals(0, io.ackscope.cli.Main.run(new String[]{"analyze", archive.toString(), "--out", ref.toString()},
                quiet, quiet));
        assertEquals(page(ref), page(out), "report.html, but for its time and directory");
        assertTrue(page(out).contains("43."), "the stall is on the page");
    }
}
