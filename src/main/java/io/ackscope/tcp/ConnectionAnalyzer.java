package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.FIN;
import static io.ackscope.decode.PacketDecoder.RST;
import static io.ackscope.decode.PacketDecoder.SYN;

/**
 * Analysis of one connection (part b of the engine): consumes that connection's segments in capture order and
 * produces per-frame analysis, RTT samples, ACK delays, stalls, exchanges and finally its {@link ConnectionRecord}.
 *
 * <p>The sequence analysis is {@link SequenceAnalysis}, a faithful port of Wireshark 4.0's
 * {@code tcp_analyze_sequence_number}, so {@code tcp.analysis.*} values agree with tshark. Everything else is
 * ackscope's own and documented where computed: the handshake legs and capture point ({@link Handshake}, which this
 * class extends), RTT samples (here), ACK delays and Nagle &times; delayed-ACK stalls ({@link AckDelayTracker}) and
 * exchanges ({@link ExchangeTracker}). Per-side state lives in the two {@link Flow}s.
 *
 * <p>State is bounded: two {@link Flow}s with at most {@link UnackedList#MAX_SEGMENTS} unacknowledged segments each,
 * a fixed ring of TCP timestamp values, and the current exchange. Results go to the {@link AnalysisSink} at once.
 */
public final class ConnectionAnalyzer extends Handshake {
    private static final long serialVersionUID = 1L;

    /** A stalled sender must resume within this long after the ACK arrives ("within a millisecond or so"). */
    public static final long RESUME_WINDOW_NANOS = 2_000_000L;

    private final ConnectionId id;
    private AnalysisSink sink;
    /** a = sender of the connection's first frame, b = the other side. */
    final Flow a = new Flow();
    final Flow b = new Flow();
    private final boolean origIsA;
    /**
     * The path from the capture point to the client and back: the handshake's leg, or a response segment's data-ACK
     * round trip when one was shorter (a single leg is one sample, which a busy client or path can lengthen; the
     * data-ACK round trip includes the client's ACK delay, so neither is less than the path); -1 without a handshake.
     */
    long clientLeg() {
        long data = dataLeg(Side.ORIGINATOR);
        if (legClient < 0) {
            return pathRttTo(Side.ORIGINATOR);
        }
        return data >= 0 ? Math.min(legClient, data) : legClient;
    }

    @Override
    long dataLeg(Side acker) {
        Summary.Acc data = (acker == Side.ORIGINATOR) == origIsA ? b.dataRtt : a.dataRtt;
        return data == null ? -1 : data.minOr(-1);
    }

    /** Loss-recovery episodes; created at the first data retransmission. */
    private CauseDetector causes;
    /** Receive-window limits; created at the first window-full segment. */
    private WindowLimitDetector windowLimits;
    /** Responses after idle held back by a restarted congestion window; from the responder's first data on. */
    private IdleRestartDetector idleRestarts;
    private final ConnectionRecord.OriginatorRule originatorRule;

    private long firstTs = -1, lastTs = -1;
    private final ConnectionClose close = new ConnectionClose();
    /** Every segment so far was a SYN without ACK, FIN, RST or payload from the originator. */
    private boolean attemptOnly = true;
    /** This analyzer continues a connection whose record was already emitted (see {@link TupleTracker}). */
    private boolean reopened;

    private final History history = new History();
    /** The connection reuses the 4-tuple of an earlier one that ended (tshark: "TCP port numbers reused"). */
    private boolean reusedPorts;
    /** When that earlier connection ended (epoch ns; -1 unknown): a reuse within TIME_WAIT is a collision. */
    private long previousEndedAt = -1;

    // allocated when first needed (see the class comment): a connection that never carries data or ACKs data holds
    // none of them
    private Summary.Acc tsRtt;
    /** ACK delays and stalls; created at the first ACK of data. */
    private AckDelayTracker acks;
    private long rtoEvents, zeroWindowWaits;

    /** Request/response exchanges, from the first new data segment on. */
    private ExchangeTracker exchanges;

    /**
     * Shared by every connection of one engine: filled per frame and handed to the sink, which copies; it also
     * carries what the frame acknowledged from the sequence analysis to the ACK-delay and RTT analysis.
     */
    private final FrameAnalysis fa;

    /** Only the state that decides where connections end (see {@link TcpEngine#boundariesOnly}). */
    private final boolean boundariesOnly;

