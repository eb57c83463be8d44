package io.ackscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ackscope serve} and {@code ackscope load} as a script would run them: separate JVMs, JSON on stdout, exit
 * codes, SIGTERM, and the Parquet rows read back and checked against the summary.
 */
class LoadServeCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Process serve;
    private static BufferedReader serveOut;
    private static int port;

    @BeforeAll
    static void startServer() throws IOException {
        serve = ackscope("serve", "-p", "0", "--json", "--no-nodelay", "--split-writes", "--duration", "60s");
        serveOut = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        JsonNode start = JSON.readTree(serveOut.readLine());
        assertEquals("listening", start.get("event").asText());
        assertFalse(start.get("nodelay").asBoolean());
        assertTrue(start.get("split_writes").asBoolean());
        port = start.get("port").asInt();
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        if (serve != null && serve.isAlive()) {
            serve.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void loadWritesOneParquetRowPerRequestConsistentWithItsSummary() throws Exception {
        long before = System.currentTimeMillis() * 1_000L;
        Path out = dir.resolve("requests.parquet");
        Result load = inProcess("load", "http://127.0.0.1:" + port + "/", "-c", "2", "-t", "1", "-d", "1500ms",
                "--json", "--out", out.toString());
        String stdout = load.out();
        assertEquals(0, load.code(), stdout);
        long after = System.currentTimeMillis() * 1_000L + 1_000L;
        JsonNode s = JSON.readTree(stdout);
        long requests = s.get("requests").asLong();
        assertTrue(requests >= 20, stdout);
        assertEquals(0, s.get("failed_requests").asLong(), stdout);
        assertEquals(out.toString(), s.get("out").asText());

        List<GenericRecord> rows = read(out);
        assertEquals(requests, rows.size(), "one row per request reported");
        long[] latencies = new long[rows.size()];
        Set<Integer> connections = new HashSet<>();
        Set<Integer> ports = new HashSet<>();
        int firstOnConnection = 0;
        for (int i = 0; i < rows.size(); i++) {
            GenericRecord r = rows.get(i);
            assertEquals((long) i, r.get("request_index"));
            assertNull(r.get("error"));
            assertEquals(200, r.get("http_status"));
            assertTrue((long) r.get("response_bytes") > 4096);
            // TIMESTAMP(MICROS, UTC) columns, as the analyze tables' (parquet-avro reads them as Instants)
            long intended = micros(r.get("intended_start_time"));
            long actual = micros(r.get("start_time"));
            long end = micros(r.get("end_time"));
            assertEquals(intended, actual, "closed loop: sent when intended");
            assertTrue(before <= actual && actual < end && end <= after, "wall-clock times within the run");
            latencies[i] = (long) r.get("latency_us");
            assertEquals(end - actual, latencies[i], 1.0, "latency_us from the same nanosecond clock");
            assertEquals(latencies[i], (long) r.get("corrected_latency_us"));
            connections.add((Integer) r.get("connection"));
            ports.add((Integer) r.get("local_port"));
            if ((int) r.get("seq_on_connection") == 0) {
                firstOnConnection++;
            }
        }
        assertEquals(s.get("connections_opened").asInt(), connections.size());
        assertEquals(connections.size(), ports.size());
        assertEquals(connections.size(), firstOnConnection);

        Arrays.sort(latencies);
        JsonNode lat = s.get("latency_us");
        long p50 = latencies[(int) Math.ceil(latencies.length * 0.5) - 1];
        assertEquals(lat.get("p50").asLong(), p50, 1 + p50 * 0.002, "histogram p50 vs rows");
        assertEquals(lat.get("max").asLong(), latencies[latencies.length - 1],
                1 + latencies[latencies.length - 1] * 0.002, "histogram max vs rows");
        assertTrue(p50 >= 40_000 && p50 <= 50_000, "the stall shows in the rows: p50 " + p50 + " us");
    }

    private static long micros(Object instant) {
        java.time.Instant t = (java.time.Instant) instant;
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }

    @Test
    void loadStopsOnSigtermAndStillPrintsItsSummary() throws Exception {
        Path stdout = dir.resolve("load-sigterm.out");
        Process load = ackscope(stdout, "load", "http://127.0.0.1:" + port + "/", "-c", "2", "-t", "1", "-d", "60s",
                "--json");
        Thread.sleep(2000);
        load.destroy(); // SIGTERM
        assertTrue(load.waitFor(20, TimeUnit.SECONDS), "load stopped after SIGTERM");
        JsonNode s = JSON.readTree(Files.readString(stdout));
        assertTrue(s.get("requests").asLong() > 0, s.toString());
        assertTrue(s.get("elapsed_s").asDouble() < 30, s.toString());
    }

    @Test
    void serveStopsOnSigtermAndReportsWhatItServed() throws Exception {
        Path stdout = dir.resolve("serve-sigterm.out");
        Process own = ackscope(stdout, "serve", "-p", "0", "--json", "--nodelay");
        int ownPort = JSON.readTree(firstLine(stdout)).get("port").asInt();
        assertEquals(0, inProcess("load", "http://127.0.0.1:" + ownPort + "/", "-c", "1", "-t", "1",
                "--max-requests", "50", "-d", "10s", "--json").code());
        own.destroy(); // SIGTERM
        assertTrue(own.waitFor(20, TimeUnit.SECONDS), "serve stopped after SIGTERM");
        List<String> lines = Files.readAllLines(stdout);
        assertEquals(2, lines.size(), lines.toString());
        JsonNode stopped = JSON.readTree(lines.get(1));
        assertEquals("stopped", stopped.get("event").asText());
        assertEquals(50, stopped.get("requests").asLong());
        assertEquals(1, stopped.get("connections").asLong());
    }

    /** The first line a process wrote to {@code file}, waiting up to 30 s for it. */
    private static String firstLine(Path file) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            String s = Files.exists(file) ? Files.readString(file) : "";
            int nl = s.indexOf('\n');
            if (nl >= 0) {
                return s.substring(0, nl);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no line in " + file + " within 30 s");
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, inProcess("load").code());
        assertEquals(2, inProcess("load", "https://127.0.0.1/").code());
        assertEquals(2, inProcess("load", "http://127.0.0.1/", "-c", "1", "-t", "2").code());
        assertEquals(2, inProcess("load", "http://127.0.0.1/", "-d", "5 parsecs").code());
        assertEquals(2, inProcess("serve").code());
        assertEquals(2, inProcess("serve", "-p", "0", "--nodelay", "--no-nodelay").code());
    }

    @Test
    void loadWithoutAnyResponseExitsWithOne() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Result r = inProcess("load", "http://127.0.0.1:" + closed + "/", "-c", "1", "-t", "1", "-d", "300ms",
                "--json");
        assertEquals(1, r.code());
        JsonNode s = JSON.readTree(r.out());
        assertEquals(0, s.get("requests").asLong());
        assertTrue(s.get("errors").get("connect").asLong() >= 1);
    }

    @Test
    void textSummaryHasWrksLayout() {
        Result r = inProcess("load", "http://127.0.0.1:" + port + "/", "-c", "2", "-t", "1", "-d", "600ms",
                "--latency");
        assertEquals(0, r.code(), r.out());
        String[] lines = r.out().split("\n");
        assertEquals("Running 600.00ms test @ http://127.0.0.1:" + port + "/", lines[0]);
        assertEquals("  1 threads and 2 connections", lines[1]);
        assertEquals("  Thread Stats   Avg      Stdev     Max   +/- Stdev", lines[2]);
        assertTrue(lines[3].matches("    Latency +[0-9.]+ms +[0-9.]+(ms|us) +[0-9.]+ms +[0-9.]+%"), lines[3]);
        assertTrue(lines[4].startsWith("    Req/Sec "), lines[4]);
        assertEquals("  Latency Distribution", lines[5]);
        assertTrue(lines[6].matches("     50% +4[0-9]\\.[0-9]{2}ms"), lines[6]);
        assertTrue(lines[10].matches("  [0-9]+ requests in [0-9.]+ms, [0-9.]+KB read"), lines[10]);
        assertTrue(lines[11].matches("Requests/sec: +[0-9]+\\.[0-9]{2}"), lines[11]);
        assertTrue(lines[12].matches("Transfer/sec: +[0-9.]+[KM]B"), lines[12]);
    }

    @Test
    void wrkAndWrk2SpellingsOfTheLatencyFlagsPrintTheDistribution() {
        for (String[] flags : new String[][] {{"-L"}, {"-U"}, {"--latency", "-U"}}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("load",
                    "http://127.0.0.1:" + port + "/", "-c", "1", "-t", "1", "-d", "300ms"));
            args.addAll(java.util.List.of(flags));
            Result r = inProcess(args.toArray(new String[0]));
            assertEquals(0, r.code(), String.join(" ", flags) + ": " + r.out());
            String[] lines = r.out().split("\n");
            assertEquals("  Latency Distribution", lines[5], String.join(" ", flags));
            assertTrue(lines[9].matches("     99% +[0-9.]+ms"), lines[9]);
        }
    }

    private record Result(int code, String out) {
    }

    /** Runs ackscope in this JVM with stdout captured and stderr silenced. */
    private static Result inProcess(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        System.setOut(o);
        System.setErr(e);
        try {
            return new Result(Main.run(args, o, e), out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    private static List<GenericRecord> read(Path file) throws IOException {
        List<GenericRecord> rows = new ArrayList<>();
        try (ParquetReader<GenericRecord> r = AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file))
                .build()) {
            GenericRecord rec;
            while ((rec = r.read()) != null) {
                rows.add(rec);
            }
        }
        return rows;
    }

    /** Starts {@code ackscope ARGS} in a JVM of its own, its stdout going to {@code stdout}. */
    private static Process ackscope(Path stdout, String... args) throws IOException {
        return builder(args).redirectOutput(stdout.toFile()).start();
    }

    /** Starts {@code ackscope ARGS} in a JVM of its own, its stdout read through the returned process. */
    private static Process ackscope(String... args) throws IOException {
        return builder(args).start();
    }

    private static ProcessBuilder builder(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(Arrays.asList(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
    }
}
