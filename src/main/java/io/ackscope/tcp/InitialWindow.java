package io.ackscope.tcp;

import java.util.Arrays;

/**
 * The judgement of a connection's first response against an initial window of {@link #IW} segments (RFC 6928, the
 * Linux default since 2.6.39): {@link Cause#SMALL_INITIAL_WINDOW} when the response left in more ACK-clocked,
 * round-trip-spaced flights than slow start from 10 segments would need, and its first flight was smaller than 10
 * full segments. The flights and their stops are {@link IdleRestartDetector}'s (one rule for both causes: a stop
 * counts when the client's ACK sent the resumption and one flight left per round trip; a stop that does not, a
 * retransmission, a full window or a zero window spoils the response); this class only compares their number with
 * what the initial window of 10 would have needed. Stateless: nothing of it is held by a tracker.
 */
final class InitialWindow {
    /** RFC 6928's initial window, in segments. */
    static final int IW = 10;
    /** The first stops whose gaps are kept: from IW 1, slow start needs about log2(10) = 3.3 flights more. */
    static final int MAX_EXTRA_STOPS = 8;

    private InitialWindow() {
    }

    /**
     * The flights slow start from {@link #IW} segments needs for {@code segments} segments, when every ACK'd segment
     * grows the window by one (RFC 5681 3.1, with appropriate byte counting): 10, 20, 40 ... segments per flight.
     */
    static int flightsFromIw10(long segments) {
        int flights = 1;
        for (long sent = IW, flight = IW; sent < segments; flights++) {
            flight *= 2;
            sent += flight;
        }
        return flights;
    }

    /**
     * Emits the first response's event to {@code sink} when it counts: {@code bytes} of response, its first flight's
     * {@code firstFlight} bytes (-1 when it never stopped, or when its last segment was not full: Nagle's algorithm,
     * not the window, held what followed a small segment), {@code fullSize} the responder's full segment (-1 when
     * the handshake was not seen: then the response may not be the first), {@code stops} counted stops with the
     * first ones' {@code gaps}, {@code frames} three per stop (last segment, ACK, resumption). Time lost = the
     * first stops beyond what IW10 needs (the small flights a window of 10 would have sent at once); count = those
     * stops.
     */
    static void judge(ConnectionId id, long start, long end, long bytes, long firstFlight, int fullSize, int stops,
                      long[] gaps, long[] frames, AnalysisSink sink) {
        if (fullSize <= 0 || firstFlight < 0 || firstFlight >= (long) IW * fullSize) {
            return;
        }
        long segments = (bytes + fullSize - 1) / fullSize;
        int extra = Math.min(stops - (flightsFromIw10(segments) - 1), gaps.length);
        if (extra <= 0) {
            return;
        }
        long lost = 0;
        for (int i = 0; i < extra; i++) {
            lost += gaps[i];
        }
        long[] evidence = Arrays.copyOf(frames, Math.min(frames.length, 3 * extra));
        sink.onCause(new CauseEvent(id, Cause.SMALL_INITIAL_WINDOW, Side.RESPONDER, start, end, lost, extra,
                evidence));
    }
}
