package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;

import java.util.Arrays;

/**
 * A sender held back by its peer's receive window while the peer keeps reading: the window is smaller than the
 * path's bandwidth x delay, so the sender fills it, waits for the ACK that slides it, and sends again
 * ({@link Cause#RECEIVER_WINDOW_LIMITED}). Created by {@link ConnectionAnalyzer} at the connection's first segment
 * tshark marks {@code tcp.analysis.window_full} (most connections have none).
 *
 * <p>One episode per window-full segment: from it to the sender's next new data. It counts only when
 * <ul>
 *   <li>the peer's ACK that opened the window again acknowledged new data (it was not a
 *       {@code tcp.analysis.window_update}) and advertised a window no smaller than the one that was full: the
 *       receiver reads as fast as the data arrives. A window that shrinks as data is acknowledged, or opens only
 *       in a window update, is a slow reader, and one that reaches zero is {@link Cause#ZERO_WINDOW}'s;</li>
 *   <li>the peer advertised no zero window and sent no new data meanwhile (the sender may then have waited for that
 *       data, a request, not for the window), and the sender retransmitted nothing (loss recovery is the loss
 *       causes').</li>
 * </ul>
 * A sender with fewer than {@link #MIN_EPISODES} counted episodes on the connection is not reported: one full window
 * at the end of a response is chance, the cause is a window that is full again and again. Nor is one whose receiver
 * advertised a zero window on the connection at any time: that receiver is a slow reader, whose waits
 * {@link Cause#ZERO_WINDOW} counts, and its full windows between them are the same slowness. The connection's episodes
 * become one {@link CauseEvent} per limited sender at its end; docs/causes.md has the reasoning.
 */
final class WindowLimitDetector implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Counted episodes a sender needs on one connection to be reported: "again and again". */
    static final int MIN_EPISODES = 3;

    private final ConnectionId id;
    /** Per sender (side ordinal): the open episode's window-full time (-1 none), frames and state. */
    private final long[] since = {-1, -1};
    private final long[] fullFrame = new long[2];
    private final long[] openFrame = {-1, -1};
    /** Per sender: the receiver's window (bytes) that the window-full segment filled. */
    private final long[] fullWindow = new long[2];
    private final boolean[] spoiled = new boolean[2];
    /** Per side: it advertised a zero window on the connection (then it is a slow reader, not a small window). */
    private final boolean[] zeroWindow = new boolean[2];
    /** Per sender: the counted episodes so far. */
    private final int[] episodes = new int[2];
    private final long[] lost = new long[2];
    private final long[] firstTs = {-1, -1};
    private final long[] lastTs = new long[2];
    private final long[][] frames = new long[2][CauseEvent.MAX_FRAMES];
    private final int[] frameCount = new int[2];

    private WindowLimitDetector(ConnectionId id) {
        this.id = id;
    }

    /**
     * Segment {@code s} from side {@code si} (0 = originator) after the sequence analysis: {@code fwd} is its flow,
     * {@code rev} the peer's. Returns the detector to keep: {@code d}, or a new one at the first window-full segment.
     */
    static WindowLimitDetector frame(WindowLimitDetector d, ConnectionId id, Segment s, FrameAnalysis fa, int si,
                                     Flow fwd, Flow rev) {
        if (d == null && !fa.has(FrameAnalysis.WINDOW_FULL)) {
            return null;
        }
        WindowLimitDetector w = d;
        if (w == null) {
            w = new WindowLimitDetector(id);
            w.zeroWindow[1 - si] = rev.counted(Flow.ZERO_WINDOWS) > 0;
        }
        w.zeroWindow[si] |= fa.has(FrameAnalysis.ZERO_WINDOW);
        w.asReceiver(s, fa, 1 - si, fwd, rev);
        w.asSender(s, fa, si, rev);
        return w;
    }

    /** {@code s} as the receiver's side of sender {@code si}'s open episode: its ACK, window and own data. */
    private void asReceiver(Segment s, FrameAnalysis fa, int si, Flow fwd, Flow rev) {
        if (since[si] < 0) {
            return;
        }
        if (s.window == 0 || (s.payloadLength > 0 && !fa.retransmission())) {
            spoiled[si] = true;
        }
        if (openFrame[si] < 0 && (s.flags & ACK) != 0) {
            long window = bytes(s.window, fwd);
            if (Seq.gt(Seq.add(s.ack, window), rev.nextSeq)) {
                openFrame[si] = s.frameNumber;
                spoiled[si] |= fa.has(FrameAnalysis.WINDOW_UPDATE) || window < fullWindow[si];
            }
        }
    }

    /** {@code s} as sender {@code si}'s data: the end of its open episode, the start of the next. */
    private void asSender(Segment s, FrameAnalysis fa, int si, Flow receiver) {
        if (s.payloadLength == 0 || fa.has(FrameAnalysis.KEEP_ALIVE)) {
            return;
        }
        if (fa.retransmission()) {
            spoiled[si] |= since[si] >= 0;
            return;
        }
        if (since[si] >= 0) {
            if (!spoiled[si] && openFrame[si] >= 0) {
                count(si, since[si], s.timestampNanos, fullFrame[si], openFrame[si], s.frameNumber);
            }
            since[si] = -1;
        }
        if (fa.has(FrameAnalysis.WINDOW_FULL)) {
            since[si] = s.timestampNanos;
            fullFrame[si] = s.frameNumber;
            fullWindow[si] = bytes(receiver.window, receiver);
            openFrame[si] = -1;
            spoiled[si] = false;
        }
    }

    /** A raw window field advertised by {@code advertiser}'s side, in bytes (its scale applied when known). */
    private static long bytes(long window, Flow advertiser) {
        return (window & Seq.MASK) << Math.max(0, advertiser.winScale);
    }

    private void count(int si, long start, long end, long... evidence) {
        episodes[si]++;
        lost[si] += end - start;
        if (firstTs[si] < 0) {
            firstTs[si] = start;
        }
        lastTs[si] = end;
        long[] f = frames[si];
        for (long e : evidence) {
            if (frameCount[si] < f.length) {
                f[frameCount[si]++] = e;
            } else {
                f[f.length - 1] = e;   // the last slot keeps the latest frame
            }
        }
    }

    /**
     * One event per sender limited {@link #MIN_EPISODES} times or more; its side is the receiver whose window it
     * was, its count the episodes, its evidence each episode's window-full segment, the ACK that opened the window
     * and the sender's next segment (the first episodes, and the very last frame).
     */
    void finish(AnalysisSink sink) {
        for (int si = 0; si < 2; si++) {
            if (episodes[si] >= MIN_EPISODES && !zeroWindow[1 - si]) {
                Side receiver = si == 0 ? Side.RESPONDER : Side.ORIGINATOR;
                sink.onCause(new CauseEvent(id, Cause.RECEIVER_WINDOW_LIMITED, receiver, firstTs[si], lastTs[si],
                        lost[si], episodes[si], Arrays.copyOf(frames[si], frameCount[si])));
            }
        }
    }
}