    /**
     * @param role who the client is ({@link RoleEvidence#decide}), also in {@code id}
     */
    ConnectionAnalyzer(ConnectionId id, Segment first, RoleEvidence.Role role, AnalysisSink sink,
                       boolean boundariesOnly, FrameAnalysis fa) {
        super(first);
        this.id = id;
        this.sink = sink;
        this.fa = fa;
        this.boundariesOnly = boundariesOnly;
        a.addrHi = first.srcHi;
        a.addrLo = first.srcLo;
        a.port = first.srcPort;
        b.addrHi = first.dstHi;
        b.addrLo = first.dstLo;
        b.port = first.dstPort;
        originatorRule = role.rule();
        origIsA = role.senderIsOriginator();
    }

    public ConnectionId id() {
        return id;
    }

    /** Timestamp of the last frame, -1 before the first. */
    long lastTs() {
        return lastTs;
    }

    /** Both FINs acknowledged, or a RST seen. */
    boolean isClosed() {
        return close.isClosed();
    }

    /** Nothing but the originator's SYNs so far: an attempt nobody answered. */
    boolean isAttempt() {
        return attemptOnly;
    }

    /** Results go to {@code s} from now on (a replay mutes the analyzer, then gives it the real sink). */
    void sink(AnalysisSink s) {
        sink = s;
    }

    /** Marks this connection as reusing the 4-tuple of an earlier one that ended at {@code endedAt} (-1: unknown). */
    void reusesPorts(long endedAt) {
        reusedPorts = true;
        previousEndedAt = endedAt;
    }

    /** Marks this analyzer as continuing a connection already emitted: it reports no new boundary. */
    void reopened() {
        reopened = true;
    }

    /** True when {@code s} is a SYN without ACK repeating the initial sequence number of its direction. */
    boolean repeatsSyn(Segment s) {
        Flow fwd = fwd(s);
        return (s.flags & (SYN | ACK)) == SYN && fwd.baseSeqSet && s.seq == fwd.baseSeq;
    }

    /** True when {@code s} starts exactly where its direction left off, or acknowledges exactly what the peer sent. */
    boolean continues(Segment s) {
        Flow fwd = fwd(s);
        Flow rev = fwd == a ? b : a;
        return (fwd.nextSeq != 0 && s.seq == fwd.nextSeq)
                || ((s.flags & ACK) != 0 && rev.nextSeq != 0 && s.ack == rev.nextSeq);
    }

    /** The flow of {@code s}'s sender. */
    Flow fwd(Segment s) {
        return isFromA(s) ? a : b;
    }

    private boolean isFromA(Segment s) {
        return s.srcPort == a.port && s.srcLo == a.addrLo && s.srcHi == a.addrHi;
    }

    private Side sideOf(boolean fromA) {
        return fromA == origIsA ? Side.ORIGINATOR : Side.RESPONDER;
    }

    // =================================================================================================================
    // per segment
    // =================================================================================================================

    /** tcp.window_size and tcp.window_size_scalefactor, from the scale known before this segment. */
    private void scaledWindow(Segment s, Flow fwd) {
        boolean syn = (s.flags & SYN) != 0;
        fa.scaledWindow = syn || fwd.winScale < 0 ? s.window : (long) s.window << fwd.winScale;
        fa.windowScaleFactor = syn ? 0 : fwd.winScale < 0 ? fwd.winScale : 1 << fwd.winScale;
    }

