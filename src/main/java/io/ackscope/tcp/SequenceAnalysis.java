package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.FIN;
import static io.ackscope.decode.PacketDecoder.RST;
import static io.ackscope.decode.PacketDecoder.SYN;

/**
 * Port of Wireshark 4.0's {@code tcp_analyze_sequence_number} (epan/dissectors/packet-tcp.c, one pass, default
 * preferences), including its quirks, so {@code tcp.analysis.*} values agree with tshark. Written to be read side by
 * side with packet-tcp.c: the checks come in Wireshark's order, each block names the C label or flag it ports, and
 * the state is Wireshark's {@code tcp_flow_t}, one {@link Flow} per direction ({@code fwd} = the sender's,
 * {@code rev} = the peer's). Results go to the frame's {@link FrameAnalysis}, including what the frame acknowledged
 * (its package-private ACK-walk fields) for ackscope's own analysis after this one.
 *
 * <p>No state of its own: a connection is the {@link ConnectionAnalyzer} and its two flows, nothing more.
 */
final class SequenceAnalysis {
    /** tshark's out-of-order threshold when no initial RTT is known (3 ms). */
    static final long DEFAULT_OOO_THRESHOLD_NANOS = 3_000_000L;
    /** tshark's fast-retransmission window after the last duplicate ACK (20 ms). */
    static final long FAST_RETRANSMISSION_WINDOW_NANOS = 20_000_000L;

    private SequenceAnalysis() {
    }

    /**
     * tcp_analyze_sequence_number for segment {@code s}.
     *
     * @param firstRtt the connection's {@code ts_first_rtt} (0 = unset), which sets the out-of-order threshold
     */
    static void analyze(Segment s, Flow fwd, Flow rev, long firstRtt, FrameAnalysis fa) {
        final long seq = s.seq;
        final long ack = s.ack;
        final int flags = s.flags;

        // base_seq of the sender's flow, at its first segment
        if (!fwd.baseSeqSet) {
            fwd.baseSeq = (flags & SYN) != 0 ? seq : Seq.add(seq, -1);
            fwd.baseSeqSet = true;
        }
        // base_seq of the peer's flow, from the first ACK that shows it
        if (!rev.baseSeqSet && (flags & ACK) != 0) {
            rev.baseSeq = Seq.add(ack, -1);
            rev.baseSeqSet = true;
        }
        if ((flags & ACK) != 0) {
            rev.validBif = true;
        }
        fa.relativeSeq = Seq.add(seq, -fwd.baseSeq);
        fa.relativeNextSeq = Seq.add(fa.relativeSeq, s.payloadLength + ((flags & (SYN | FIN)) != 0 ? 1 : 0));
        fa.relativeAck = (flags & ACK) != 0 ? Seq.add(ack, -rev.baseSeq) : ack; // tshark: raw without ACK

        forwardChecks(s, fwd, rev, fa);
        // finished_fwd:
        if (ack != fwd.lastAck) {
            fwd.dupAckNum = 0;
        }
        ackedLostPacket(s, rev, fa);
        // RETRANSMISSION / FAST RETRANSMISSION / OUT-OF-ORDER / SPURIOUS, checked for data, SYN or FIN
        boolean isRetransmission = (s.payloadLength > 0 || (flags & (SYN | FIN)) != 0)
                && retransmissionType(s, fwd, rev, firstRtt, fa);
        // finished_checking_retransmission_type:
        advance(s, fwd, isRetransmission, fa);
        fa.clearAcked();
        if (rev.unacked.size > 0) {
            removeAcked(s, rev, fa);
        }

        // bytes in flight (payload-based): Wireshark creates its analysis record for every such data segment
        if (s.payloadLength != 0 && fwd.unacked.size > 0 && fwd.validBif) {
            fa.hasAnalysis = true;
            bytesInFlight(fwd, rev, flags, fa);
        }
    }

