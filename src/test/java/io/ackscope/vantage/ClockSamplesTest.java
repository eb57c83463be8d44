package io.ackscope.vantage;

import io.ackscope.capture.CaptureException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bucketed clock samples the Spark job merges across partitions: on the lab pair (PairAnalysisTest's truth:
 * server clock 1,234,567 µs ahead, 5 ms each way) they find the client's point nearer the clients whichever point is
 * X, and the offset within 1 ms; split in two parts and merged, or made coarse, they give the same offset as whole.
 */
class ClockSamplesTest {

    static final long SHIFT_NS = PairAnalysisTest.SHIFT_US * 1000;

    static PointSegments client() throws IOException, CaptureException {
        return PointReader.read("client", List.of(PairAnalysisTest.CLIENT));
    }

    static PointSegments server() throws IOException, CaptureException {
        return PointReader.read("server", List.of(PairAnalysisTest.SERVER));
    }

    @Test
    void theClientsPointIsFoundWhicheverPointIsX() throws IOException, CaptureException {
        PointSegments c = client();
        PointSegments s = server();
        ClockSamples cs = new ClockSamples();
        assertEquals(4, PairAnalysis.sample(c, s, cs).size());
        ClockSamples sc = new ClockSamples();
        assertEquals(4, PairAnalysis.sample(s, c, sc).size());
        ClockSamples.Oriented a = cs.estimate();
        ClockSamples.Oriented b = sc.estimate();
        assertTrue(a.xNearerClients(), "X is the client's point");
        assertFalse(b.xNearerClients(), "Y is the client's point");
        for (ClockSamples.Oriented o : List.of(a, b)) {
            assertTrue(Math.abs(o.clock().offsetNanos() - SHIFT_NS) <= 1_000_000, "offset " + o.clock());
            assertTrue(o.clock().errorNanos() >= 4_900_000 && o.clock().errorNanos() <= 6_000_000, "error "
                    + o.clock());
        }
        // the same bound from either side: the extremes turned round are the other side's minima
        assertEquals(a.clock().errorNanos(), b.clock().errorNanos(), 2_000);
        // the command's estimate on every segment and this one on a sample per bucket agree within the bound's noise
        ClockEstimate whole = PairAnalysis.analyze(c, s).clock();
        assertEquals(whole.offsetNanos(), a.clock().offsetNanos(), 50_000);
    }

    @Test
    void partsMergedAndCoarseBucketsGiveTheWholesMinima() throws IOException, CaptureException {
        PointSegments c = client();
        PointSegments s = server();
        ClockSamples whole = new ClockSamples();
        PairAnalysis.sample(c, s, whole);
        // the same segments in two parts: odd and even connections, as two shuffle partitions would hold them
        ClockSamples odd = new ClockSamples();
        ClockSamples even = new ClockSamples();
        PointSegments[] cParts = split(c);
        PointSegments[] sParts = split(s);
        PairAnalysis.sample(cParts[0], sParts[0], even);
        PairAnalysis.sample(cParts[1], sParts[1], odd);
        even.merge(odd);
        ClockSamples.Oriented w = whole.estimate();
        ClockSamples.Oriented m = even.estimate();
        // equal but for the order floating-point sums of the drift fit were taken in
        assertEquals(w.clock().offsetNanos(), m.clock().offsetNanos(), 2);
        assertEquals(w.clock().errorNanos(), m.clock().errorNanos(), 2);
        assertNull(new ClockSamples().estimate(), "no segment, no estimate");
    }

    /** The point's connections split by stream parity, each part a point of its own. */
    static PointSegments[] split(PointSegments p) {
        PointSegments[] parts = {new PointSegments(p.source()), new PointSegments(p.source())};
        for (PointConnection pc : p.connections()) {
            PointSegments to = parts[(int) (pc.stream() % 2)];
            for (int i : pc.segments()) {
                to.add(pc.stream() / 2, p.fromOriginator(i), p.seq(i), p.ack(i), p.payloadLength(i), p.flags(i),
                        p.tsVal(i), p.ipId(i), p.timeNanos(i), p.order(i), pc.tuple(), pc.ports());
            }
        }
        assertNotNull(parts[1].connections());
        return parts;
    }
}
