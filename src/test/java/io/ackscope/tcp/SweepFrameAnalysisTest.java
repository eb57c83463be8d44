package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.ackscope.tcp.Segments.ACK;
import static io.ackscope.tcp.Segments.MS;
import static io.ackscope.tcp.Segments.PSH;
import static io.ackscope.tcp.Segments.SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The analysis a sink is handed for a frame stays that frame's until the next segment, even when the sweep that
 * segment triggers evicts an unanswered attempt (whose SYNs are replayed to emit it): {@code fields} reads it after
 * {@link TcpEngine#accept} returns.
 */
class SweepFrameAnalysisTest {
    private static final long S = 1_000_000_000L;

    @Test
    void framesOfALiveConnectionKeepTheirStreamWhenTheSweepEvictsAnAttempt() {
        Segments seg = new Segments();
        // tuple B: a connection seen mid-stream (no SYN), stream 0
        seg.clientPort = 4626;
        seg.client(ACK, 1000, 5000, 0);
        // tuple A: an unanswered SYN on another 4-tuple, stream 1
        seg.clientPort = 1436;
        seg.serverPort = 135;
        seg.after(400 * MS).client(SYN, 777, 0, 0);
        // B goes on past A's eviction (60 s of silence after its SYN, then the sweep's slack)
        seg.clientPort = 4626;
        seg.serverPort = 80;
        long seq = 5000;
        for (int i = 0; i < 160; i++) {
            seg.after(500 * MS).server(PSH | ACK, seq, 1000, 100);
            seq += 100;
        }

        List<long[]> seen = new ArrayList<>();        // frame, stream read after accept returned
        FrameAnalysis[] last = new FrameAnalysis[1];
        TcpEngine engine = new TcpEngine(new AnalysisSink() {
            @Override
            public void onFrame(Segment s, FrameAnalysis a) {
                last[0] = a;                            // kept, as fields does, until its row is written
            }
        });
        for (Segment s : seg.list) {
            last[0] = null;
            engine.accept(s);
            seen.add(new long[]{s.frameNumber, last[0].stream});
        }
        engine.finish();

        assertEquals(1, engine.attemptsEvicted(), "A's attempt was evicted during the run");
        for (long[] f : seen) {
            assertEquals(f[0] == 2 ? 1 : 0, f[1], "stream of frame " + f[0]);
        }
    }
}
