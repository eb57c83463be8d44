package io.ackscope.report;

import io.ackscope.tables.EngineTables.Stalls;
import io.ackscope.tables.TableReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /** {@code w} centred on frame {@code focusFrame}. */
    private static LadderReader.Want focused(LadderReader.Want w, long focusFrame) {
        return new LadderReader.Want(w.stream(), w.firstFile(), w.firstFrame(), w.clientPort(), w.serverPort(),
                w.frames(), w.lastMicros(), focusFrame, -1);
    }

    /** Reads {@code wants} both ways and checks their ladders are the same; the settling sweep, then the full one. */
    private static LadderReader.Sweep[] compare(Path file, List<LadderReader.Want> wants) {
        LadderReader.Sweep full = LadderReader.sweepToTheEnd(List.of(file.toString()),
                List.of(LadderReader.SeekIndex.NONE), wants);
        LadderReader.Sweep settling = LadderReader.sweep(List.of(file.toString()),
                List.of(LadderReader.SeekIndex.NONE), wants);
        LadderSeekTest.assertSameLadders(full.ladders(), settling.ladders());
        return new LadderReader.Sweep[]{settling, full};
    }

    @Test
    void aSettledFlowGraphIsTheFlowGraphOfTheWholeConnection() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        Path file = LadderSeekTest.plainCopy(tmp);
        List<LadderReader.Want> conns = LadderSeekTest.allConnections();
        Map<Long, List<Long>> held = new HashMap<>();
        Map<Long, Long> longest = new HashMap<>();
        stalls(dir, held, longest);
        assertTrue(longest.size() >= 5, "connections with stalls: " + longest.size());

        // each alone, so that one connection's read does not hide another's
        int marked = 0;
        long settlingRecords = 0, fullRecords = 0;
        for (LadderReader.Want c : conns) {
            Long focus = longest.get(c.stream());
            if (focus == null) {
                continue;
            }
            LadderReader.Sweep[] sweeps = compare(file, List.of(focused(c, focus)));
            settlingRecords += sweeps[0].recordsRead();
            fullRecords += sweeps[1].recordsRead();
            List<ReportData.LadderRow> rows = sweeps[0].ladders().get(0).rows();
            if (rows.stream().anyMatch(r -> r.mark().equals("HELD"))
                    && rows.stream().anyMatch(r -> r.mark().equals("RESUMED"))) {
                marked++;
            }
        }
        assertTrue(marked >= 5, "flow graphs with a held segment and its resume: " + marked);
        assertTrue(settlingRecords < fullRecords * 0.8, settlingRecords + " records against " + fullRecords);

        // every connection at once: from its start, and at its first stall's held segment (a stall follows it)
        List<LadderReader.Want> firstStall = new ArrayList<>();
        for (LadderReader.Want c : conns) {
            List<Long> h = held.get(c.stream());
            if (h != null) {
                firstStall.add(focused(c, h.get(0)));
            }
        }
        compare(file, conns);
        compare(file, firstStall);
    }
}
