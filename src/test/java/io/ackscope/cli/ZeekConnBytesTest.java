package io.ackscope.cli;

import io.ackscope.tables.DuckTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The byte fields of {@code export --zeek-conn} ({@code orig_bytes}, {@code resp_bytes}, {@code missed_bytes},
 * {@code orig_ip_bytes}, {@code resp_ip_bytes}) against Zeek's rule applied to tshark's dissection of the same
 * capture ({@link TsharkSideBytes}; Zeek itself is not installed here), on the Spark-free and the Spark path.
 */
class ZeekConnBytesTest {

    /** Runs a command in-process. */
    private static void run(Command c, String... args) throws Exception {
        com.beust.jcommander.JCommander.newBuilder().addObject(c).build().parse(args);
        assertEquals(0, c.run());
    }

    /**
     * {@code orig_bytes}/{@code resp_bytes}, {@code missed_bytes} and {@code *_ip_bytes} of one line as Zeek's rule
     * gives them from tshark's numbers ({@link TsharkSideBytes}) for the connection's client and server.
     */
    static void assertZeekBytes(Map<String, TsharkSideBytes.Side> sides, String client, String server,
                                        List<String> bytesAndMissed, List<String> ipBytes) {
        TsharkSideBytes.Side c = sides.get(client);
        TsharkSideBytes.Side s = sides.getOrDefault(server, new TsharkSideBytes.Side(0, 0, 0));
        String where = client + " -> " + server;
        assertEquals(List.of(Long.toString(c.seqBytes()), Long.toString(s.seqBytes()),
                Long.toString(c.missedBytes() + s.missedBytes())), bytesAndMissed, "orig/resp/missed bytes " + where);
        assertEquals(List.of(Long.toString(c.ipBytes()), Long.toString(s.ipBytes())), ipBytes, "ip bytes " + where);
    }

    /**
     * On captures with retransmissions, {@code orig_bytes}/{@code resp_bytes} count the sequence space once, as Zeek
     * does, not the payload bytes sent ({@code lab-cause-loss}, captured where the server's segments and their
     * retransmissions both pass). Where the originals never reached the capture point
     * ({@code lab-cause-loss-client-tail}, {@code lab-cause-queueing}) the retransmissions are the only copies seen;
     * {@code lab-cause-queueing}'s 109 gaps, open by dozens at once, are all filled later, one segment of
     * {@code lab-cause-loss-client-tail} never is. Every figure is checked against tshark's; the Spark-free and the
     * Spark path write the same lines.
     */
    @ParameterizedTest
    @ValueSource(strings = {"lab-cause-loss.pcap.gz",
            "lab-cause-loss-client-tail.pcap.gz", "lab-cause-queueing.pcap.gz"})
    void zeekConnLogCountsRetransmittedBytesOnceOnBothPaths(String name, @TempDir Path dir) throws Exception {
        int retransmitting = 0;
        for (long[] c : exportCheckedAgainstTshark(Path.of("sample-pcaps", name), dir)) {
            if (c[5] > 0 && name.equals("lab-cause-loss.pcap.gz")) {
                retransmitting++;
                assertTrue(c[1] < c[4], "resp_bytes below the payload bytes sent when the server retransmitted: "
                        + Arrays.toString(c));
            }
        }
        assertTrue(!name.equals("lab-cause-loss.pcap.gz") || retransmitting == 2, "both connections retransmit");
    }

    /**
     * Frames cut out of a capture (as a capture point that dropped them would) leave holes no segment fills:
     * {@code missed_bytes} is their size, and {@code orig_bytes}/{@code resp_bytes} still span them, as Zeek's do.
     */
    @Test
    void zeekConnLogMissedBytesAreTheSequenceSpaceNoCapturedSegmentCarried(@TempDir Path dir) throws Exception {
        Path cut = dir.resolve("cut.pcap");
        // frames 300-309 and 700-704, server data of both connections (1,448-byte segments), never captured
        Process p = new ProcessBuilder("editcap", Path.of("sample-pcaps", "lab-cause-loss.pcap.gz").toString(),
                cut.toString(), "300-309", "700-704").inheritIO().start();
        assertEquals(0, p.waitFor());
        long missed = 0;
        for (long[] c : exportCheckedAgainstTshark(cut, dir)) {
            missed += c[2];
        }
        assertTrue(missed > 10 * 1000, "the cut frames' data is missed: " + missed);
    }

