package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.FIN;
import static io.ackscope.decode.PacketDecoder.RST;
import static io.ackscope.decode.PacketDecoder.SYN;

/**
 * Analysis of one connection (part b of the engine): consumes that connection's segments in capture order and
 * produces per-frame analysis, RTT samples, ACK delays, stalls, exchanges and finally its {@link ConnectionRecord}.
 *
 * <p>The sequence analysis is a faithful port of Wireshark 4.0's {@code tcp_analyze_sequence_number} (one pass,
 * default preferences), including its quirks, so {@code tcp.analysis.*} values agree with tshark. Everything else
 * (handshake legs, vantage point, ACK delay, stalls, exchanges) is ackscope's own and documented where computed.
 *
 * <p>State is bounded: two {@link Flow}s with at most {@link UnackedList#MAX_SEGMENTS} unacknowledged segments each,
 * a fixed ring of TCP timestamp values, and the current exchange. Results go to the {@link AnalysisSink} at once.
 */
public final class ConnectionAnalyzer {

    /** A stalled sender must resume within this long after the ACK arrives ("within a millisecond or so"). */
    public static final long RESUME_WINDOW_NANOS = 2_000_000L;
    /** tshark's out-of-order threshold when no initial RTT is known (3 ms). */
    static final long DEFAULT_OOO_THRESHOLD_NANOS = 3_000_000L;
    /** tshark's fast-retransmission window after the last duplicate ACK (20 ms). */
    static final long FAST_RETRANSMISSION_WINDOW_NANOS = 20_000_000L;

    private final ConnectionId id;
    private AnalysisSink sink;
    /** a = sender of the connection's first frame, b = the other side. */
    final Flow a = new Flow();
    final Flow b = new Flow();
    private boolean origIsA = true;
    private ConnectionRecord.OriginatorRule originatorRule;

    // tshark tcp_analysis fields (0 = unset, as nstime_is_zero)
    private long tsMruSyn;
    private long tsFirstRtt;

    // handshake
    private long synTs = -1, lastSynTs = -1, synAckTs = -1, lastSynAckTs = -1, hsAckTs = -1;
    private long legServer = -1, legClient = -1;
    private boolean synRetransmitted, synAckRetransmitted;
    private final boolean sameHost;

    private long firstTs = -1, lastTs = -1;
    private boolean closed;
    private long closedAt = -1;
    /** Every segment so far was a SYN without ACK, FIN, RST or payload from the originator. */
    private boolean attemptOnly = true;
    /** This analyzer continues a connection whose record was already emitted (see {@link TupleTracker}). */
    private boolean reopened;

    private final History history = new History();

    // allocated when first needed (see the class comment): a connection that never carries data or ACKs data holds
    // none of them
    private Summary.Acc dataRttA, dataRttB;       // RTT of data from a / from b
    private Summary.Acc tsRtt;
    private Summary.Acc ackDelaysA, ackDelaysB;   // ACK delays of the ACKs a / b sent
    /** ACK classes counted per acking side: index side * classes + class ordinal (side 0 = a). */
    private long[] ackClassCounts;
    private long stallCount, stallNanos, rtoEvents, zeroWindowWaits;

    /** Stall candidates, index = holding side (0 = a, 1 = b); null until the first delayed ACK. */
    private StallCandidates pend;

    /** Request/response exchanges, from the first new data segment on. */
    private ExchangeTracker exchanges;

    // scratch, filled by the ACK walk
    private int ackedSegments;
    private long ackedBytes;
    private long ackedOldestTs, ackedNewestTs;
    private long ackedNewestFrame;
    private boolean ackedAmbiguous;
    private boolean rttAmbiguous;
    private boolean ackedMatchHasData;

    /** Shared by every connection of one engine: filled per frame and handed to the sink, which copies. */
    private final FrameAnalysis fa;

    /** Only the state that decides where connections end (see {@link TcpEngine#boundariesOnly}). */
    private final boolean boundariesOnly;

