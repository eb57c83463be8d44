package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineRobustnessTest {

    @Test
    void randomSegmentsNeverThrowAndEveryFrameAndConnectionIsAccountedFor() {
        Random r = new Random(7);
        long[] frames = new long[1];
        Set<ConnectionId> seen = new HashSet<>();
        Set<ConnectionId> emitted = new HashSet<>();
        TcpEngine e = new TcpEngine(new EngineConfig(5_000_000_000L, 1_000_000_000L), new AnalysisSink() {
            @Override
            public void onFrame(Segment s, FrameAnalysis a) {
                frames[0]++;
                seen.add(a.connection);
            }

            @Override
            public void onConnection(ConnectionRecord c) {
                assertTrue(emitted.add(c.id()), "emitted twice: " + c.id());
            }
        });
        Segment s = new Segment();
        long t = 1_000_000_000_000L;
        for (int i = 0; i < 50_000; i++) {
            s.clear();
            s.frameNumber = i + 1;
            t += r.nextInt(10) == 0 ? -r.nextInt(1_000_000_000) : r.nextInt(50_000_000);
            s.timestampNanos = r.nextInt(1000) == 0 ? r.nextLong() : t;
            boolean dir = r.nextBoolean();
            int tuple = r.nextInt(8);
            s.srcLo = dir ? 1 : 2;
            s.dstLo = dir ? 2 : 1;
            s.srcPort = dir ? 1000 + tuple : 80;
            s.dstPort = dir ? 80 : 1000 + tuple;
            s.flags = r.nextInt(0x200);
            long base = r.nextBoolean() ? 0xffff_ff00L : 1000;
            s.seq = (base + r.nextInt(4000)) & 0xffff_ffffL;
            s.ack = (base + r.nextInt(4000)) & 0xffff_ffffL;
            s.window = r.nextInt(3) == 0 ? 0 : r.nextInt(65536);
            s.payloadLength = r.nextInt(4) == 0 ? 0 : r.nextInt(3000);
            s.windowScale = r.nextInt(20) - 2;
            s.hasTimestamps = r.nextBoolean();
            s.tsVal = r.nextInt(100);
            s.tsEcr = r.nextInt(100);
            if (r.nextInt(5) == 0) {
                byte[] junk = new byte[r.nextInt(Segment.MAX_PAYLOAD_PREFIX + 1)];
                r.nextBytes(junk);
                s.setPayloadPrefix(junk, 0, junk.length);
            }
            e.accept(s);
        }
        e.finish();
        assertEquals(50_000, frames[0]);
        assertEquals(seen, emitted, "every connection that had frames is emitted exactly once");
        assertEquals(e.connections(), emitted.size());
        assertEquals(0, e.openTuples());
    }

    @Test
    void vantageFollowsTheShorterHandshakeLeg() {
        assertEquals(CapturePoint.NEAR_CLIENT, CapturePoint.infer(20_000_000, 50_000, false));
        assertEquals(CapturePoint.NEAR_SERVER, CapturePoint.infer(80_000, 20_000_000, false));
        assertEquals(CapturePoint.IN_BETWEEN, CapturePoint.infer(9_000_000, 11_000_000, false));
        assertEquals(CapturePoint.LOCAL, CapturePoint.infer(10_000, 12_000, true));
        assertEquals(CapturePoint.UNKNOWN, CapturePoint.infer(-1, 12_000, false));
        assertTrue(CapturePoint.NEAR_CLIENT.sees(Side.ORIGINATOR) && !CapturePoint.NEAR_CLIENT.sees(Side.RESPONDER));
        assertTrue(CapturePoint.LOCAL.sees(Side.RESPONDER) && !CapturePoint.IN_BETWEEN.sees(Side.RESPONDER));
    }

    @Test
    void ackClassesFollowTheTimerBands() {
        assertEquals(AckClass.IMMEDIATE, AckClass.classify(300_000, 1, 300_000));
        assertEquals(AckClass.EVERY_SECOND_SEGMENT, AckClass.classify(8_000_000, 2, 20_000));
        assertEquals(AckClass.DELAYED_40MS, AckClass.classify(40_200_000, 1, 40_200_000));
        assertEquals(AckClass.DELAYED_40MS, AckClass.classify(47_900_000, 1, 47_900_000));
        assertEquals(AckClass.DELAYED_200MS, AckClass.classify(200_500_000, 1, 200_500_000));
        assertEquals(AckClass.DELAYED_OTHER, AckClass.classify(100_000_000, 1, 100_000_000));
        assertTrue(AckClass.DELAYED_OTHER.delayed() && !AckClass.PIGGYBACKED.delayed());
    }
}
