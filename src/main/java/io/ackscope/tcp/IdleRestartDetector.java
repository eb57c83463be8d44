package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;

import java.util.Arrays;

/**
 * A response held back by the server's congestion window after the connection was idle: the window restarted from
 * the initial window (RFC 5681 4.1; Linux's {@code net.ipv4.tcp_slow_start_after_idle}, on by default), so a
 * response that could leave in one flight leaves in round-trip-spaced flights of 10, 20, 40 ... segments
 * ({@link Cause#SLOW_START_AFTER_IDLE}). Created by {@link ConnectionAnalyzer} at the responder's first new data.
 *
 * <p>A response (the responder's new data after the originator's new data) is looked at only when the responder
 * had sent nothing for at least {@link #IDLE_NANOS} before it and had sent data before (a connection's first
 * response is slow start itself, which every connection pays). Within it, a stop is a gap of at least a quarter of
 * the path's RTT (the larger of the two directions' minimum data RTTs; at least {@link #MIN_STOP_NANOS}) between
 * two new data segments. A stop counts when
 * <ul>
 *   <li>the originator acknowledged new data during it, and the resumption left within
 *       {@link ConnectionAnalyzer#RESUME_WINDOW_NANOS} after the newest such ACK: the ACK clock sent it, not the
 *       application (a server slow to write resumes when it writes, whenever the ACKs came);</li>
 *   <li>the resumption left within 1.5 RTT + {@link ConnectionAnalyzer#RESUME_WINDOW_NANOS} of the stopped flight's
 *       first segment: one round trip per flight.</li>
 * </ul>
 * A stop that does not count, a retransmission, a window-full segment ({@link Cause#RECEIVER_WINDOW_LIMITED}'s) or
 * a zero window in the response spoils the whole response; new originator data ends it. A response with
 * one counted stop or more whose first flight ended with a full segment ({@link #windowFlight}) is one
 * {@link CauseEvent}: time lost = its stops (the waits a response that left at once would not have had), count =
 * stops (round trips beyond the first). Best seen at the server: docs/causes.md.
 *
 * <p>The connection's first response is cut into flights by the same rule and handed to {@link InitialWindow},
 * which reports it as {@link Cause#SMALL_INITIAL_WINDOW} when its first flight, ended by the window as above, was
 * under 10 segments and it took more flights than an initial window of 10 would have.
 *
 * <p>Every connection whose responder sends data keeps one (a few longs: the state of one response at a time);
 * events go to the sink each call passes, the analyzer's current one (a replay mutes it first).
 */
