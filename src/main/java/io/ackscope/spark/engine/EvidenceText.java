package io.ackscope.spark.engine;

import io.ackscope.tcp.AckClass;
import io.ackscope.tcp.LatencyEvent;
import io.ackscope.tcp.Stall;

/**
 * The {@code evidence} column of {@code stalls} and {@code latency_events}: the numbers the engine's events carry
 * (frames, durations, sides, bytes), in words. Made here, where the rows are written, so that the engine hands on
 * facts and the wording is one place to change.
 */
final class EvidenceText {
    private EvidenceText() {
    }

    /** "server frame 5 (1 B) waited unacknowledged; client ACK frame 6 came 40.012 ms later (...) ...". */
    static String of(Stall s) {
        return s.holdingSide().role() + " frame " + s.heldFrame() + " (" + s.heldBytes()
                + " B) waited unacknowledged; " + s.delayingSide().role() + " ACK frame " + s.ackFrame()
                + " came " + micros(s.ackDelayNanos()) + " later (" + AckClass.delayedBand(s.ackDelayNanos())
                + ") with no data; " + s.holdingSide().role() + " sent frame " + s.resumeFrame() + " ("
                + s.resumeBytes() + " B) " + micros(s.resumeGapNanos()) + " after that ACK";
    }

    /** What an RTO or a zero-window wait was: who waited, from which frame to which, for how long. */
    static String of(LatencyEvent e) {
        return switch (e.kind()) {
            case RETRANSMISSION_TIMEOUT -> e.side().role() + " retransmitted in frame " + e.endFrame() + " "
                    + micros(e.durationNanos()) + " after frame " + e.startFrame() + " without a fast-retransmit"
                    + " trigger";
            // the event's side is the one that waited; the advertiser is the other
            case ZERO_WINDOW_WAIT -> e.side().other().role() + " advertised a zero window in frame "
                    + e.startFrame() + " and reopened it in frame " + e.endFrame() + " " + micros(e.durationNanos())
                    + " later";
        };
    }

    /** A duration in the words of evidence texts: "840 us", "41.250 ms" (truncated to microseconds). */
    static String micros(long nanos) {
        long us = nanos / 1000;
        if (Math.abs(us) >= 1000) {
            return (us / 1000) + "." + pad3(Math.abs(us % 1000)) + " ms";
        }
        return us + " us";
    }

    private static String pad3(long v) {
        return v < 10 ? "00" + v : v < 100 ? "0" + v : Long.toString(v);
    }
}