    /**
     * Analyses one segment of this connection.
     *
     * @param reusedPorts the tuple tracker saw a SYN or SYN/ACK whose ISN differs from (or repeats) the connection's
     *                    base sequence number, which tshark marks as "TCP port numbers reused"
     */
    void accept(Segment s, boolean reusedPorts) {
        boolean fromA = isFromA(s);
        Flow fwd = fromA ? a : b;
        Flow rev = fromA ? b : a;
        long now = s.timestampNanos;

        fa.reset();
        fa.connection = id;
        fa.stream = id.stream();
        fa.fromOriginator = fromA == origIsA;
        if (reusedPorts) {
            fa.flags |= FrameAnalysis.REUSED_PORTS;
            fa.hasAnalysis = true;
        }
        if (firstTs < 0) {
            firstTs = now;
            lastTs = now;
        }
        fa.sinceFirstFrameNanos = now - firstTs;
        fa.sincePreviousFrameNanos = now - lastTs;
        lastTs = now;
        scaledWindow(s, fwd);
        if (attemptOnly && ((s.flags & (SYN | ACK | FIN | RST)) != SYN || s.payloadLength != 0 || fromA != origIsA)) {
            attemptOnly = false;
        }
        fwd.sent(s);
        if ((s.flags & ACK) != 0) {
            rev.span.acked(s.ack);
        }

        SequenceAnalysis.analyze(s, fwd, rev, tsFirstRtt, fa);
        SequenceAnalysis.afterSequenceAnalysis(s, fwd, rev);
        initialRtt(s);
        if (boundariesOnly) {
            close.frame(s, fwd, rev, sideOf(fromA));
            return;
        }
        UnseenLoss.frame(id, s, fa, sideOf(fromA), fwd, rev, pathRttTo(sideOf(fromA)), sink);
        if (fa.hasAnalysis && tsFirstRtt != 0) {
            fa.initialRttNanos = tsFirstRtt;
            fa.initialRttShown = true;
        }
        // Wireshark only shows ack_rtt when it is non-zero.
        if (fa.ackedFrame >= 0 && fa.ackRttNanos != 0) {
            fa.ackRttShown = true;
        } else {
            fa.ackRttNanos = -1;
        }

        fwd.countEvents(s.flags, fa.flags);
        if (s.payloadLength > 0 && !fa.retransmission()) {
            fwd.windowFull = fa.has(FrameAnalysis.WINDOW_FULL);
        }
        history.frame(s.flags, s.payloadLength, fa.flags, fromA);
        RttSample leg = handshake(id, s, fromA == origIsA);
        if (leg != null) {
            sink.onRttSample(leg);
        }
        if (hsAckTs == now) {
            handshakeCauses(id, sink);
        }
        rttSamples(s, fromA, fwd, rev);
        ackDelayAndStall(s, fromA, fwd, rev);
        zeroWindow(s, fromA, fwd, rev);
        recovery(s, fromA, fwd, rev);
        windowLimits = WindowLimitDetector.frame(windowLimits, id, s, fa, sideOf(fromA).ordinal(), fwd, rev);
        idleRestarts = IdleRestartDetector.frame(idleRestarts, id, s, fa, sideOf(fromA), fwd, rev, sink);
        exchange(s, fromA, fwd);
        close.frame(s, fwd, rev, sideOf(fromA));
        sink.onFrame(s, fa);
    }

    /**
     * Request/response exchanges: data opens and extends them; the server's pure ACKs and request retransmissions
     * are what the response-time causes read.
     */
    private void exchange(Segment s, boolean fromA, Flow fwd) {
        if (exchanges != null && s.payloadLength == 0 && (s.flags & (ACK | SYN | FIN | RST)) == ACK
                && sideOf(fromA) == Side.RESPONDER) {
            exchanges.responderAck(s);
        }
        if (exchanges != null && s.payloadLength > 0 && fa.retransmission() && fromA == origIsA) {
            exchanges.originatorRetransmission();
        }
        if (exchanges != null && s.payloadLength > 0 && fa.retransmission() && fromA != origIsA
                && fwd.holeTs >= 0 && Seq.lt(s.seq, fwd.holeEnd)) {
            exchanges.responderFill(s);
        }
        if (s.payloadLength > 0 && !fa.retransmission() && !fa.has(FrameAnalysis.KEEP_ALIVE)) {
            if (exchanges == null) {
                exchanges = new ExchangeTracker(id, sink, this);
            }
            Summary.Acc origRtt = (origIsA ? a : b).dataRtt;
            exchanges.data(sideOf(fromA), s, legServer >= 0 ? legServer : origRtt == null ? -1 : origRtt.minOr(-1));
        }
    }

    // =================================================================================================================
    // ackscope's own analysis
    // =================================================================================================================

    private void rttSamples(Segment s, boolean fromA, Flow fwd, Flow rev) {
        long now = s.timestampNanos;
        // data -> ACK (tshark's ack_rtt), for segments carrying data
        if (fa.ackedFrame >= 0 && fa.ackRttNanos > 0 && fa.ackedMatchHasData) {
            Side dataSide = sideOf(!fromA);
            rev.dataRtt = Summary.Acc.add(rev.dataRtt, fa.ackRttNanos);
            sink.onRttSample(new RttSample(id, now, s.frameNumber, RttSample.Kind.DATA_ACK, dataSide,
                    fa.ackRttNanos, fa.ackRttAmbiguous));
        }
        // TCP timestamps (pping): the peer echoes a TSval this side... i.e. this packet echoes one the peer sent
        if (s.hasTimestamps) {
            if ((s.flags & ACK) != 0 && s.tsEcr != 0) {
                long sent = rev.takeEchoed(s.tsEcr);
                if (sent >= 0 && now > sent) {
                    fwd.echoRtt = now - sent;
                    tsRtt = Summary.Acc.add(tsRtt, now - sent);
                    sink.onRttSample(new RttSample(id, now, s.frameNumber, RttSample.Kind.TIMESTAMP_ECHO,
                            sideOf(!fromA), now - sent, false));
                }
            }
            fwd.rememberTsval(s.tsVal, now);
        }
    }

