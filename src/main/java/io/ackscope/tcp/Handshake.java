package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.SYN;

/**
 * A connection's handshake: SYN, SYN/ACK and ACK times, the two legs (capture point to each host and back), tshark's
 * initial RTT and the capture point they imply. {@link ConnectionAnalyzer} extends it rather than holding one, so a
 * connection stays one object (the per-connection bytes in package-info).
 */
abstract class Handshake implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    // tshark tcp_analysis fields (0 = unset, as nstime_is_zero)
    /** ts_mru_syn: time of the most recent SYN without ACK. */
    long tsMruSyn;
    /** ts_first_rtt: from that SYN to the first ACK without SYN (tcp.analysis.initial_rtt). */
    long tsFirstRtt;

    long synTs = -1, lastSynTs = -1, synAckTs = -1, lastSynAckTs = -1, hsAckTs = -1;
    /** Capture point to responder and back (SYN to SYN/ACK), and to originator and back (SYN/ACK to ACK); -1. */
    long legServer = -1, legClient = -1;
    boolean synRetransmitted, synAckRetransmitted;
    /**
     * SYNs counted as sent (a repeat sooner than {@link CauseDetector#MIN_RTO_NANOS} after the last counted one is a
     * duplicate of it, in the capture or on the path, not a retransmission), and the SYN/ACK retransmissions the
     * responder sent on its own timer (no SYN since the last SYN/ACK, and at least that long after it).
     */
    int syns, ownSynAckRetransmissions;
    private long countedSynTs = -1, ownSynAckTs = -1;
    long synFrame = -1, lastSynFrame = -1, synAckFrame = -1, lastSynAckFrame = -1, hsAckFrame = -1;
    private boolean synSinceSynAck;
    /** Both ends on one host (same address, or both loopback). */
    final boolean sameHost;

    Handshake(Segment first) {
        sameHost = (first.srcHi == first.dstHi && first.srcLo == first.dstLo)
                || (Addresses.isLoopback(first.srcHi, first.srcLo) && Addresses.isLoopback(first.dstHi, first.dstLo));
    }

    /** Wireshark's dissect_tcp after the sequence analysis: ts_mru_syn and ts_first_rtt (tcp.analysis.initial_rtt). */
    void initialRtt(Segment s) {
        int f = s.flags & (SYN | ACK);
        if (f == SYN) {
            tsMruSyn = s.timestampNanos;
        }
        if (f == ACK && tsMruSyn != 0 && tsFirstRtt == 0) {
            tsFirstRtt = s.timestampNanos - tsMruSyn;
        }
    }

    /**
     * Records the handshake segment {@code s}; returns the RTT sample of the leg it completes (SYN to SYN/ACK, or
     * SYN/ACK to ACK), or null.
     */
    RttSample handshake(ConnectionId id, Segment s, boolean fromOrig) {
        int f = s.flags & (SYN | ACK);
        long now = s.timestampNanos;
        RttSample leg = null;
        if (f == SYN && fromOrig) {
            if (synTs < 0) {
                synTs = now;
                synFrame = s.frameNumber;
            } else {
                synRetransmitted = true;
            }
            if (countedSynTs < 0 || now - countedSynTs >= CauseDetector.MIN_RTO_NANOS) {
                syns++;
                countedSynTs = now;
                lastSynFrame = s.frameNumber;
                synSinceSynAck = true;
            }
            lastSynTs = now;
        } else if (f == (SYN | ACK) && !fromOrig) {
            if (synAckTs < 0) {
                synAckTs = now;
                synAckFrame = s.frameNumber;
                if (lastSynTs >= 0) {
                    legServer = now - lastSynTs;
                    leg = new RttSample(id, now, s.frameNumber, RttSample.Kind.HANDSHAKE_SYN_SYNACK, Side.ORIGINATOR,
                            legServer, synRetransmitted);
                }
            } else {
                synAckRetransmitted = true;
                if (!synSinceSynAck && now - lastSynAckTs >= CauseDetector.MIN_RTO_NANOS) {
                    ownSynAckRetransmissions++;
                    lastSynAckFrame = s.frameNumber;
                    ownSynAckTs = now;
                }
            }
            if (synAckFrame == s.frameNumber) {
                lastSynAckFrame = s.frameNumber;
            }
            synSinceSynAck = false;
            lastSynAckTs = now;
        } else if (f == ACK && fromOrig && hsAckTs < 0 && lastSynAckTs >= 0) {
            hsAckTs = now;
            hsAckFrame = s.frameNumber;
            legClient = now - lastSynAckTs;
            leg = new RttSample(id, now, s.frameNumber, RttSample.Kind.HANDSHAKE_SYNACK_ACK, Side.RESPONDER, legClient,
                    synAckRetransmitted);
        }
        return leg;
    }

    /**
     * The handshake's retransmission causes, once: SYNs the originator retransmitted, SYN/ACKs the responder
     * retransmitted on its own timer. Called when the handshake completes or the connection ends.
     */
    void handshakeCauses(ConnectionId id, AnalysisSink sink) {
        if (handshakeReported) {
            return;
        }
        handshakeReported = true;
        if (syns > 1) {
            sink.onCause(CauseDetector.handshake(id, Cause.SYN_RETRANSMISSION, synFrame, synTs, lastSynFrame,
                    countedSynTs, syns - 1));
        }
        if (ownSynAckRetransmissions > 0) {
            sink.onCause(CauseDetector.handshake(id, Cause.SYNACK_RETRANSMISSION, synAckFrame, synAckTs,
                    lastSynAckFrame, ownSynAckTs, ownSynAckRetransmissions));
        }
    }

    private boolean handshakeReported;

    /** Below this a handshake before a request is not a cost worth a finding (loopback and one host: ~0.1 ms). */
    static final long MIN_CHURN_NANOS = 1_000_000L;
    /** A request this long after the handshake (or longer than the handshake took) did not wait for it. */
    static final long MIN_FOLLOW_NANOS = 100_000_000L;

    /**
     * Linux's TIME_WAIT ({@code TCP_TIMEWAIT_LEN}, 60 s): a SYN on a 4-tuple whose previous connection ended less
     * than this before meets that connection's TIME_WAIT state at the side that closed first.
     */
    static final long TIME_WAIT_NANOS = 60_000_000_000L;

    /**
     * A connection that carried one request (first byte at {@code reqStart}, frame {@code reqFrame}): its handshake,
     * from the last SYN to the ACK that completed it, is what the request paid for a new connection, when the request
     * followed at once (docs/causes.md, churn). {@code closer} sent the first FIN or RST, in {@code closeFrame} (-1:
     * the capture saw none); {@code previousEndedAt}: when the earlier connection whose ports this one reused ended
     * (-1 unknown, {@link Long#MIN_VALUE} no reuse): count 1 when that was less than {@link #TIME_WAIT_NANOS} before
     * the SYN (or unknown), a TIME_WAIT collision.
     */
    void churnCause(ConnectionId id, long reqStart, long reqFrame, Side closer, long closeFrame,
                    long previousEndedAt, AnalysisSink sink) {
        long handshake = hsAckTs - lastSynTs;
        if (lastSynTs < 0 || hsAckTs < 0 || handshake < MIN_CHURN_NANOS || reqStart < hsAckTs
                || reqStart - hsAckTs > Math.max(handshake, MIN_FOLLOW_NANOS)) {
            // no handshake seen, a negligible one, or a connection opened ahead of its request (a browser's
            // pre-connect): the request did not wait for it
            return;
        }
        long[] frames = closeFrame >= 0 ? new long[] {lastSynFrame, hsAckFrame, reqFrame, closeFrame}
                : new long[] {lastSynFrame, hsAckFrame, reqFrame};
        sink.onCause(new CauseEvent(id, Cause.CONNECTION_CHURN, closer == null ? Side.ORIGINATOR : closer,
                lastSynTs, hsAckTs, handshake, timeWaitCollision(previousEndedAt) ? 1 : 0, frames));
    }

    /** Whether a reuse of ports whose previous connection ended at {@code previousEndedAt} met its TIME_WAIT. */
    private boolean timeWaitCollision(long previousEndedAt) {
        return previousEndedAt != Long.MIN_VALUE
                && (previousEndedAt < 0 || firstSynTs() - previousEndedAt < TIME_WAIT_NANOS);
    }

    private long firstSynTs() {
        return synTs >= 0 ? synTs : lastSynTs;
    }

    CapturePoint capturePoint() {
        return CapturePoint.infer(pathRttTo(Side.RESPONDER), pathRttTo(Side.ORIGINATOR), sameHost);
    }

    /**
     * Path RTT from the capture point to {@code host} and back: its handshake leg; for a connection whose handshake
     * was not captured (open when the capture started), the smallest round trip so far from data to {@code host}'s
     * ACK of it ({@link #dataLeg}); -1 if unknown.
     */
    long pathRttTo(Side host) {
        long leg = host == Side.RESPONDER ? legServer : legClient;
        return leg >= 0 || synTs >= 0 || synAckTs >= 0 ? leg : dataLeg(host);
    }

    /**
     * The smallest round trip so far from a data segment to {@code acker}'s ACK of it, -1 none: the path to
     * {@code acker} and back plus its ACK delay, which the smallest of several samples (an ACK of two full
     * segments goes at once) leaves out.
     */
    abstract long dataLeg(Side acker);
}
