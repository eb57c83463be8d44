package io.ackscope.report;

import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.EngineTables.Stalls;
import io.ackscope.tables.TableReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection's flow graph is finished once no later frame can change it ({@link LadderCollector#settled}): the
 * ladders are those of a sweep that reads every connection to its last frame, marks of the stalls included, and the
 * sweep reads fewer records. Over every connection of the stall capture, centred on its longest stall's held segment
 * (the report's choice), at its first stall's (a stall follows), and from its start.
 */
@Tag("slow")
class LadderSettleTest {

    @TempDir
    Path tmp;

    private record Conn(long stream, long firstFrame, int clientPort, int serverPort, long frames, long last) {
    }

    private static List<Conn> connections(Path dir) throws Exception {
        List<Conn> l = new ArrayList<>();
        TableReader.scan(dir, Tables.CONNECTIONS, List.of(Connections.STREAM, Connections.FIRST_FRAME,
                Connections.CLIENT_PORT, Connections.SERVER_PORT, Connections.CLIENT_PACKETS,
                Connections.SERVER_PACKETS, Connections.LAST_TIME), b -> {
            for (int i = 0; i < b.rows; i++) {
                l.add(new Conn(b.longs(Connections.STREAM).values[i], b.longs(Connections.FIRST_FRAME).values[i],
                        (int) b.longs(Connections.CLIENT_PORT).values[i],
                        (int) b.longs(Connections.SERVER_PORT).values[i],
                        b.longs(Connections.CLIENT_PACKETS).values[i] + b.longs(Connections.SERVER_PACKETS).values[i],
                        b.longs(Connections.LAST_TIME).values[i]));
            }
        });
        return l;
    }

    /** Per stream, the held frames of its stalls, in table order, and the held frame of its longest stall. */
    private static void stalls(Path dir, Map<Long, List<Long>> held, Map<Long, Long> longest) throws Exception {
        Map<Long, Long> longestUs = new HashMap<>();
        TableReader.scan(dir, Tables.STALLS, List.of(Stalls.STREAM, Stalls.HELD_FRAME, Stalls.DURATION_US), b -> {
            for (int i = 0; i < b.rows; i++) {
                long stream = b.longs(Stalls.STREAM).values[i];
                long frame = b.longs(Stalls.HELD_FRAME).values[i];
                long us = b.longs(Stalls.DURATION_US).values[i];
                held.computeIfAbsent(stream, k -> new ArrayList<>()).add(frame);
                if (us > longestUs.getOrDefault(stream, -1L)) {
                    longestUs.put(stream, us);
                    longest.put(stream, frame);
                }
            }
        });
    }

    private static LadderReader.Want want(Conn c, long focusFrame) {
        return new LadderReader.Want(c.stream(), 0, c.firstFrame(), c.clientPort(), c.serverPort(), c.frames(),
                c.last(), focusFrame, -1);
    }

    /** Reads {@code wants} both ways; returns the records the settling sweep read and the full one read. */
    private static long[] compare(Path file, List<LadderReader.Want> wants) {
        LadderReader.Sweep full = LadderReader.sweepToTheEnd(List.of(file.toString()),
                List.of(LadderReader.SeekIndex.NONE), wants);
        LadderReader.Sweep settling = LadderReader.sweep(List.of(file.toString()),
                List.of(LadderReader.SeekIndex.NONE), wants);
        LadderSeekTest.assertSameLadders(full.ladders(), settling.ladders());
        return new long[]{settling.recordsRead(), full.recordsRead()};
    }

    @Test
    void aSettledFlowGraphIsTheFlowGraphOfTheWholeConnection() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        Path file = tmp.resolve("latency.pcap");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(AnalyzedCaptures.LATENCY))) {
            Files.copy(in, file);
        }
        List<Conn> conns = connections(dir);
        Map<Long, List<Long>> held = new HashMap<>();
        Map<Long, Long> longest = new HashMap<>();
        stalls(dir, held, longest);
        assertTrue(longest.size() >= 5, "connections with stalls: " + longest.size());

        // each alone, so that one connection's read does not hide another's
        int marked = 0;
        long settlingRecords = 0, fullRecords = 0;
        for (Conn c : conns) {
            Long focus = longest.get(c.stream());
            if (focus == null) {
                continue;
            }
            List<LadderReader.Want> one = List.of(want(c, focus));
            long[] records = compare(file, one);
            settlingRecords += records[0];
            fullRecords += records[1];
            List<ReportData.LadderRow> rows = LadderReader.sweep(List.of(file.toString()),
                    List.of(LadderReader.SeekIndex.NONE), one).ladders().get(0).rows();
            if (rows.stream().anyMatch(r -> r.mark().equals("HELD"))
                    && rows.stream().anyMatch(r -> r.mark().equals("RESUMED"))) {
                marked++;
            }
        }
        assertTrue(marked >= 5, "flow graphs with a held segment and its resume: " + marked);
        assertTrue(settlingRecords < fullRecords * 0.8, settlingRecords + " records against " + fullRecords);

        // every connection at once: from its start, and at its first stall's held segment (a stall follows it)
        List<LadderReader.Want> fromStart = new ArrayList<>(), firstStall = new ArrayList<>();
        for (Conn c : conns) {
            fromStart.add(want(c, -1));
            List<Long> h = held.get(c.stream());
            if (h != null) {
                firstStall.add(want(c, h.get(0)));
            }
        }
        compare(file, fromStart);
        compare(file, firstStall);
    }
}
