package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;

import java.util.Arrays;

/**
 * Handshake retransmissions and loss-recovery episodes of one connection, turned into {@link CauseEvent}s. Created
 * by {@link ConnectionAnalyzer} at the connection's first retransmission (most connections have none); zero-window
 * episodes, which the analyzer already tracks, are turned into events by {@link #zeroWindow}.
 *
 * <p>A recovery episode of one sender starts at its first data retransmission and ends at the peer's first ACK that
 * covers every byte retransmitted in it. Each retransmission is classified by what triggered it, as far as the wire
 * shows (docs/causes.md has the reasoning and the references):
 * <ul>
 *   <li>tshark's fast-retransmission flag (two or more duplicate ACKs), or a wait under the minimum RTO for data
 *       that is not the highest sent (RACK / early retransmit): fast;</li>
 *   <li>a wait under the minimum RTO for the highest data sent: a tail-loss probe;</li>
 *   <li>a wait of the minimum RTO or more: an RTO. The wait is measured from the latest of the data's
 *       transmission, the last ACK that advanced the sender's window and the episode's previous retransmission
 *       (RFC 6298 5.3 and 5.5 restart the timer there). Retransmissions that follow an RTO sooner than that are
 *       the rest of the flight, resent after it, not timeouts of their own. When the first timeout resent only
 *       the tail segment and the next one waits less than 1.5 times as long, the first was not backed off, so it
 *       was a probe (Linux caps its probe timer at the RTO when one segment is in flight);</li>
 *   <li>tshark's spurious flag (all of it already ACKed), or a D-SACK from the peer covering the retransmitted
 *       bytes on the covering ACK or the one after: spurious.</li>
 * </ul>
 * The episode's cause is the costliest kind in it: RTO, else probe, else fast, else spurious. Its time lost is
 * from the first original transmission to the covering ACK, less the sender's smallest data RTT.
 *
 * <p><b>At the receiver</b> (or anywhere past the loss) the original of a lost segment was never captured: what the
 * capture shows is a hole, a data segment past the next expected byte ({@link Flow#holeTs}), and later the
 * retransmission that fills it. An episode whose first retransmission fills a hole whose original was not seen is
 * timed by the hole: from the arrival of the first segment past the gap to the covering ACK, which the receiver
 * sends on the filling segment's arrival; that is the time the data could not advance. It is an RTO when a hole
 * lasted at least the minimum RTO and at least the path RTT to the sender plus half of it (Linux's RTO is the
 * smoothed RTT plus at least 200 ms; fast recovery fills a hole about one RTT after the segment that revealed it,
 * the receiver's duplicate ACKs having reached the sender), and the receiver sent fewer than
 * {@link #FAST_RECOVERY_DUPACKS} duplicate ACKs while it was open; otherwise fast recovery. (A fast retransmission
 * lost in turn, then resent by the timer after enough duplicate ACKs, is called fast recovery: its time is right,
 * its name is not.)
 */
