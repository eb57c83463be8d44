package io.ackscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ackscope vantage} on the two-point lab pair (the figures: io.ackscope.vantage.PairAnalysisTest). */
class VantageCommandTest {
    static final String CLIENT = "sample-pcaps/lab-two-points-client.pcap.gz";
    static final String SERVER = "sample-pcaps/lab-two-points-server.pcap.gz";

    /** Runs the command itself: {@link Main} hands it no stream (commands print to standard output). */
    private static String[] print(boolean strict, String a, String b) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        VantageCommand c = new VantageCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        c.files = List.of(a, b);
        c.strict = strict;
        int rc = c.run();
        return new String[] {Integer.toString(rc), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void printsThePairWithTheClientsCaptureAsA() throws Exception {
        String[] r = print(false, SERVER, CLIENT);
        assertEquals("0", r[0]);
        assertTrue(r[1].contains("source_a           " + CLIENT + " (nearer the clients)"), r[1]);
        assertTrue(r[1].contains("connections        4\n"), r[1]);
        assertTrue(r[1].contains("lost_a_to_b        8\n"), r[1]);
        assertTrue(r[1].contains("lost_b_to_a        9\n"), r[1]);
        assertTrue(r[1].matches("(?s).*clock_offset       \\+123[45]\\.\\d{3} ms .*"), r[1]);
        assertEquals(4, r[1].lines().filter(l -> l.matches("\\d+\t\\d+\t10\\.219\\.0\\.1:\\d+\t10\\.219\\.0\\.2:18790"
                + "\tfalse\t\\d+\t\\d+\t\\d+")).count(), r[1]);
    }

    @Test
    void capturesWithNothingInCommonSaySo() throws Exception {
        String[] r = print(false, CLIENT, "sample-pcaps/nginx-nodelay-on.pcap.gz");
        assertEquals("0", r[0]);
        assertEquals("no connection in common\n", r[1]);
    }

    @Test
    void anythingButTwoCapturesIsAUsageError() {
        String[] r = LabCommandTest.run("vantage", "-r", CLIENT);
        assertEquals("2", r[0]);
        assertTrue(r[2].contains("ackscope vantage: -r: give exactly two captures, one per point (got 1)"), r[2]);
        String[] missing = LabCommandTest.run("vantage", "-r", CLIENT, "-r", "sample-pcaps/no-such.pcap");
        assertEquals("1", missing[0]);
        assertTrue(missing[2].startsWith("ackscope vantage: sample-pcaps/no-such.pcap"), missing[2]);
    }

    @Test
    void aCaptureCutShortIsReportedAndPairedOnWhatCameBefore(@TempDir Path tmp) throws Exception {
        byte[] whole;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(Path.of(CLIENT)))) {
            whole = in.readAllBytes();
        }
        Path cut = tmp.resolve("client-cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, whole.length - 30));    // the last record loses its end
        String[] r = print(false, cut.toString(), SERVER);
        assertEquals("0", r[0]);
        assertTrue(r[1].contains("connections        4\n"), r[1]);
        assertTrue(r[2].startsWith("ackscope vantage: " + cut + ": byte "), r[2]);
        assertTrue(r[2].contains("cut short") && r[2].endsWith("(the pair covers the frames before it)\n"), r[2]);
        assertEquals("3", print(true, cut.toString(), SERVER)[0]);
    }
}