    /**
     * tcp.analysis.bytes_in_flight, payload-based as tshark's default: the span from the lowest unacknowledged
     * sequence number to the highest end, both relative to the base in unsigned 32-bit arithmetic; shown when
     * between 0 and 2e9, exclusive, less the bytes the peer's latest SACK blocks say were delivered.
     */
    private static void bytesInFlight(Flow fwd, Flow rev, int flags, FrameAnalysis fa) {
        UnackedList u = fwd.unacked;
        int newest = u.size - 1;
        long first = Seq.add(u.seq[newest], -fwd.baseSeq);
        long last = Seq.add(u.nextSeq[newest], -fwd.baseSeq);
        for (int i = newest - 1; i >= 0; i--) {
            first = Math.min(first, Seq.add(u.seq[i], -fwd.baseSeq));
            last = Math.max(last, Seq.add(u.nextSeq[i], -fwd.baseSeq));
        }
        long inFlight = Seq.add(last, -first);
        if (rev.sackRanges > 0) {
            inFlight = Seq.add(inFlight, -rev.sackDelivered);
        }
        if (inFlight > 0 && inFlight < 2_000_000_000L) {
            fa.bytesInFlight = (flags & (SYN | FIN)) != 0 ? inFlight - 1 : inFlight; // SYN and FIN are virtual
        }
    }

    /** The checks of the sender's own flow, up to the {@code finished_fwd} label. */
    private static void forwardChecks(Segment s, Flow fwd, Flow rev, FrameAnalysis fa) {
        final long seq = s.seq;
        final long ack = s.ack;
        final int seglen = s.payloadLength;
        final long window = s.window;
        final boolean sfr = (s.flags & (SYN | FIN | RST)) != 0;

        // ZERO WINDOW PROBE (TCP_A_ZERO_WINDOW_PROBE): next expected byte, 1 byte, peer's window is zero
        if (seglen == 1 && seq == fwd.nextSeq && rev.window == 0) {
            flag(fa, FrameAnalysis.ZERO_WINDOW_PROBE);
            return;   // goto finished_fwd
        }
        // ZERO WINDOW (TCP_A_ZERO_WINDOW)
        if (window == 0 && !sfr) {
            flag(fa, FrameAnalysis.ZERO_WINDOW);
        }
        // LOST PACKET (TCP_A_LOST_PACKET): beyond the highest nextseq seen
        if (fwd.nextSeq != 0 && Seq.gt(seq, fwd.nextSeq) && (s.flags & RST) == 0) {
            flag(fa, FrameAnalysis.LOST_SEGMENT);
            fwd.validBif = false;
        }
        // KEEP ALIVE (TCP_A_KEEP_ALIVE): 0 or 1 byte starting one before the next expected byte
        if ((seglen == 0 || seglen == 1) && seq == Seq.add(fwd.nextSeq, -1) && !sfr) {
            flag(fa, FrameAnalysis.KEEP_ALIVE);
        }
        // WINDOW UPDATE (TCP_A_WINDOW_UPDATE)
        if (seglen == 0 && window != 0 && window != fwd.window && seq == fwd.nextSeq && ack == fwd.lastAck
                && !sfr) {
            flag(fa, FrameAnalysis.WINDOW_UPDATE);
        }
        // WINDOW FULL (TCP_A_WINDOW_FULL)
        if (seglen > 0 && rev.winScale != -1 && !sfr) {
            int shift = rev.isFirstAck ? 0 : (rev.winScale == -2 ? 0 : rev.winScale);
            long revWindow = (rev.window & Seq.MASK) << shift;
            if (Seq.add(seq, seglen) == Seq.add(rev.lastAck, revWindow)) {
                flag(fa, FrameAnalysis.WINDOW_FULL);
            }
        }
        boolean repeatsAck = seglen == 0 && window == fwd.window && seq == fwd.nextSeq
                && ack == fwd.lastAck && !sfr;
        // KEEP ALIVE ACK (TCP_A_KEEP_ALIVE_ACK)
        if (repeatsAck && window != 0 && (rev.lastSegmentFlags & FrameAnalysis.KEEP_ALIVE) != 0) {
            flag(fa, FrameAnalysis.KEEP_ALIVE_ACK);
            return;   // goto finished_fwd
        }
        // ZERO WINDOW PROBE ACK (TCP_A_ZERO_WINDOW_PROBE_ACK)
        if (repeatsAck && window == 0 && (rev.lastSegmentFlags & FrameAnalysis.ZERO_WINDOW_PROBE) != 0) {
            flag(fa, FrameAnalysis.ZERO_WINDOW_PROBE_ACK);
            return;   // goto finished_fwd
        }
        // DUPLICATE ACK (TCP_A_DUPLICATE_ACK)
        if (repeatsAck && window != 0) {
            fwd.dupAckNum = fwd.dupAckNum == -1 ? 1 : fwd.dupAckNum + 1;
            flag(fa, FrameAnalysis.DUPLICATE_ACK);
            fa.dupAckNum = fwd.dupAckNum;
        }
    }

