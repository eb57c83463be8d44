package io.ackscope.cli;

import io.ackscope.tables.DuckTables;
import io.ackscope.tcp.Diagnosis;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One per-endpoint aggregation: each cause {@code diagnose} ranks is the {@code findings} row {@code analyze} writes
 * from the same captures (cause, events, connections, count, time lost, share, evidence frames, in the same order),
 * and its handshake RTT, time to first byte and response complete rows are {@code latency_summary}'s.
 */
@Tag("slow")
class DiagnoseMatchesFindingsTest {
    /** Two labs of one server endpoint: its loss recoveries and its queueing, one source, one ranking. */
    static final List<String> CAPTURES = List.of("sample-pcaps/lab-cause-loss.pcap.gz",
            "sample-pcaps/lab-cause-queueing.pcap.gz");
    private static final Pattern SERVER = Pattern.compile("(?m)^Server (\\S+):");
    private static final Pattern CAUSE = Pattern.compile("(?m)^ +\\d+\\. (\\S+) +([0-9.]+%) +([0-9.]+ ms) +([0-9,]+) "
            + "events? on ([0-9,]+) connections?, count (\\d+)\\n +evidence frames: ([0-9, ]*)$");
    private static final String[][] LATENCY = {{"handshake RTT", "handshake_rtt"}, {"time to first byte", "ttfb"},
        {"response complete", "complete"}};

    @TempDir
    Path tmp;

    @Test
    void eachRankedCauseIsItsFindingsRowAndTheLatencyRowsAreLatencySummarys() throws Exception {
        String printed = DiagnoseCausesTest.printed(CAPTURES);
        Path out = tmp.resolve("out");
        List<String> args = new ArrayList<>(List.of("analyze"));
        args.addAll(CAPTURES);
        args.addAll(List.of("--out", out.toString()));
        assertEquals(0, AnalyzeExitCodesTest.run(args.toArray(String[]::new)).exit());
        List<String> fromDiagnose = new ArrayList<>();
        List<String> latencyFromDiagnose = new ArrayList<>();
        Matcher s = SERVER.matcher(printed);
        List<Integer> starts = new ArrayList<>();
        List<String> servers = new ArrayList<>();
        while (s.find()) {
            starts.add(s.start());
            servers.add(s.group(1));
        }
        starts.add(printed.length());
        for (int i = 0; i < servers.size(); i++) {
            String block = printed.substring(starts.get(i), starts.get(i + 1));
            Matcher c = CAUSE.matcher(block);
            while (c.find()) {
                fromDiagnose.add(String.join(" | ", servers.get(i), c.group(1), c.group(2), c.group(3),
                        c.group(4).replace(",", ""), c.group(5).replace(",", ""), c.group(6), c.group(7)));
            }
            for (String[] m : LATENCY) {
                Matcher r = Pattern.compile("(?m)^  " + Pattern.quote(m[0])
                        + " +(\\S+) +(\\S+) +(\\S+) +(\\S+) +(\\d+)$").matcher(block);
                assertTrue(r.find(), m[0] + " in\n" + block);
                latencyFromDiagnose.add(servers.get(i) + " " + m[1] + " " + r.group(1) + " " + r.group(2) + " "
                        + r.group(3) + " " + r.group(4) + " " + r.group(5));
            }
        }
        List<String> fromTable = new ArrayList<>();
        List<String> latencyFromTable = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (List<String> r : DuckDbRows.query(st, "SELECT server_ip, server_port, cause, share, time_lost_us, "
                    + "events, connections, count, array_to_string(evidence_frames, ', ') FROM "
                    + DuckTables.scan(out, "findings") + " ORDER BY server_ip, server_port, time_lost_us DESC, "
                    + "events DESC")) {
                fromTable.add(String.join(" | ", r.get(0) + ":" + r.get(1), r.get(2),
                        String.format(Locale.ROOT, "%.2f%%", 100 * Double.parseDouble(r.get(3))),
                        Diagnosis.ms(Long.parseLong(r.get(4)) * 1000), r.get(5), r.get(6), r.get(7), r.get(8)));
            }
            for (String[] m : LATENCY) {
                for (List<String> r : DuckDbRows.query(st, "SELECT server_ip, server_port, " + m[1] + "_p50_us, "
                        + m[1] + "_p90_us, " + m[1] + "_p99_us, " + m[1] + "_max_us, " + m[1] + "_count FROM "
                        + DuckTables.scan(out, "latency_summary"))) {
                    latencyFromTable.add(r.get(0) + ":" + r.get(1) + " " + m[1] + " " + ms(r.get(2)) + " "
                            + ms(r.get(3)) + " " + ms(r.get(4)) + " " + ms(r.get(5)) + " " + r.get(6));
                }
            }
        }
        assertTrue(fromTable.size() >= 4, fromTable.toString());
        assertEquals(sortedByServer(fromTable), sortedByServer(fromDiagnose));
        assertEquals(latencyFromTable.stream().sorted().toList(), latencyFromDiagnose.stream().sorted().toList());
    }

    /** The rows grouped by server (in text order), each server's rows in the order given. */
    private static List<String> sortedByServer(List<String> rows) {
        List<String> l = new ArrayList<>(rows);
        l.sort(java.util.Comparator.comparing(r -> r.substring(0, r.indexOf(' '))));
        return l;
    }

    /** A µs value as diagnose prints it ("-" for none). */
    private static String ms(String us) {
        return us == null ? "-" : String.format(Locale.ROOT, "%.3fms", Long.parseLong(us) / 1000.0);
    }
}