final class CauseDetector implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The smallest RTO a sender may use: Linux's TCP_RTO_MIN (200 ms); RFC 6298 (2.4) says 1 s, which other stacks
     * lower too, so a wait shorter than 200 ms is never called an RTO.
     */
    static final long MIN_RTO_NANOS = 200_000_000L;

    /**
     * ACKs after the covering one in which a D-SACK still counts: the duplicate reaches the receiver after the
     * original, and the receiver may ACK other data first (seen: 2 ACKs later, sample-pcaps/lab-cause-zero-window).
     */
    static final int DSACK_ACKS = 4;

    /**
     * Duplicate ACKs that start fast recovery (RFC 5681 3.2, Linux's tcp_reordering default): a receiver that sent
     * this many while a hole was open gave the sender what fast recovery needs, so a long hole is that recovery
     * slowed by a queue, not a timeout.
     */
    static final int FAST_RECOVERY_DUPACKS = 3;

    private final ConnectionId id;
    private final Episode[] open = new Episode[2];
    private final Episode[] closed = new Episode[2];

    CauseDetector(ConnectionId id) {
        this.id = id;
    }

    /**
     * Retransmissions of a handshake segment: the originator's SYNs or the responder's SYN/ACKs, from the first one
     * sent ({@code firstFrame} at {@code firstTs}) to the last one ({@code lastFrame}); the time lost is between them.
     */
    static CauseEvent handshake(ConnectionId id, Cause cause, long firstFrame, long firstTs, long lastFrame,
                                long lastTs, int retransmissions) {
        Side side = cause == Cause.SYN_RETRANSMISSION ? Side.ORIGINATOR : Side.RESPONDER;
        return new CauseEvent(id, cause, side, firstTs, lastTs, lastTs - firstTs, retransmissions,
                new long[] {firstFrame, lastFrame});
    }

    /** A zero-window episode of {@code advertiser}: from {@code startFrame} at {@code start} to the reopening. */
    static CauseEvent zeroWindow(ConnectionId id, Side advertiser, long startFrame, long start, long endFrame,
                                 long end, int advertisements) {
        return new CauseEvent(id, Cause.ZERO_WINDOW, advertiser, start, end, end - start, advertisements,
                new long[] {startFrame, endFrame});
    }

    /**
     * Segment {@code s} from side {@code si} (0 = originator) after the sequence analysis: {@code fwd} is its flow,
     * {@code minRtt} its minimum data RTT so far (-1 unknown), {@code pathRtt} the round trip from the capture
     * point to the sender (the larger of its handshake leg and its timestamp echo when the hole opened, so that a
     * queue's delay counts; -1 unknown).
     *
     * @return the sender's timer wait when {@code s} is a retransmission by timeout (a wait of the minimum RTO or
     *         more), else -1
     */
    long frame(Segment s, FrameAnalysis fa, int si, Flow fwd, long minRtt, long pathRtt, AnalysisSink sink) {
        if ((s.flags & ACK) != 0) {
            peerAck(s, 1 - si, sink);
        }
        if (s.payloadLength > 0 && fa.retransmission()) {
            return retransmission(s, fa, si, fwd, minRtt, pathRtt, sink);
        }
        return -1;
    }

    /** An ACK from the peer of sender {@code si}: a D-SACK, the end of its open episode, the emission of a closed one. */
    private void peerAck(Segment s, int si, AnalysisSink sink) {
        Episode c = closed[si];
        if (c != null) {
            c.spurious |= dsack(s, c);
            if (c.spurious || ++c.acksAfter >= DSACK_ACKS) {
                emit(c, sink);
                closed[si] = null;
            }
        }
        Episode e = open[si];
        if (e != null && Seq.ge(s.ack, e.highEnd)) {
            e.endTs = s.timestampNanos;
            e.addFrame(s.frameNumber);
            e.spurious |= dsack(s, e);
            open[si] = null;
            closed[si] = e;
        }
    }

    private long retransmission(Segment s, FrameAnalysis fa, int si, Flow fwd, long minRtt, long pathRtt,
                                AnalysisSink sink) {
        long now = s.timestampNanos;
        long end = Seq.add(s.seq, s.payloadLength);
        int orig = original(fwd.unacked, s.seq, end, s.frameNumber);
        long origTs = orig >= 0 ? fwd.unacked.ts[orig] : now;
        boolean fills = orig < 0 && fwd.holeTs >= 0 && Seq.lt(s.seq, fwd.holeEnd);
        Episode e = open[si];
        if (e == null) {
            if (closed[si] != null) {
                emit(closed[si], sink);
                closed[si] = null;
            }
            e = fills ? new Episode(si, fwd.holeTs, fwd.holeFrame, s.seq, end, minRtt)
                    : new Episode(si, origTs, orig >= 0 ? fwd.unacked.frame[orig] : -1, s.seq, end, minRtt);
            e.atReceiver = fills;
            open[si] = e;
        }
        if (fills && e.atReceiver) {
            long hole = now - fwd.holeTs;
            e.longestHole = Math.max(e.longestHole, hole);
            e.rtoHole |= hole >= MIN_RTO_NANOS && (pathRtt < 0 || hole >= pathRtt + MIN_RTO_NANOS / 2)
                    && fwd.holeDupAcks < FAST_RECOVERY_DUPACKS;
        }
        e.addFrame(s.frameNumber);
        e.retransmissions++;
        boolean tail = Seq.ge(end, fwd.nextSeq);
        long timerWait = -1;
        if (fa.has(FrameAnalysis.SPURIOUS_RETRANSMISSION)) {
            e.spuriousOnly++;
        } else if (fa.has(FrameAnalysis.FAST_RETRANSMISSION)) {
            e.fast++;
        } else {
            // the sender's timer restarts at the data's transmission, at each ACK of new data, at each retransmission
            long wait = now - Math.max(Math.max(origTs, fwd.ackedAt), e.retransmissions > 1 ? e.lastTs : origTs);
            if (wait >= MIN_RTO_NANOS) {
                timerFired(e, wait, tail);
                timerWait = wait;
            } else if (e.rto > 0) {
                if (e.rto == 1) {
                    e.firstFiringSegments++;   // more of the flight, resent right after the timeout
                }
            } else if (tail) {
                e.probe = true;
            } else {
                e.fast++;
            }
        }
        e.lastTs = now;
        if (Seq.lt(s.seq, e.lowSeq)) {
            e.lowSeq = s.seq;
        }
        if (Seq.gt(end, e.highEnd)) {
            e.highEnd = end;
        }
        e.endTs = now;
        return timerWait;
    }

    /**
     * A retransmission after a wait of the minimum RTO or more: an RTO, unless it shows that the previous one was a
     * probe: that one resent only the tail segment and this wait is not backed off (under 1.5 times that one's).
     */
    private static void timerFired(Episode e, long wait, boolean tail) {
        if (e.rto == 1 && !e.probe && e.firstFiringTail && e.firstFiringSegments == 1 && wait * 2 < e.lastRtoWait * 3) {
            e.rto = 0;
            e.probe = true;
        }
        if (e.rto == 0) {
            e.firstFiringTail = tail;
            e.firstFiringSegments = 1;
        }
        e.rto++;
        e.lastRtoWait = wait;
    }

    /**
     * Index in {@code u} of the earliest transmission of any byte of [seq, end) before frame {@code self}, or -1
     * (the capture point is past the loss and never saw the original).
     */
    private static int original(UnackedList u, long seq, long end, long self) {
        for (int i = 0; i < u.size; i++) {
            if (Seq.lt(u.seq[i], end) && Seq.gt(u.nextSeq[i], seq)) {
                return u.frame[i] == self ? -1 : i;
            }
        }
        return -1;
    }

    /** RFC 2883: the first SACK block below the cumulative ACK (or inside the second block) reports duplicate data. */
    private static boolean dsack(Segment s, Episode e) {
        if (s.sackBlockCount == 0) {
            return false;
        }
        long left = s.sackLeft[0], right = s.sackRight[0];
        boolean duplicate = Seq.le(right, s.ack) || (s.sackBlockCount > 1 && Seq.ge(left, s.sackLeft[1])
                && Seq.le(right, s.sackRight[1]));
        return duplicate && Seq.lt(left, e.highEnd) && Seq.gt(right, e.lowSeq);
    }

    /** Emits what is still open or unreported; {@code lastTs} ends an episode no ACK covered. */
    void finish(long lastTs, AnalysisSink sink) {
        for (int si = 0; si < 2; si++) {
            if (closed[si] != null) {
                emit(closed[si], sink);
                closed[si] = null;
            }
            if (open[si] != null) {
                open[si].endTs = Math.max(open[si].endTs, lastTs);
                emit(open[si], sink);
                open[si] = null;
            }
        }
    }

    private void emit(Episode e, AnalysisSink sink) {
        if (e.atReceiver) {
            emitAtReceiver(e, sink);
            return;
        }
        Cause cause = e.spurious && e.rto == 0 ? Cause.SPURIOUS_RETRANSMISSION
                : e.rto > 0 ? Cause.RTO
                : e.probe ? Cause.TAIL_LOSS_PROBE
                : e.fast > 0 ? Cause.FAST_RETRANSMIT
                : Cause.SPURIOUS_RETRANSMISSION;
        long lost = cause == Cause.SPURIOUS_RETRANSMISSION ? 0
                : Math.max(0, e.endTs - e.startTs - Math.max(0, e.minRtt));
        int count = cause == Cause.RTO ? e.rto - 1 : e.retransmissions;
        sink.onCause(new CauseEvent(id, cause, e.side == 0 ? Side.ORIGINATOR : Side.RESPONDER, e.startTs, e.endTs,
                lost, count, Arrays.copyOf(e.frames, e.frameCount)));
    }

    /** An episode seen past the loss (see the class comment): timed by its holes, told apart by their length. */
    private void emitAtReceiver(Episode e, AnalysisSink sink) {
        Cause cause = e.rtoHole ? Cause.RTO : Cause.FAST_RETRANSMIT;
        sink.onCause(new CauseEvent(id, cause, e.side == 0 ? Side.ORIGINATOR : Side.RESPONDER, e.startTs, e.endTs,
                Math.max(0, e.endTs - e.startTs), e.retransmissions, Arrays.copyOf(e.frames, e.frameCount)));
    }

    /** One recovery episode of one sender. */
    static final class Episode implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        final int side;
        final long startTs, minRtt;
        long lowSeq, highEnd, endTs, lastTs, lastRtoWait;
        int retransmissions, fast, rto, spuriousOnly, acksAfter, firstFiringSegments;
        boolean probe, spurious, firstFiringTail;
        /** Seen past the loss: timed by holes ({@link #emitAtReceiver}); a hole long enough to be an RTO's. */
        boolean atReceiver, rtoHole;
        long longestHole;
        final long[] frames = new long[CauseEvent.MAX_FRAMES];
        int frameCount;

        Episode(int side, long startTs, long originalFrame, long lowSeq, long highEnd, long minRtt) {
            this.side = side;
            this.startTs = startTs;
            this.lowSeq = lowSeq;
            this.highEnd = highEnd;
            this.minRtt = minRtt;
            if (originalFrame >= 0) {
                addFrame(originalFrame);
            }
        }

        /** Keeps the first frames and always the latest one in the last slot. */
        void addFrame(long f) {
            if (frameCount < frames.length) {
                frames[frameCount++] = f;
            } else {
                frames[frames.length - 1] = f;
            }
        }
    }
}