    /** ACKED LOST PACKET (TCP_A_ACK_LOST_PACKET), with Wireshark's plain unsigned maxseqtobeacked / nextseq test. */
    private static void ackedLostPacket(Segment s, Flow rev, FrameAnalysis fa) {
        if (rev.maxSeqToBeAcked != 0 && Seq.gt(s.ack, rev.maxSeqToBeAcked) && (s.flags & ACK) != 0) {
            fa.hasAnalysis = true;
            if (rev.maxSeqToBeAcked > rev.nextSeq) {
                rev.maxSeqToBeAcked = rev.nextSeq;
                flag(fa, FrameAnalysis.ACKED_UNSEEN_SEGMENT);
            } else {
                if (rev.dupAckNum == 0) {
                    flag(fa, FrameAnalysis.ACKED_UNSEEN_SEGMENT);
                }
                rev.dupAckNum = -1;
            }
        }
    }

    /**
     * RETRANSMISSION / FAST RETRANSMISSION / OUT-OF-ORDER / SPURIOUS RETRANSMISSION of a segment with data, SYN or
     * FIN, up to the {@code finished_checking_retransmission_type} label. Returns whether it is a retransmission.
     */
    private static boolean retransmissionType(Segment s, Flow fwd, Flow rev, long firstRtt, FrameAnalysis fa) {
        final long seq = s.seq;
        final int seglen = s.payloadLength;
        final int flags = s.flags;
        final long now = s.timestampNanos;
        boolean seqNotAdvanced = fwd.nextSeq != 0 && Seq.lt(seq, fwd.nextSeq);
        if (fa.has(FrameAnalysis.KEEP_ALIVE)) {
            return false;
        }
        // a segment of more than one byte starting one byte before nextseq is not a retransmission
        if (seglen > 1 && Seq.add(fwd.nextSeq, -1) == seq) {
            seqNotAdvanced = false;
        }
        // SPURIOUS RETRANSMISSION (TCP_A_SPURIOUS_RETRANSMISSION): everything it carries was already ACKed
        if (seglen > 0 && rev.lastAck != 0 && Seq.le(Seq.add(seq, seglen), rev.lastAck)) {
            flag(fa, FrameAnalysis.SPURIOUS_RETRANSMISSION);
            return true;
        }
        // FAST RETRANSMISSION (TCP_A_FAST_RETRANSMISSION): takes precedence over out-of-order (tcp.fastrt_precedence)
        long sinceLastAck = now - rev.lastAckTime;
        if (seqNotAdvanced && rev.dupAckNum >= 2 && rev.lastAck == seq
                && Long.compareUnsigned(sinceLastAck, FAST_RETRANSMISSION_WINDOW_NANOS) < 0) {
            flag(fa, FrameAnalysis.FAST_RETRANSMISSION);
            return true;
        }
        // OUT-OF-ORDER (TCP_A_OUT_OF_ORDER): within ts_first_rtt (or 3 ms) of the highest segment
        long sinceNextSeq = now - fwd.nextSeqTime;
        long oooThreshold = firstRtt == 0 ? DEFAULT_OOO_THRESHOLD_NANOS : firstRtt;
        long end = Seq.add(seq, seglen + ((flags & (SYN | FIN)) != 0 ? 1 : 0));
        if (seqNotAdvanced && Long.compareUnsigned(sinceNextSeq, oooThreshold) < 0 && fwd.nextSeq != end) {
            flag(fa, FrameAnalysis.OUT_OF_ORDER);
            return false;
        }
        // RETRANSMISSION (TCP_A_RETRANSMISSION), and tcp.analysis.rto from the oldest unacknowledged segment
        if (seqNotAdvanced) {
            flag(fa, FrameAnalysis.RETRANSMISSION);
            UnackedList u = fwd.unacked;
            if (u.size > 0) {
                fa.rtoNanos = now - u.ts[0];
                fa.rtoStartFrame = u.frame[0];
            } else {
                fa.rtoNanos = now - fwd.nextSeqTime;
                fa.rtoStartFrame = fwd.nextSeqFrame;
            }
            return true;
        }
        return false;
    }

