package io.ackscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ackscope.output.OutputMarker;
import io.ackscope.tables.DuckTables;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze sample-pcaps/ --strict}, the bundled directory as an analyst gives it: the captures are read by
 * magic, README.md and the shell script are listed as not read (in {@code _SUCCESS} and on stderr), not as damage,
 * so {@code --strict} still exits 0; its tables, all small, are one file each.
 */
@Tag("slow")
class AnalyzeSampleDirectoryTest {
    @TempDir
    static Path tmp;

    static AnalyzeExitCodesTest.Run run;
    static String stderr;
    static Path out;
    static JsonNode marker;

    @BeforeAll
    static void analyze() throws Exception {
        out = tmp.resolve("out");
        // analyze writes its progress and warnings to the process's stderr (Spark's progress too), not Main's
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            run = AnalyzeExitCodesTest.run("analyze", "sample-pcaps/", "--out", out.toString(), "--strict");
        } finally {
            System.setErr(saved);
        }
        stderr = run.err() + err.toString(StandardCharsets.UTF_8);
        marker = OutputMarker.parse(Files.readString(out.resolve(OutputMarker.FILE)), "_SUCCESS").json();
    }

    @Test
    void nonCapturesInTheDirectoryAreListedAsSkippedNotDamaged() throws Exception {
        assertEquals(0, run.exit(), run.err());
        List<Path> captures;
        try (Stream<Path> s = Files.list(Path.of("sample-pcaps"))) {
            captures = s.filter(p -> p.toString().endsWith(".pcap.gz")).toList();
        }
        assertEquals(captures.size(), marker.get("files").asInt(), "every capture read");
        assertEquals(0, marker.get("damaged_files").asInt());
        List<String> skipped = new ArrayList<>();
        for (JsonNode n : marker.get("skipped_inputs")) {
            skipped.add(Path.of(n.get("path").asText().replaceFirst("^file:", "")).getFileName() + " "
                    + n.get("reason").asText().replaceAll(" \\(.*", "").replaceAll(": unknown magic.*", ""));
        }
        assertEquals(List.of("README.md not a capture", "make-nginx-captures.sh not a capture"), skipped);
        List<String> lines = stderr.lines().filter(l -> l.startsWith("ackscope analyze: not read")).toList();
        assertEquals(1, lines.size(), stderr);
        assertTrue(lines.get(0).endsWith("sample-pcaps/README.md, file:" + Path.of("sample-pcaps").toAbsolutePath()
                + "/make-nginx-captures.sh"), lines.get(0));
    }

    @Test
    void smallTablesAreOneFileThatDuckDbReadsWhole() throws Exception {
        List<String> listed = new ArrayList<>();
        marker.get("output_files").forEach(n -> listed.add(n.asText()));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = marker.get("tables").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> t = it.next();
                List<String> files = parquetFiles(out.resolve(t.getKey()));
                // one file per partition (source, and date where the table has it)
                assertEquals(files.size(), files.stream().map(f -> f.contains("/") ? f.substring(0,
                        f.lastIndexOf('/')) : "").distinct().count(), t.getKey() + ": " + files);
                for (String f : files) {
                    assertTrue(listed.contains(t.getKey() + "/" + f), "in the manifest: " + f);
                }
                assertEquals(List.of(List.of(t.getValue().asText())), DuckDbRows.query(st, "SELECT count(*) FROM "
                        + DuckTables.scan(out, t.getKey())), t.getKey());
            }
        }
        assertTrue(marker.get("tables").get("rtt_samples").asLong() > 100_000, "a table of many task files before");
    }

    @Test
    void tablesAboveTheOneFileSizeKeepOneFilePerTask() throws Exception {
        Path o = tmp.resolve("parallel");
        AnalyzeExitCodesTest.Run r = AnalyzeExitCodesTest.run("analyze", "sample-pcaps/lab-serve-nagle.pcap.gz",
                "--out", o.toString(), "--partitions", "3", "--conf", "spark.ackscope.oneFileBytes=0");
        assertEquals(0, r.exit(), r.err());
        assertTrue(parquetFiles(o.resolve("rtt_samples")).size() > 1, "written in parallel, kept so");
        assertEquals(1, parquetFiles(o.resolve("latency_summary")).size(), "written by the driver");
    }

    /** A table's Parquet files, as paths below its directory (flat or partitioned by source and date). */
    static List<String> parquetFiles(Path dir) throws Exception {
        return io.ackscope.tables.HiveLayout.files(dir).stream().map(p -> dir.relativize(p).toString()).toList();
    }
}