    /** ACK delays and stalls ({@link AckDelayTracker}); a stall counts in the open exchange and goes to the sink. */
    private void ackDelayAndStall(Segment s, boolean fromA, Flow fwd, Flow rev) {
        if (acks == null && AckDelayTracker.measures(s, fa)) {
            acks = new AckDelayTracker(id);
        }
        Stall st = acks == null ? null : acks.frame(s, fa, fromA ? 0 : 1, sideOf(fromA), fwd, rev, this, sink);
        if (st != null) {
            if (exchanges != null) {
                exchanges.stall(st);
            }
            sink.onStall(st);
        }
    }

    /**
     * A full segment of {@code fwd}'s sender: the MSS its receiver {@code rev} announced, less the 12 bytes of the
     * timestamps option when both sides use it; when neither side's SYN was captured (a connection open before the
     * capture), the largest segment {@code fwd} sent that more data followed in the same flight
     * ({@link Flow#largestPayload}); -1 when neither is known.
     */
    static int fullSize(Flow fwd, Flow rev) {
        if (rev.mss > 0) {
            return rev.mss - (rev.timestamps && fwd.timestamps ? 12 : 0);
        }
        return !rev.synSeen && !fwd.synSeen && fwd.largestPayload > 0 ? fwd.largestPayload : -1;
    }

    /**
     * Loss-recovery episodes ({@link CauseDetector}), from the connection's first data retransmission on, and the
     * holes they fill: a hole opens at a data segment past the next expected byte (tshark's "previous segment not
     * captured") and closes when the receiver acknowledges its end.
     */
    private void recovery(Segment s, boolean fromA, Flow fwd, Flow rev) {
        if (fa.ackedSegments > 0) {
            rev.ackedAt = s.timestampNanos;
        }
        if (causes == null && s.payloadLength > 0 && fa.retransmission()) {
            causes = new CauseDetector(id);
        }
        if (causes != null) {
            Side sender = sideOf(fromA);
            long timerWait = causes.frame(s, fa, sender.ordinal(), fwd,
                    fwd.dataRtt == null ? -1 : fwd.dataRtt.minOr(-1),
                    Math.max(pathRttTo(sender), fwd.holeTs >= 0 ? fwd.holeRtt : -1), sink);
            if (timerWait > 0 && fa.rtoNanos > 0) {
                retransmissionTimeout(s, fromA);
            }
        }
        if ((s.flags & ACK) != 0 && rev.holeTs >= 0 && Seq.ge(s.ack, rev.holeEnd)) {
            rev.holeTs = -1;
        } else if (rev.holeTs >= 0 && fa.has(FrameAnalysis.DUPLICATE_ACK)) {
            rev.holeDupAcks++;
        }
        if (s.payloadLength > 0 && fa.has(FrameAnalysis.LOST_SEGMENT) && fwd.holeTs < 0) {
            fwd.holeTs = s.timestampNanos;
            fwd.holeFrame = s.frameNumber;
            fwd.holeEnd = s.seq;
            fwd.holeRtt = fwd.echoRtt;
            fwd.holeDupAcks = 0;
        }
    }

    /**
     * A retransmission the sender's timer sent: its wait (from the data's transmission, the last ACK of new data
     * or the previous retransmission) was at least the minimum RTO. A shorter wait is a probe or a RACK / early
     * retransmit, never an RTO (docs/causes.md); the event keeps tshark's {@code tcp.analysis.rto} as its duration.
     */
    private void retransmissionTimeout(Segment s, boolean fromA) {
        rtoEvents++;
        Side sender = sideOf(fromA);
        sink.onLatencyEvent(new LatencyEvent(id, LatencyEvent.Kind.RETRANSMISSION_TIMEOUT,
                s.timestampNanos - fa.rtoNanos, fa.rtoNanos, sender, fa.rtoStartFrame, s.frameNumber));
    }