    ConnectionAnalyzer(ConnectionId id, Segment first, AnalysisSink sink, boolean boundariesOnly, FrameAnalysis fa) {
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
        sameHost = (first.srcHi == first.dstHi && first.srcLo == first.dstLo)
                || (Addresses.isLoopback(first.srcHi, first.srcLo) && Addresses.isLoopback(first.dstHi, first.dstLo));
        int f = first.flags & (SYN | ACK);
        if (f == SYN) {
            originatorRule = ConnectionRecord.OriginatorRule.SYN;
        } else if (f == (SYN | ACK)) {
            originatorRule = ConnectionRecord.OriginatorRule.SYN_ACK;
            origIsA = false;
        } else if (first.srcPort < 1024 && first.dstPort >= 1024) {
            originatorRule = ConnectionRecord.OriginatorRule.WELL_KNOWN_PORT;
            origIsA = false;
        } else {
            originatorRule = ConnectionRecord.OriginatorRule.FIRST_PACKET;
        }
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
        return closed;
    }

    /** Nothing but the originator's SYNs so far: an attempt nobody answered. */
    boolean isAttempt() {
        return attemptOnly;
    }

    /** Results go to {@code s} from now on (a replay mutes the analyzer, then gives it the real sink). */
    void sink(AnalysisSink s) {
        sink = s;
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
        int fi = fromA ? 0 : 1;
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
        }
        lastTs = now;
        if (attemptOnly && ((s.flags & (SYN | ACK | FIN | RST)) != SYN || s.payloadLength != 0 || fromA != origIsA)) {
            attemptOnly = false;
        }
        fwd.packets++;
        fwd.frameBytes += s.frameLength;
        fwd.payloadBytes += s.payloadLength;
        if (fwd.firstTs < 0) {
            fwd.firstTs = now;
        }
        fwd.lastTs = now;

        analyzeSequence(s, fwd, rev);
        afterSequenceAnalysis(s, fwd, rev);
        if (boundariesOnly) {
            closeState(s, fwd, rev);
            return;
        }
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