final class IdleRestartDetector implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Linux's minimum RTO (TCP_RTO_MIN): a shorter idle period cannot restart its congestion window. */
    static final long IDLE_NANOS = 200_000_000L;
    /** The shortest stop: below it, spacing between segments is pacing or scheduling, not a flight's end. */
    static final long MIN_STOP_NANOS = 1_000_000L;

    private final ConnectionId id;
    /** The responder's last new data (time), the originator's highest ACK, and its newest one in the current gap. */
    private long lastData = -1;
    private long lastDataFrame;
    private long peerAck;
    private boolean peerAckKnown;
    private long gapAckFrame = -1;
    private long gapAckTs;
    /** New originator data (a request) since the responder's last new data: the next data starts a response. */
    private boolean request;
    /** The current response: after idle, the connection's first, spoiled, its first data, its flight's first data. */
    private boolean afterIdle;
    private boolean first;
    private boolean spoiled;
    private long responseStart;
    private long flightStart;
    private int stops;
    private long lost;
    /** Evidence frames of the current response's stops; empty until the connection's first stop. */
    private long[] frames = NONE;
    private int frameCount;
    /**
     * The current response's bytes, its first flight's (-1 before its first stop), whether that flight's last
     * segment was full (not a segment Nagle's algorithm sent before holding the next), and its first stops' gaps.
     */
    private long bytes;
    private long firstFlight = -1;
    private boolean firstFlightFull;
    private int lastDataLength;
    /** Empty until the connection's first stop (most responses never stop), then {@link InitialWindow#MAX_EXTRA_STOPS}. */
    private long[] gaps = NONE;
    private static final long[] NONE = {};
    /** A full segment of the responder (MSS its peer announced, less the timestamps option), -1 when not seen. */
    private int fullSize = -1;

    private IdleRestartDetector(ConnectionId id) {
        this.id = id;
    }

    /**
     * Segment {@code s} from side {@code from} after the sequence analysis: {@code fwd} is its flow, {@code rev} the
     * peer's. Returns the detector to keep: {@code d}, or a new one at the responder's first new data.
     */
    static IdleRestartDetector frame(IdleRestartDetector d, ConnectionId id, Segment s, FrameAnalysis fa, Side from,
                                     Flow fwd, Flow rev, AnalysisSink sink) {
        boolean newData = s.payloadLength > 0 && !fa.retransmission() && !fa.has(FrameAnalysis.KEEP_ALIVE);
        if (d == null && (from == Side.ORIGINATOR || !newData)) {
            return null;
        }
        IdleRestartDetector r = d == null ? new IdleRestartDetector(id) : d;
        if (from == Side.ORIGINATOR) {
            r.fromOriginator(s, newData);
        } else if (s.payloadLength > 0 && fa.retransmission()) {
            r.spoiled = true;
        } else if (newData) {
            r.fullSize = ConnectionAnalyzer.fullSize(fwd, rev);
            r.fromResponder(s, fa, Math.max(minRtt(fwd), minRtt(rev)), sink);
        }
        return r;
    }

    private void fromOriginator(Segment s, boolean newData) {
        if (newData) {
            request = true;
        }
        if (s.window == 0) {
            spoiled = true;
        }
        if ((s.flags & ACK) != 0 && (!peerAckKnown || Seq.gt(s.ack, peerAck))) {
            peerAck = s.ack;
            peerAckKnown = true;
            gapAckFrame = s.frameNumber;
            gapAckTs = s.timestampNanos;
        }
    }

    /**
     * The path's round trip as data RTTs see it: a flow's minimum data RTT is the whole path when the capture is at
     * its sender and only the peer's ACK delay when it is at the receiver, so the larger of the two directions' is
     * the path from either end (-1 before any sample).
     */
    private static long minRtt(Flow f) {
        return f.dataRtt == null ? -1 : f.dataRtt.minOr(-1);
    }

    private void fromResponder(Segment s, FrameAnalysis fa, long rtt, AnalysisSink sink) {
        long now = s.timestampNanos;
        if (lastData < 0 || request) {
            endResponse(sink);
            afterIdle = lastData >= 0 && now - lastData >= IDLE_NANOS;
            first = lastData < 0;
            spoiled = false;
            request = false;
            responseStart = now;
            flightStart = now;
        } else {
            long gap = now - lastData;
            if ((afterIdle || first) && rtt > 0 && gap >= Math.max(MIN_STOP_NANOS, rtt / 4)) {
                boolean clocked = gapAckFrame >= 0 && now - gapAckTs <= ConnectionAnalyzer.RESUME_WINDOW_NANOS
                        && now - flightStart <= rtt + rtt / 2 + ConnectionAnalyzer.RESUME_WINDOW_NANOS;
                if (clocked && !spoiled) {
                    stop(gap, lastDataFrame, gapAckFrame, s.frameNumber);
                } else {
                    spoiled = true;
                }
                flightStart = now;
            }
        }
        bytes += s.payloadLength;
        if (fa.has(FrameAnalysis.WINDOW_FULL)) {
            spoiled = true;
        }
        lastData = now;
        lastDataFrame = s.frameNumber;
        lastDataLength = s.payloadLength;
        gapAckFrame = -1;
    }

    private void stop(long gap, long... evidence) {
        if (gaps.length == 0) {
            gaps = new long[InitialWindow.MAX_EXTRA_STOPS];
            frames = new long[CauseEvent.MAX_FRAMES];
        }
        if (stops == 0) {
            firstFlight = bytes;
            firstFlightFull = fullSize > 0 && lastDataLength >= fullSize;
        }
        if (stops < gaps.length) {
            gaps[stops] = gap;
        }
        stops++;
        lost += gap;
        for (long e : evidence) {
            if (frameCount < frames.length) {
                frames[frameCount++] = e;
            } else {
                frames[frames.length - 1] = e;   // the last slot keeps the latest frame
            }
        }
    }

    /** Emits the current response's event to {@code sink} (the analyzer's current one) when it counts; clears it. */
    private void endResponse(AnalysisSink sink) {
        if (afterIdle && !spoiled && stops > 0 && windowFlight() >= 0) {
            sink.onCause(new CauseEvent(id, Cause.SLOW_START_AFTER_IDLE, Side.RESPONDER, responseStart, lastData, lost,
                    stops, Arrays.copyOf(frames, frameCount)));
        }
        if (first && !spoiled) {
            InitialWindow.judge(id, responseStart, lastData, bytes, windowFlight(), fullSize, stops, gaps,
                    Arrays.copyOf(frames, frameCount), sink);
        }
        stops = 0;
        lost = 0;
        frameCount = 0;
        bytes = 0;
        firstFlight = -1;
    }

    /**
     * The current response's first flight in bytes when the congestion window ended it, else -1 (no stop yet, or its
     * last segment was not full). One rule for both causes: a window that stops a sender with more to send stops it
     * after a full segment; a small segment before the stop is one Nagle's algorithm sent before holding what
     * followed until it was acknowledged (RFC 896; a header written before its body), or the application's last
     * write, and the ACK then sends the rest whatever the window. Without the handshake's MSS no segment is known to
     * be full, so nothing counts.
     */
    private long windowFlight() {
        return firstFlightFull ? firstFlight : -1;
    }

    /** The connection's last response's event, when it counts ({@code d} may be null). Call once. */
    static void finish(IdleRestartDetector d, AnalysisSink sink) {
        if (d != null) {
            d.endResponse(sink);
            d.afterIdle = false;
            d.first = false;
        }
    }
}