    /** Adds the segment to the unacknowledged list and advances nextseq, maxseqtobeacked, window and lastack. */
    private static void advance(Segment s, Flow fwd, boolean isRetransmission, FrameAnalysis fa) {
        final long seq = s.seq;
        final int seglen = s.payloadLength;
        final int flags = s.flags;
        final long now = s.timestampNanos;
        final long frame = s.frameNumber;
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
        fwd.window = s.window;
        fwd.lastAck = s.ack;
        fwd.lastAckTime = now;
        fwd.lastSegmentFlags = fa.hasAnalysis ? fa.flags : 0;
    }

    /**
     * Removes all segments this ACKs, newest first as Wireshark walks its list: the exact match gives tcp.analysis.acks_frame and ack_rtt; what was acknowledged in full goes to the
     * frame's ACK-walk fields.
     */
    private static void removeAcked(Segment s, Flow rev, FrameAnalysis fa) {
        final long ack = s.ack;
        final long now = s.timestampNanos;
        UnackedList u = rev.unacked;
        boolean removed = false;
        for (int i = u.size - 1; i >= 0; i--) {
            long next = u.nextSeq[i];
            if (ack == next) {
                fa.hasAnalysis = true;
                fa.ackedFrame = u.frame[i];
                fa.ackRttNanos = now - u.ts[i];
                fa.ackRttAmbiguous = u.retransmitted[i];
                fa.ackedMatchHasData = u.payload[i] > 0;
            } else if (Seq.gt(ack, u.seq[i]) && Seq.le(ack, next)) {
                u.seq[i] = ack;      // partial ACK: keep the rest
                continue;
            } else if (Seq.gt(next, ack)) {
                continue;
            }
            if (u.payload[i] > 0) {
                fa.ackedSegments++;
                fa.ackedBytes += u.payload[i];
                fa.ackedOldestTs = Math.min(fa.ackedOldestTs, u.ts[i]);
                if (u.ts[i] > fa.ackedNewestTs) {
                    fa.ackedNewestTs = u.ts[i];
                    fa.ackedNewestFrame = u.frame[i];
                }
                fa.ackedAmbiguous |= u.retransmitted[i];
            }
            u.markRemoved(i);
            removed = true;
        }
        if (removed) {
            u.compact();
        }
    }

    /**
     * The parts of Wireshark's dissect_tcp after tcp_analyze_sequence_number that feed the next frames' analysis:
     * the first-ACK flag (is_first_ack) and window scaling (verify_tcp_window_scaling). The initial RTT is
     * {@link Handshake#initialRtt}.
     */
    static void afterSequenceAnalysis(Segment s, Flow fwd, Flow rev) {
        int f = s.flags;
        if ((f & SYN) != 0) {
            fwd.isFirstAck = true;
        }
        if ((f & (SYN | ACK)) == ACK) {
            fwd.isFirstAck = false;
        }
        if (s.windowScale >= 0) {
            fwd.winScale = Math.min(14, s.windowScale);
        }
        // the SACK blocks of this segment, for the peer's bytes in flight: dissect_tcpopt_sack keeps blocks 1..3 only
        // (its array is indexed from 1 and sized 4)
        fwd.sackRanges = Math.min(3, s.sackBlockCount);
        long delivered = 0;
        for (int i = 0; i < fwd.sackRanges; i++) {
            delivered += Seq.add(s.sackRight[i], -s.sackLeft[i]);
        }
        fwd.sackDelivered = delivered;
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

    private static void flag(FrameAnalysis fa, int f) {
        fa.flags |= f;
        fa.hasAnalysis = true;
    }
}