        countFlags(s, fwd, fi);
        handshake(s, fromA);
        rttSamples(s, fromA, fwd, rev);
        ackDelayAndStall(s, fromA, fwd, rev);
        zeroWindow(s, fromA, fwd, rev);
        if (s.payloadLength > 0 && !fa.retransmission() && !fa.has(FrameAnalysis.KEEP_ALIVE)) {
            if (exchanges == null) {
                exchanges = new ExchangeTracker(id, sink);
            }
            Summary.Acc origRtt = origIsA ? dataRttA : dataRttB;
            exchanges.data(sideOf(fromA), s, legServer >= 0 ? legServer : origRtt == null ? -1 : origRtt.minOr(-1));
        }
        closeState(s, fwd, rev);
        sink.onFrame(s, fa);
    }

    /** Port of Wireshark's tcp_analyze_sequence_number (4.0, default preferences). */
    private void analyzeSequence(Segment s, Flow fwd, Flow rev) {
        final long seq = s.seq;
        final long ack = s.ack;
        final int seglen = s.payloadLength;
        final int flags = s.flags;
        final long window = s.window;
        final long now = s.timestampNanos;
        final long frame = s.frameNumber;
        final boolean sfr = (flags & (SYN | FIN | RST)) != 0;

        if (!fwd.baseSeqSet) {
            fwd.baseSeq = (flags & SYN) != 0 ? seq : Seq.add(seq, -1);
            fwd.baseSeqSet = true;
        }
        if (!rev.baseSeqSet && (flags & ACK) != 0) {
            rev.baseSeq = Seq.add(ack, -1);
            rev.baseSeqSet = true;
        }
        if ((flags & ACK) != 0) {
            rev.validBif = true;
        }

        finishedFwd:
        {
            // ZERO WINDOW PROBE: next expected byte, 1 byte, peer's window is zero
            if (seglen == 1 && seq == fwd.nextSeq && rev.window == 0) {
                flag(FrameAnalysis.ZERO_WINDOW_PROBE);
                break finishedFwd;
            }
            // ZERO WINDOW
            if (window == 0 && !sfr) {
                flag(FrameAnalysis.ZERO_WINDOW);
            }
            // LOST PACKET: beyond the highest nextseq seen
            if (fwd.nextSeq != 0 && Seq.gt(seq, fwd.nextSeq) && (flags & RST) == 0) {
                flag(FrameAnalysis.LOST_SEGMENT);
                fwd.validBif = false;
            }
            // KEEP ALIVE: 0 or 1 byte starting one before the next expected byte
            if ((seglen == 0 || seglen == 1) && seq == Seq.add(fwd.nextSeq, -1) && !sfr) {
                flag(FrameAnalysis.KEEP_ALIVE);
            }
            // WINDOW UPDATE
            if (seglen == 0 && window != 0 && window != fwd.window && seq == fwd.nextSeq && ack == fwd.lastAck
                    && !sfr) {
                flag(FrameAnalysis.WINDOW_UPDATE);
            }
            // WINDOW FULL
            if (seglen > 0 && rev.winScale != -1 && !sfr) {
                int shift = rev.isFirstAck ? 0 : (rev.winScale == -2 ? 0 : rev.winScale);
                long revWindow = (rev.window & Seq.MASK) << shift;
                if (Seq.add(seq, seglen) == Seq.add(rev.lastAck, revWindow)) {
                    flag(FrameAnalysis.WINDOW_FULL);
                }
            }
            boolean repeatsAck = seglen == 0 && window == fwd.window && seq == fwd.nextSeq && ack == fwd.lastAck
                    && !sfr;
            // KEEP ALIVE ACK
            if (repeatsAck && window != 0 && (rev.lastSegmentFlags & FrameAnalysis.KEEP_ALIVE) != 0) {
                flag(FrameAnalysis.KEEP_ALIVE_ACK);
                break finishedFwd;
            }
            // ZERO WINDOW PROBE ACK
            if (repeatsAck && window == 0 && (rev.lastSegmentFlags & FrameAnalysis.ZERO_WINDOW_PROBE) != 0) {
                flag(FrameAnalysis.ZERO_WINDOW_PROBE_ACK);
                break finishedFwd;
            }
            // DUPLICATE ACK
            if (repeatsAck && window != 0) {
                fwd.dupAckNum = fwd.dupAckNum == -1 ? 1 : fwd.dupAckNum + 1;
                flag(FrameAnalysis.DUPLICATE_ACK);
                fa.dupAckNum = fwd.dupAckNum;
            }
        }
        // finished_fwd:
        if (ack != fwd.lastAck) {
            fwd.dupAckNum = 0;
        }

        // ACKED LOST PACKET (note Wireshark's plain unsigned comparison of maxseqtobeacked and nextseq)
        if (rev.maxSeqToBeAcked != 0 && Seq.gt(ack, rev.maxSeqToBeAcked) && (flags & ACK) != 0) {
            fa.hasAnalysis = true;
            if (rev.maxSeqToBeAcked > rev.nextSeq) {
                rev.maxSeqToBeAcked = rev.nextSeq;
                flag(FrameAnalysis.ACKED_UNSEEN_SEGMENT);
            } else {
                if (rev.dupAckNum == 0) {
                    flag(FrameAnalysis.ACKED_UNSEEN_SEGMENT);
                }
                rev.dupAckNum = -1;
            }
        }

        // RETRANSMISSION / FAST RETRANSMISSION / OUT-OF-ORDER / SPURIOUS
        boolean isRetransmission = false;
        if (seglen > 0 || (flags & (SYN | FIN)) != 0) {
            boolean seqNotAdvanced = fwd.nextSeq != 0 && Seq.lt(seq, fwd.nextSeq);
            finishedChecking:
            {
                if (fa.has(FrameAnalysis.KEEP_ALIVE)) {
                    break finishedChecking;
                }
                if (seglen > 1 && Seq.add(fwd.nextSeq, -1) == seq) {
                    seqNotAdvanced = false;
                }
                if (seglen > 0 && rev.lastAck != 0 && Seq.le(Seq.add(seq, seglen), rev.lastAck)) {
                    flag(FrameAnalysis.SPURIOUS_RETRANSMISSION);
                    isRetransmission = true;
                    break finishedChecking;
                }
                // fast retransmission takes precedence over out-of-order (tcp.fastrt_precedence)
                long sinceLastAck = now - rev.lastAckTime;
                if (seqNotAdvanced && rev.dupAckNum >= 2 && rev.lastAck == seq
                        && Long.compareUnsigned(sinceLastAck, FAST_RETRANSMISSION_WINDOW_NANOS) < 0) {
                    flag(FrameAnalysis.FAST_RETRANSMISSION);
                    isRetransmission = true;
                    break finishedChecking;
                }
                long sinceNextSeq = now - fwd.nextSeqTime;
                long oooThreshold = tsFirstRtt == 0 ? DEFAULT_OOO_THRESHOLD_NANOS : tsFirstRtt;
                long end = Seq.add(seq, seglen + ((flags & (SYN | FIN)) != 0 ? 1 : 0));
                if (seqNotAdvanced && Long.compareUnsigned(sinceNextSeq, oooThreshold) < 0 && fwd.nextSeq != end) {
                    flag(FrameAnalysis.OUT_OF_ORDER);
                    break finishedChecking;
                }
                if (seqNotAdvanced) {
                    flag(FrameAnalysis.RETRANSMISSION);
                    isRetransmission = true;
                    UnackedList u = fwd.unacked;
                    if (u.size > 0) {
                        fa.rtoNanos = now - u.ts[0];
                        rtoStartFrame = u.frame[0];
                    } else {
                        fa.rtoNanos = now - fwd.nextSeqTime;
                        rtoStartFrame = fwd.nextSeqFrame;
                    }
                }
            }
        }

        // finished_checking_retransmission_type:
        long nextseq = Seq.add(seq, seglen);
        if (seglen > 0 || (flags & (SYN | FIN)) != 0) {
            if (!fwd.unacked.isFull()) {
                if ((flags & (SYN | FIN)) != 0) {
                    nextseq = Seq.add(nextseq, 1);
                }
                if (isRetransmission) {
                    fwd.unacked.markRetransmitted(seq, nextseq);
                }
                fwd.unacked.add(seq, nextseq, frame, now, seglen, isRetransmission);
            } else {
                fwd.unacked.countDrop();
            }
        }
        boolean zwp = fa.has(FrameAnalysis.ZERO_WINDOW_PROBE);
        if ((Seq.gt(nextseq, fwd.nextSeq) || fwd.nextSeq == 0) && !zwp) {
            fwd.nextSeq = nextseq;
            fwd.nextSeqFrame = frame;
            fwd.nextSeqTime = now;
        }
        if ((seq == fwd.maxSeqToBeAcked || fwd.maxSeqToBeAcked == 0) && !zwp) {
            fwd.maxSeqToBeAcked = fwd.nextSeq;
        }
        fwd.window = window;
        fwd.lastAck = ack;
        fwd.lastAckTime = now;
        fwd.lastSegmentFlags = fa.hasAnalysis ? fa.flags : 0;

        // remove all segments this ACKs, newest first as Wireshark walks its list
        ackedSegments = 0;
        ackedBytes = 0;
        ackedOldestTs = Long.MAX_VALUE;
        ackedNewestTs = Long.MIN_VALUE;
        ackedNewestFrame = -1;
        ackedAmbiguous = false;
        rttAmbiguous = false;
        ackedMatchHasData = false;
        UnackedList u = rev.unacked;
        boolean removed = false;
        for (int i = u.size - 1; i >= 0; i--) {
            long next = u.nextSeq[i];
            if (ack == next) {
                fa.hasAnalysis = true;
                fa.ackedFrame = u.frame[i];
                fa.ackRttNanos = now - u.ts[i];
                rttAmbiguous = u.retransmitted[i];
                ackedMatchHasData = u.payload[i] > 0;
            } else if (Seq.gt(ack, u.seq[i]) && Seq.le(ack, next)) {
                u.seq[i] = ack;      // partial ACK: keep the rest
                continue;
            } else if (Seq.gt(next, ack)) {
                continue;
            }
            if (u.payload[i] > 0) {
                ackedSegments++;
                ackedBytes += u.payload[i];
                ackedOldestTs = Math.min(ackedOldestTs, u.ts[i]);
                if (u.ts[i] > ackedNewestTs) {
                    ackedNewestTs = u.ts[i];
                    ackedNewestFrame = u.frame[i];
                }
                ackedAmbiguous |= u.retransmitted[i];
            }
            u.markRemoved(i);
            removed = true;
        }
        if (removed) {
            u.compact();
        }

        // bytes in flight (payload-based): Wireshark creates its analysis record for every such data segment
        if (seglen != 0 && fwd.unacked.size > 0 && fwd.validBif) {
            fa.hasAnalysis = true;
        }
    }

    private long rtoStartFrame = -1;

    private void flag(int f) {
        fa.flags |= f;
        fa.hasAnalysis = true;
    }

    /** The parts of Wireshark's dissect_tcp after the sequence analysis: SYN times, initial RTT, window scale. */
    private void afterSequenceAnalysis(Segment s, Flow fwd, Flow rev) {
        int f = s.flags;
        if ((f & SYN) != 0) {
            if ((f & ACK) == 0) {
                tsMruSyn = s.timestampNanos;
            }
            fwd.isFirstAck = true;
        }
        if ((f & (SYN | ACK)) == ACK && tsMruSyn != 0 && tsFirstRtt == 0) {
            tsFirstRtt = s.timestampNanos - tsMruSyn;
        }
        if ((f & (SYN | ACK)) == ACK) {
            fwd.isFirstAck = false;
        }
        if (s.windowScale >= 0) {
            fwd.winScale = Math.min(14, s.windowScale);
        }
        if ((f & SYN) != 0) {
            // verify_tcp_window_scaling
            if (fwd.winScale == -1) {
                fwd.winScale = -2;
                rev.winScale = -2;
            } else if ((f & ACK) != 0 && rev.winScale == -2) {
                fwd.winScale = -2;
            }
        }
    }

    // =================================================================================================================
    // ackscope's own analysis
    // =================================================================================================================

    private void countFlags(Segment s, Flow fwd, int fi) {
        int fl = fa.flags;
        if ((fl & FrameAnalysis.RETRANSMISSION) != 0) {
            fwd.count(Flow.RETRANSMISSIONS);
        }
        if ((fl & FrameAnalysis.FAST_RETRANSMISSION) != 0) {
            fwd.count(Flow.FAST_RETRANSMISSIONS);
        }
        if ((fl & FrameAnalysis.SPURIOUS_RETRANSMISSION) != 0) {
            fwd.count(Flow.SPURIOUS_RETRANSMISSIONS);
        }
        if ((fl & FrameAnalysis.DUPLICATE_ACK) != 0) {
            fwd.count(Flow.DUPLICATE_ACKS);
        }
        if ((fl & FrameAnalysis.OUT_OF_ORDER) != 0) {
            fwd.count(Flow.OUT_OF_ORDER);
        }
        if ((fl & FrameAnalysis.ZERO_WINDOW) != 0) {
            fwd.count(Flow.ZERO_WINDOWS);
        }
        if ((fl & FrameAnalysis.ZERO_WINDOW_PROBE) != 0) {
            fwd.count(Flow.ZERO_WINDOW_PROBES);
        }
        if ((fl & FrameAnalysis.WINDOW_FULL) != 0) {
            fwd.count(Flow.WINDOW_FULL);
        }
        if ((fl & FrameAnalysis.KEEP_ALIVE) != 0) {
            fwd.count(Flow.KEEP_ALIVES);
        }
        if ((fl & FrameAnalysis.LOST_SEGMENT) != 0) {
            fwd.count(Flow.LOST_SEGMENTS);
        }
        int f = s.flags;
        if ((f & RST) != 0) {
            fwd.rsts++;
        }
        if ((f & FIN) != 0) {
            fwd.fins++;
        }
        // history letters
        boolean fromA = fi == 0;
        if ((f & SYN) != 0 && (f & (FIN | RST)) != 0) {
            history.once('Q', fromA);
        }
        if ((f & (SYN | RST)) == (SYN | RST)) {
            history.once('I', fromA);
        }
        if ((f & (SYN | ACK)) == SYN) {
            history.once('S', fromA);
        } else if ((f & (SYN | ACK)) == (SYN | ACK)) {
            history.once('H', fromA);
        }
        if (s.payloadLength > 0) {
            history.once('D', fromA);
        } else if ((f & (SYN | FIN | RST | ACK)) == ACK) {
            history.once('A', fromA);
        }
        if ((f & FIN) != 0) {
            history.once('F', fromA);
        }
        if ((f & RST) != 0) {
            history.once('R', fromA);
        }
        if (fa.retransmission()) {
            history.retransmission(fromA);
        }
        if ((fl & FrameAnalysis.ZERO_WINDOW) != 0) {
            history.zeroWindow(fromA);
        }
    }

    private void handshake(Segment s, boolean fromA) {
        int f = s.flags & (SYN | ACK);
        long now = s.timestampNanos;
        boolean fromOrig = fromA == origIsA;
        if (f == SYN && fromOrig) {
            if (synTs < 0) {
                synTs = now;
            } else {
                synRetransmitted = true;
            }
            lastSynTs = now;
        } else if (f == (SYN | ACK) && !fromOrig) {
            if (synAckTs < 0) {
                synAckTs = now;
                if (lastSynTs >= 0) {
                    legServer = now - lastSynTs;
                    sink.onRttSample(new RttSample(id, now, s.frameNumber, RttSample.Kind.HANDSHAKE_SYN_SYNACK,
                            Side.ORIGINATOR, legServer, synRetransmitted));
                }
            } else {
                synAckRetransmitted = true;
            }
            lastSynAckTs = now;
        } else if (f == ACK && fromOrig && hsAckTs < 0 && lastSynAckTs >= 0) {
            hsAckTs = now;
            legClient = now - lastSynAckTs;
            sink.onRttSample(new RttSample(id, now, s.frameNumber, RttSample.Kind.HANDSHAKE_SYNACK_ACK,
                    Side.RESPONDER, legClient, synAckRetransmitted));
        }
    }

    private Vantage vantage() {
        return Vantage.infer(legServer, legClient, sameHost);
    }

    /** Path RTT from the capture point to {@code host} and back, from its handshake leg; -1 if unknown. */
    private long pathRttTo(Side host) {
        return host == Side.RESPONDER ? legServer : legClient;
    }

    private void rttSamples(Segment s, boolean fromA, Flow fwd, Flow rev) {
        long now = s.timestampNanos;
        // data -> ACK (tshark's ack_rtt), for segments carrying data
        if (fa.ackedFrame >= 0 && fa.ackRttNanos > 0 && ackedMatchHasData) {
            Side dataSide = sideOf(!fromA);
            if (fromA) {
                dataRttB = Summary.Acc.add(dataRttB, fa.ackRttNanos);
            } else {
                dataRttA = Summary.Acc.add(dataRttA, fa.ackRttNanos);
            }
            sink.onRttSample(new RttSample(id, now, s.frameNumber, RttSample.Kind.DATA_ACK, dataSide,
                    fa.ackRttNanos, rttAmbiguous));
        }
        // TCP timestamps (pping): the peer echoes a TSval this side... i.e. this packet echoes one the peer sent
        if (s.hasTimestamps) {
            if ((s.flags & ACK) != 0 && s.tsEcr != 0) {
                long sent = rev.takeEchoed(s.tsEcr);
                if (sent >= 0 && now > sent) {
                    tsRtt = Summary.Acc.add(tsRtt, now - sent);
                    sink.onRttSample(new RttSample(id, now, s.frameNumber, RttSample.Kind.TIMESTAMP_ECHO,
                            sideOf(!fromA), now - sent, false));
                }
            }
            fwd.rememberTsval(s.tsVal, now);
        }
    }

    private void ackDelayAndStall(Segment s, boolean fromA, Flow fwd, Flow rev) {
        long now = s.timestampNanos;
        int fi = fromA ? 0 : 1;
        int ri = 1 - fi;
        Side acker = sideOf(fromA);

        // this side sends data: a pending stall of the *peer* is off (its next data may answer ours)
        if (s.payloadLength > 0 && !fa.retransmission() && pend != null) {
            pend.heldFrame[ri] = -1;
        }

        if (ackedSegments > 0 && !ackedAmbiguous && (s.flags & ACK) != 0) {
            long raw = now - ackedOldestTs;
            long rawNewest = now - ackedNewestTs;
            AckDelay.Method method;
            long value;
            long newest;
            Vantage v = vantage();
            long path = pathRttTo(acker);
            if (v.sees(acker)) {
                method = AckDelay.Method.DIRECT;
                value = raw;
                newest = rawNewest;
            } else if (v == Vantage.UNKNOWN || path < 0) {
                method = AckDelay.Method.UNCORRECTED;
                value = raw;
                newest = rawNewest;
            } else {
                method = AckDelay.Method.ESTIMATED;
                value = Math.max(0, raw - path);
                newest = Math.max(0, rawNewest - path);
            }
            AckClass cls = s.payloadLength > 0 ? AckClass.PIGGYBACKED
                    : AckClass.classify(value, ackedSegments, newest);
            if (fromA) {
                ackDelaysA = Summary.Acc.add(ackDelaysA, value);
            } else {
                ackDelaysB = Summary.Acc.add(ackDelaysB, value);
            }
            if (ackClassCounts == null) {
                ackClassCounts = new long[2 * ACK_CLASSES.length];
            }
            ackClassCounts[fi * ACK_CLASSES.length + cls.ordinal()]++;
            sink.onAckDelay(new AckDelay(id, now, s.frameNumber, acker, value, newest, ackedSegments, ackedBytes,
                    method, cls));

            // Nagle x delayed ACK, step 1: a pure, delayed ACK covering everything the peer had in flight
            if (cls.delayed() && s.ack == rev.nextSeq && s.payloadLength == 0) {
                if (pend == null) {
                    pend = new StallCandidates();
                }
                pend.heldFrame[ri] = ackedNewestFrame;
                pend.heldTs[ri] = ackedOldestTs;
                pend.heldLen[ri] = (int) Math.min(Integer.MAX_VALUE, ackedBytes);
                pend.ackFrame[ri] = s.frameNumber;
                pend.ackTs[ri] = now;
                pend.ackDelay[ri] = value;
            }
        }

        // step 2: the holder's next new data leaves right after the ACK
        if (s.payloadLength > 0 && !fa.retransmission() && pend != null && pend.heldFrame[fi] >= 0) {
            long[] pendHeldFrame = pend.heldFrame, pendHeldTs = pend.heldTs, pendAckFrame = pend.ackFrame;
            long[] pendAckTs = pend.ackTs, pendAckDelay = pend.ackDelay;
            int[] pendHeldLen = pend.heldLen;
            Side holder = sideOf(fromA);
            long gap = now - pendAckTs[fi];
            long path = pathRttTo(holder);
            long corrected = vantage().sees(holder) || path < 0 ? gap : gap - path;
            if (gap >= 0 && corrected <= RESUME_WINDOW_NANOS) {
                long duration = now - pendHeldTs[fi];
                String ev = holder.role() + " frame " + pendHeldFrame[fi] + " (" + pendHeldLen[fi]
                        + " B) waited unacknowledged; " + holder.other().role() + " ACK frame " + pendAckFrame[fi]
                        + " came " + micros(pendAckDelay[fi]) + " later ("
                        + AckClass.delayedBand(pendAckDelay[fi]) + ") with no data; " + holder.role()
                        + " sent frame " + s.frameNumber + " (" + s.payloadLength + " B) " + micros(gap)
                        + " after that ACK";
                Stall st = new Stall(id, pendHeldTs[fi], duration, pendAckDelay[fi], gap, holder, holder.other(),
                        pendHeldFrame[fi], pendAckFrame[fi], s.frameNumber, ev);
                stallCount++;
                stallNanos += duration;
                if (exchanges != null) {
                    exchanges.stall(st);
                }
                sink.onStall(st);
            }
            pendHeldFrame[fi] = -1;
        }

        if (fa.has(FrameAnalysis.RETRANSMISSION) && fa.rtoNanos > 0) {
            rtoEvents++;
            Side sender = sideOf(fromA);
            sink.onLatencyEvent(new LatencyEvent(id, LatencyEvent.Kind.RETRANSMISSION_TIMEOUT, now - fa.rtoNanos,
                    fa.rtoNanos, sender, rtoStartFrame, s.frameNumber,
                    sender.role() + " retransmitted in frame " + s.frameNumber + " " + micros(fa.rtoNanos)
                            + " after frame " + rtoStartFrame + " without a fast-retransmit trigger"));
        }
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
            }
        } else if (fwd.zeroWindowSince >= 0) {
            zeroWindowWaits++;
            Side advertiser = sideOf(fromA);
            long d = now - fwd.zeroWindowSince;
            sink.onLatencyEvent(new LatencyEvent(id, LatencyEvent.Kind.ZERO_WINDOW_WAIT, fwd.zeroWindowSince, d,
                    advertiser.other(), fwd.zeroWindowFrame, s.frameNumber,
                    advertiser.role() + " advertised a zero window in frame " + fwd.zeroWindowFrame
                            + " and reopened it in frame " + s.frameNumber + " " + micros(d) + " later"));
            fwd.zeroWindowSince = -1;
        }
    }

    private void closeState(Segment s, Flow fwd, Flow rev) {
        if ((s.flags & FIN) != 0 && fwd.finAckSeq < 0) {
            fwd.finAckSeq = Seq.add(Seq.add(s.seq, s.payloadLength), 1);
        }
        if ((s.flags & ACK) != 0 && rev.finAckSeq >= 0 && Seq.ge(s.ack, rev.finAckSeq)) {
            rev.finAcked = true;
        }
        if (!closed && ((s.flags & RST) != 0 || (a.finAcked && b.finAcked))) {
            closed = true;
            closedAt = s.timestampNanos;
        }
    }

    /** When the connection closed (epoch ns), -1 if still open. */
    long closedAt() {
        return closedAt;
    }

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
        }
        Flow o = origIsA ? a : b;
        Flow r = origIsA ? b : a;
        int oi = origIsA ? 0 : 1;
        int ri = 1 - oi;
        boolean origSyn = synTs >= 0;
        boolean respSynAck = synAckTs >= 0;
        String state = connState(origSyn, respSynAck, o.rsts > 0, r.rsts > 0, o.fins > 0, r.fins > 0);
        ConnectionRecord.EndReason why = reason == ConnectionRecord.EndReason.IDLE_TIMEOUT && closed
                ? ConnectionRecord.EndReason.CLOSED : reason;
        ConnectionRecord rec = new ConnectionRecord(id, origIsA, originatorRule, side(o, oi), side(r, ri), firstTs, lastTs,
                lastTs - firstTs, synTs, synAckTs, hsAckTs, legServer, legClient, tsFirstRtt == 0 ? -1 : tsFirstRtt,
                vantage(), state, history.render(origIsA), why, Summary.Acc.build(origIsA ? dataRttA : dataRttB),
                Summary.Acc.build(origIsA ? dataRttB : dataRttA), Summary.Acc.build(tsRtt), stallCount, stallNanos,
                exchanges == null ? 0 : exchanges.count(), exchanges == null ? Summary.EMPTY : exchanges.ttfb(),
                rtoEvents, zeroWindowWaits);
        sink.onConnection(rec);
    }

    private SideStats side(Flow f, int i) {
        long[] c = new long[ACK_CLASSES.length];
        if (ackClassCounts != null) {
            System.arraycopy(ackClassCounts, i * c.length, c, 0, c.length);
        }
        return new SideStats(Addresses.format(f.addrHi, f.addrLo), f.port, f.packets, f.frameBytes, f.payloadBytes,
                f.counted(Flow.RETRANSMISSIONS), f.counted(Flow.FAST_RETRANSMISSIONS),
                f.counted(Flow.SPURIOUS_RETRANSMISSIONS), f.counted(Flow.DUPLICATE_ACKS), f.counted(Flow.OUT_OF_ORDER),
                f.counted(Flow.ZERO_WINDOWS), f.counted(Flow.ZERO_WINDOW_PROBES), f.counted(Flow.WINDOW_FULL),
                f.counted(Flow.KEEP_ALIVES), f.counted(Flow.LOST_SEGMENTS), f.rsts, f.fins, f.mss,
                f.wscaleOption, f.sackPermitted, f.timestamps, f.unacked.dropped(), Summary.Acc.build(i == 0 ? ackDelaysA : ackDelaysB),
                c[AckClass.IMMEDIATE.ordinal()], c[AckClass.EVERY_SECOND_SEGMENT.ordinal()],
                c[AckClass.PIGGYBACKED.ordinal()], c[AckClass.DELAYED_40MS.ordinal()],
                c[AckClass.DELAYED_200MS.ordinal()], c[AckClass.DELAYED_OTHER.ordinal()]);
    }

    private static final AckClass[] ACK_CLASSES = AckClass.values();

    /** Nagle &times; delayed-ACK stall candidates, index = holding side (0 = a, 1 = b). */
    private static final class StallCandidates {
        final long[] heldFrame = {-1, -1};
        final long[] heldTs = new long[2];
        final int[] heldLen = new int[2];
        final long[] ackFrame = new long[2];
        final long[] ackTs = new long[2];
        final long[] ackDelay = new long[2];
    }

    /** Zeek's conn_state as a pure function of what each endpoint did. */
    static String connState(boolean origSyn, boolean respSynAck, boolean origRst, boolean respRst, boolean origFin,
                            boolean respFin) {
        if (origSyn && !respSynAck) {
            if (origRst) {
                return "RSTOS0";
            }
            if (respRst) {
                return "REJ";
            }
            if (origFin) {
                return "SH";
            }
            return "S0";
        }
        if (!origSyn && respSynAck) {
            if (respRst) {
                return "RSTRH";
            }
            if (respFin) {
                return "SHR";
            }
            return "OTH";
        }
        if (!origSyn) {
            return "OTH";
        }
        if (origRst) {
            return "RSTO";
        }
        if (respRst) {
            return "RSTR";
        }
        if (origFin && respFin) {
            return "SF";
        }
        if (origFin) {
            return "S2";
        }
        if (respFin) {
            return "S3";
        }
        return "S1";
    }

    /** Records the SYN / SYN-ACK options of the sender (called by the tuple tracker before {@link #accept}). */
    void options(Segment s) {
        if ((s.flags & SYN) == 0) {
            return;
        }
        Flow f = fwd(s);
        if (s.mss >= 0) {
            f.mss = s.mss;
        }
        if (s.windowScale >= 0) {
            f.wscaleOption = s.windowScale;
        }
        f.sackPermitted |= s.sackPermitted;
        f.timestamps |= s.hasTimestamps;
    }
}
