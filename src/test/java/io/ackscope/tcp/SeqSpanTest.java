package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Zeek's size accounting of one side across the 32-bit wrap, with holes filled and left open. */
class SeqSpanTest {

    /** An ISN 4,000 bytes below the wrap: the data crosses it. */
    private static final long ISN = 0xFFFF_FFFFL - 4_000;

    private static long seq(long offset) {
        return (ISN + offset) & 0xFFFF_FFFFL;
    }

    @Test
    void spanCrossesTheWrapWithoutTheSynAndFinOctets() {
        SeqSpan s = new SeqSpan();
        s.segment(ISN, 0, true, false);
        for (int i = 0; i < 5; i++) {
            s.segment(seq(1 + i * 1448L), 1448, false, false);
        }
        s.segment(seq(1 + 5 * 1448L), 0, false, true);
        s.acked(seq(2 + 5 * 1448L));                     // the FIN acknowledged
        assertEquals(5 * 1448, s.bytes());
        assertEquals(0, s.missedBytes());
    }

    @Test
    void retransmissionsCountOnceAndFillTheHoleTheyCover() {
        SeqSpan s = new SeqSpan();
        s.segment(ISN, 0, true, false);
        s.segment(seq(1), 1448, false, false);
        s.segment(seq(1 + 2 * 1448L), 1448, false, false);   // the second segment not captured: a hole
        s.segment(seq(1 + 3 * 1448L), 1448, false, false);
        assertEquals(4 * 1448, s.bytes());
        assertEquals(1448, s.missedBytes());
        s.segment(seq(1 + 1448L), 1448, false, false);       // its retransmission fills it
        s.segment(seq(1 + 3 * 1448L), 1448, false, false);   // a duplicate moves nothing
        assertEquals(4 * 1448, s.bytes());
        assertEquals(0, s.missedBytes());
    }

    @Test
    void anAckPastTheDataSeenCountsItAsSentAndMissed() {
        SeqSpan s = new SeqSpan();
        s.segment(seq(100), 500, false, false);   // no SYN captured: counted from the first byte seen
        assertEquals(500, s.bytes());
        s.acked(seq(100 + 500 + 700));
        assertEquals(1200, s.bytes());
        assertEquals(700, s.missedBytes());
        s.segment(seq(100 + 500 + 200), 100, false, false);   // part of it captured late: the hole splits
        assertEquals(600, s.missedBytes());
    }

    @Test
    void holesBeyondTheBoundAreCountedMissedForGood() {
        SeqSpan s = new SeqSpan();
        s.segment(ISN, 0, true, false);
        int holes = SeqSpan.MAX_HOLES + 3;
        for (int i = 0; i < holes; i++) {
            s.segment(seq(1 + (2L * i + 1) * 10), 10, false, false);   // every other 10-byte block missing
        }
        assertEquals(holes * 10L, s.missedBytes());
        s.segment(seq(1), 10, false, false);   // the oldest hole was given up on: filling it changes nothing
        assertEquals(holes * 10L, s.missedBytes());
        s.segment(seq(1 + 2L * (holes - 1) * 10), 10, false, false);   // the newest is still open
        assertEquals((holes - 1) * 10L, s.missedBytes());
    }
}
