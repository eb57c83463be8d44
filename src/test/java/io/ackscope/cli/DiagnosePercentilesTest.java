package io.ackscope.cli;

import io.ackscope.tables.DuckTables;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One percentile definition: {@code diagnose}'s p50/p90/p99/max on a capture equal, to the µs, nearest-rank queries
 * over the rows {@code analyze} wrote from the same capture, written out in SQL (the smallest value whose rank
 * reaches ceil(p x n)) and as DuckDB's {@code quantile_disc}, which the notebooks use.
 */
@Tag("slow")
class DiagnosePercentilesTest {
    static final String CAPTURE = "sample-pcaps/nginx-nodelay-off.pcap.gz";

    @TempDir
    Path tmp;

    @Test
    void diagnosePrintsTheNearestRankValuesOfTheTables() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DiagnoseCommand d = new DiagnoseCommand(new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        d.files = List.of(CAPTURE);
        assertEquals(0, d.run());
        String printed = buf.toString(StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        assertEquals(0, AnalyzeExitCodesTest.run("analyze", CAPTURE, "--out", out.toString()).exit());
        // metric as diagnose names it -> the table rows behind it
        String[][] metrics = {
            {"data RTT", "rtt_us", "rtt_samples", "kind = 'DATA_ACK' AND NOT karn_ambiguous"},
            {"client ACK delay", "ack_delay_us", "ack_delays", "acking_side = 'CLIENT'"},
            {"server ACK delay", "ack_delay_us", "ack_delays", "acking_side = 'SERVER'"},
            {"stall", "duration_us", "stalls", "true"},
        };
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (String[] m : metrics) {
                String rows = "(SELECT " + m[1] + " AS v FROM " + DuckTables.scan(out, m[2]) + " "
                        + "WHERE " + m[3] + ")";
                List<String> fromDiagnose = row(printed, m[0]);
                List<String> nearestRank = DuckDbRows.query(st, "WITH r AS (SELECT v, row_number() OVER (ORDER BY v) "
                        + "AS rank, count(*) OVER () AS n FROM " + rows + ") SELECT "
                        + "min(v) FILTER (WHERE rank >= ceil(0.5 * n)), min(v) FILTER (WHERE rank >= ceil(0.9 * n)), "
                        + "min(v) FILTER (WHERE rank >= ceil(0.99 * n)), max(v), count(*) FROM r").get(0);
                List<String> quantileDisc = DuckDbRows.query(st, "SELECT quantile_disc(v, 0.5), "
                        + "quantile_disc(v, 0.9), quantile_disc(v, 0.99), max(v), count(*) FROM " + rows).get(0);
                assertEquals(nearestRank, fromDiagnose, m[0]);
                assertEquals(nearestRank, quantileDisc, m[0] + ": quantile_disc is nearest rank");
            }
        }
        assertTrue(printed.contains(" 47.553ms "), "the largest data RTT is the data's, not a histogram bucket's");
    }

    /** A latency row of diagnose's table ("  data RTT  0.390ms ... count"), values in µs as the tables have them. */
    private static List<String> row(String printed, String name) {
        Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(name)
                + " +([0-9.]+)ms +([0-9.]+)ms +([0-9.]+)ms +([0-9.]+)ms +(\\d+)$").matcher(printed);
        assertTrue(m.find(), name + " in\n" + printed);
        return List.of(us(m.group(1)), us(m.group(2)), us(m.group(3)), us(m.group(4)), m.group(5));
    }

    private static String us(String ms) {
        return new java.math.BigDecimal(ms).movePointRight(3).toBigIntegerExact().toString();
    }
}