    /**
     * Analyzes {@code capture}, exports its log on the Spark-free and the Spark path (which must agree) and checks
     * every line's byte fields against {@link TsharkSideBytes}; returns per connection orig_bytes, resp_bytes,
     * missed_bytes, the client's and the server's payload bytes and the server's retransmissions.
     */
    private static List<long[]> exportCheckedAgainstTshark(Path capture, Path dir) throws Exception {
        Path analyzed = dir.resolve("out");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[]{"analyze", capture.toString(), "--out", analyzed.toString()}, quiet,
                quiet));
        Path local = dir.resolve("local.log");
        Path viaSpark = dir.resolve("spark.log");
        run(new ExportCommand(System.out, quiet), analyzed.toString(), "--zeek-conn", local.toString());
        run(new ExportCommand(System.out, quiet), analyzed.toString(), "--zeek-conn", viaSpark.toString(),
                "--conf", "spark.master=local[1]");
        List<String> lines = Files.readAllLines(local);
        List<String> data = lines.subList(8, lines.size() - 1);
        List<String> spark = Files.readAllLines(viaSpark);
        assertEquals(data, spark.subList(8, spark.size() - 1), "the Spark and the Spark-free path agree");
        List<String> fields = Arrays.asList(lines.get(6).substring("#fields\t".length()).split("\t"));
        Map<Long, Map<String, TsharkSideBytes.Side>> tshark = TsharkSideBytes.of(capture);
        List<List<String>> want;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
            want = DuckDbRows.query(s, "SELECT stream, client_ip || ':' || client_port, server_ip || ':' || "
                    + "server_port, client_payload_bytes, server_payload_bytes, server_retransmissions "
                    + "+ server_fast_retransmissions FROM " + DuckTables.scan(analyzed, "connections")
                    + " ORDER BY first_time, client_ip, client_port");
        }
        assertEquals(want.size(), data.size());
        List<long[]> result = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            String[] f = data.get(i).split("\t", -1);
            List<String> w = want.get(i);
            List<String> bytes = List.of(f[fields.indexOf("orig_bytes")], f[fields.indexOf("resp_bytes")],
                    f[fields.indexOf("missed_bytes")]);
            assertZeekBytes(tshark.get(Long.parseLong(w.get(0))), w.get(1), w.get(2), bytes,
                    List.of(f[fields.indexOf("orig_ip_bytes")], f[fields.indexOf("resp_ip_bytes")]));
            result.add(new long[]{Long.parseLong(bytes.get(0)), Long.parseLong(bytes.get(1)),
                    Long.parseLong(bytes.get(2)), Long.parseLong(w.get(3)), Long.parseLong(w.get(4)),
                    Long.parseLong(w.get(5))});
        }
        return result;
    }

    /** An output written before the per-side byte columns: its log leaves the fields they give unset, on both paths. */
    @Test
    void exportOfAnOutputWithoutTheByteColumnsLeavesThemUnset(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(new String[]{"analyze", "sample-pcaps/lab-cause-loss.pcap.gz", "--out",
                out.toString()}, quiet, quiet));
        Path old = dir.resolve("old");
        copyWithConnectionsExcluding(out, old, "client_seq_bytes, server_seq_bytes, client_ip_bytes, "
                + "server_ip_bytes, client_missed_bytes, server_missed_bytes");
        Path local = dir.resolve("local.log");
        Path viaSpark = dir.resolve("spark.log");
        run(new ExportCommand(System.out, quiet), old.toString(), "--zeek-conn", local.toString());
        run(new ExportCommand(System.out, quiet), old.toString(), "--zeek-conn", viaSpark.toString(),
                "--conf", "spark.master=local[1]");
        for (Path log : List.of(local, viaSpark)) {
            List<String> lines = Files.readAllLines(log);
            List<String> fields = Arrays.asList(lines.get(6).substring("#fields\t".length()).split("\t"));
            List<String> data = lines.subList(8, lines.size() - 1);
            assertEquals(2, data.size(), log.toString());
            for (String line : data) {
                String[] f = line.split("\t", -1);
                for (String unset : List.of("orig_bytes", "resp_bytes", "missed_bytes", "orig_ip_bytes",
                        "resp_ip_bytes")) {
                    assertEquals("-", f[fields.indexOf(unset)], unset + " in " + log + ": " + line);
                }
                assertTrue(f[fields.indexOf("orig_pkts")].matches("\\d+"), line);
            }
        }
    }

    /**
     * Copies the output {@code out} to {@code old} with its {@code connections} table rewritten without
     * {@code columns} (a comma-separated list): an output as an older version wrote it.
     */
    static void copyWithConnectionsExcluding(Path out, Path old, String columns) throws Exception {
        try (var w = Files.walk(out)) {
            for (Path p : w.toList()) {
                Files.copy(p, old.resolve(out.relativize(p).toString()));
            }
        }
        try (var w = Files.walk(old.resolve("connections"))) {
            for (Path p : w.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        Files.createDirectories(old.resolve("connections"));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT * EXCLUDE (" + columns + ") FROM " + DuckTables.files(out, "connections")
                    + ") TO '" + old.resolve("connections").resolve("part-0.parquet") + "' (FORMAT parquet)");
        }
        // versions before the manifest listed no files, and readers read every file of such an output
        SqlExportCommandsTest.withoutManifest(old);
    }
}