    private void zeroWindow(Segment s, boolean fromA, Flow fwd, Flow rev) {
        if ((s.flags & (SYN | FIN | RST)) != 0) {
            return;
        }
        long now = s.timestampNanos;
        if (s.window == 0) {
            if (fwd.zeroWindowSince < 0) {
                fwd.zeroWindowSince = now;
                fwd.zeroWindowFrame = s.frameNumber;
                fwd.zeroWindowAdverts = 0;
            }
            fwd.zeroWindowAdverts++;
        } else if (fwd.zeroWindowSince >= 0) {
            zeroWindowWaits++;
            Side advertiser = sideOf(fromA);
            long d = now - fwd.zeroWindowSince;
            sink.onLatencyEvent(new LatencyEvent(id, LatencyEvent.Kind.ZERO_WINDOW_WAIT, fwd.zeroWindowSince, d,
                    advertiser.other(), fwd.zeroWindowFrame, s.frameNumber));
            sink.onCause(CauseDetector.zeroWindow(id, advertiser, fwd.zeroWindowFrame, fwd.zeroWindowSince,
                    s.frameNumber, now, fwd.zeroWindowAdverts));
            fwd.zeroWindowSince = -1;
        }
    }

    /** When the connection closed (epoch ns), -1 if still open. */
    long closedAt() {
        return close.closedAt();
    }

    // =================================================================================================================
    // end
    // =================================================================================================================

    /** Emits the pending exchange and the connection record. Call once. */
    void finish(ConnectionRecord.EndReason reason) {
        if (boundariesOnly) {
            if (!reopened) {
                sink.onConnectionBoundary(id);
            }
            return;
        }
        if (exchanges != null) {
            exchanges.finish();
            if (exchanges.count() == 1) {
                churnCause(id, exchanges.firstRequestStart, exchanges.firstRequestFrame, close.closer, close.closeFrame,
                        reusedPorts ? previousEndedAt : Long.MIN_VALUE, sink);
            }
        }
        handshakeCauses(id, sink);
        if (causes != null) {
            causes.finish(lastTs, sink);
        }
        if (windowLimits != null) {
            windowLimits.finish(sink);
        }
        IdleRestartDetector.finish(idleRestarts, sink);
        Flow o = origIsA ? a : b;
        Flow r = origIsA ? b : a;
        int oi = origIsA ? 0 : 1;
        int ri = 1 - oi;
        StallDetector stalls = acks == null ? null : acks.stalls;
        boolean origSyn = synTs >= 0;
        boolean respSynAck = synAckTs >= 0;
        String state = ConnectionRecord.zeekConnState(origSyn, respSynAck, o.rsts > 0, r.rsts > 0, o.fins > 0,
                r.fins > 0);
        ConnectionRecord.EndReason why = reason == ConnectionRecord.EndReason.IDLE_TIMEOUT && close.isClosed()
                ? ConnectionRecord.EndReason.CLOSED : reason;
        ConnectionRecord rec = new ConnectionRecord(id, origIsA, originatorRule, side(o, oi), side(r, ri), firstTs, lastTs,
                lastTs - firstTs, synTs, synAckTs, hsAckTs, legServer, legClient, tsFirstRtt == 0 ? -1 : tsFirstRtt,
                capturePoint(), state, (origIsA ? "" : "^") + history.render(origIsA), why, Summary.Acc.build(o.dataRtt),
                Summary.Acc.build(r.dataRtt), Summary.Acc.build(tsRtt), stalls == null ? 0 : stalls.count,
                stalls == null ? 0 : stalls.nanos,
                exchanges == null ? 0 : exchanges.count(), exchanges == null ? Summary.EMPTY : exchanges.ttfb(),
                rtoEvents, zeroWindowWaits, stalls == null ? 0 : stalls.nanosByHolder[Side.ORIGINATOR.ordinal()],
                stalls == null ? 0 : stalls.nanosByHolder[Side.RESPONDER.ordinal()]);
        sink.onConnection(rec);
    }

    private SideStats side(Flow f, int i) {
        return f.stats(AckDelayTracker.classCounts(acks, i));
    }

    /** Records the SYN / SYN-ACK options of the sender (called by the tuple tracker before {@link #accept}). */
    void options(Segment s) {
        if ((s.flags & SYN) == 0) {
            return;
        }
        fwd(s).synOptions(s);
    }
}
