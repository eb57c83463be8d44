package io.ackscope.cli;

import io.ackscope.tables.DuckTables;
import org.junit.jupiter.api.BeforeAll;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host addresses of the side tables ({@code ack_delays.acking_ip}, {@code rtt_samples.measured_from_ip},
 * {@code stalls.holding_ip}/{@code delaying_ip}, {@code latency_events.side_ip}) on lab captures whose client and
 * server have different addresses (the nginx samples run on 127.0.0.1 at both ends, where any side would pass):
 * each row's address is its side's host of the connection, read by DuckDB as an analyst would.
 */
class SideAddressColumnsTest {

    /** A stall capture (stalls, ACKs and RTTs of both sides), and two with timeouts and zero-window waits. */
    private static final List<String> CAPTURES = List.of("sample-pcaps/lab-two-points-client.pcap.gz",
            "sample-pcaps/lab-cause-zero-window.pcap.gz", "sample-pcaps/lab-cause-loss.pcap.gz");
    private static Path out;

    @BeforeAll
    static void analyze(@TempDir Path dir) {
        out = dir.resolve("out");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        List<String> args = new java.util.ArrayList<>(List.of("analyze"));
        args.addAll(CAPTURES);
        args.addAll(List.of("--out", out.toString()));
        assertEquals(0, Main.run(args.toArray(new String[0]), ps, ps), buf.toString(StandardCharsets.UTF_8));
    }

    private static List<List<String>> duckdb(String query) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            for (String t : List.of("connections", "ack_delays", "rtt_samples", "stalls", "latency_events")) {
                s.execute("CREATE VIEW " + t + " AS SELECT * FROM " + DuckTables.scan(out, t));
            }
            return DuckDbRows.query(s, query);
        }
    }

    @Test
    void eachSideAddressIsThatSidesHostOfTheConnection() throws Exception {
        assertEquals("0", duckdb("SELECT count(*) FROM connections WHERE client_ip = server_ip").get(0).get(0),
                "the captures tell the sides apart by address");
        String[][] sides = {{"ack_delays", "acking_side", "acking_ip"},
                {"rtt_samples", "measured_from", "measured_from_ip"}, {"stalls", "holding_side", "holding_ip"},
                {"stalls", "delaying_side", "delaying_ip"}, {"latency_events", "side", "side_ip"}};
        for (String[] s : sides) {
            List<List<String>> bySide = duckdb("SELECT x." + s[1] + ", count(*), count(*) FILTER (WHERE x." + s[2]
                    + " = CASE x." + s[1] + " WHEN 'CLIENT' THEN c.client_ip ELSE c.server_ip END) FROM " + s[0]
                    + " x JOIN connections c USING (uid) GROUP BY ALL ORDER BY ALL");
            assertTrue(!bySide.isEmpty(), s[0] + " has rows");
            for (List<String> r : bySide) {
                assertEquals(r.get(1), r.get(2), s[0] + "." + s[2] + " of the " + r.get(0) + " rows");
            }
        }
        // ACKs and RTT measurements come from both ends, so both addresses appear in their columns
        for (String[] s : new String[][]{{"ack_delays", "acking_ip"}, {"rtt_samples", "measured_from_ip"}}) {
            assertEquals("0", duckdb("SELECT count(*) FROM connections c WHERE c.uid IN (SELECT uid FROM " + s[0]
                    + ") AND (SELECT count(DISTINCT " + s[1] + ") FROM " + s[0] + " x WHERE x.uid = c.uid) < 2 "
                    + "AND c.uid IN (SELECT uid FROM stalls)").get(0).get(0), s[0] + " of the stalled connections");
        }
    }

    @Test
    void connectionStallTimeIsSplitByWhoseDataWaited() throws Exception {
        List<String> sums = duckdb("SELECT sum(stall_us), sum(server_held_stall_us), sum(client_held_stall_us), "
                + "count(*) FILTER (WHERE stall_us <> server_held_stall_us + client_held_stall_us) FROM connections")
                .get(0);
        assertEquals("0", sums.get(3), "rows whose parts do not add up: " + sums);
        List<String> stalls = duckdb("SELECT sum(duration_us) FILTER (WHERE holding_side = 'SERVER'), "
                + "coalesce(sum(duration_us) FILTER (WHERE holding_side = 'CLIENT'), 0), count(*) FROM stalls").get(0);
        long rounding = Long.parseLong(stalls.get(2)); // each stall row is rounded down on its own
        for (int side = 0; side < 2; side++) {
            long held = Long.parseLong(sums.get(1 + side));
            long rows = Long.parseLong(stalls.get(side));
            assertTrue(held >= rows && held <= rows + rounding, sums + " vs the stalls " + stalls);
        }
        assertTrue(Long.parseLong(sums.get(1)) > 0, "the lab's server held its responses: " + sums);
    }
}
