package io.ackscope.tcp;

/**
 * Losses a capture past the loss cannot see as a hole: the last segments of a response lost (and their tail-loss
 * probe with them), so the retransmission that finally arrives is the next expected byte, in order, only late.
 * The sender's IPv4 identification shows them: Linux numbers a connected socket's packets one by one, so a jump in
 * one direction's IP IDs counts the packets the sender sent that the capture never saw.
 *
 * <p>A data segment counts when it is in order (not flagged a retransmission, nor past a hole: those are
 * {@link CauseDetector}'s), the sender's IP IDs rose by exactly one over its last {@link #SEQUENTIAL} captured
 * packets (a sender that randomises or zeroes them never counts), its ID now skips 1 to {@link #MAX_UNSEEN}
 * packets, the sender's previous captured packet carried a full segment ({@link ConnectionAnalyzer#fullSize}: the
 * response was cut by the MSS and had more to come, not ended by a write) and the peer sent no new data since (the
 * response was under way, not idle waiting for a request). The full-segment condition also keeps out the hosts
 * whose IP IDs are one counter for all their traffic, seen here as sequential until an application pause lets
 * other packets take IDs (seen in the corpus: hadooppcap__reversedtest.pcap, a UDP stream from the same host). The wait since that previous packet is the time lost; it is an
 * RTO when it is at least the minimum RTO and the path RTT to the sender plus half of it (as for holes), a
 * tail-loss probe's recovery when it is at least twice that RTT and {@link #MIN_PROBE_NANOS}; a shorter one is
 * taken for packets the capture dropped and reported as nothing.
 */
final class UnseenLoss {
    /** Sequential IP IDs needed before a jump is believed. */
    static final int SEQUENTIAL = 4;
    /** The largest jump believed: more is another sender's numbering or a wrap, not lost packets. */
    static final int MAX_UNSEEN = 16;
    /** Linux's smallest probe timeout (TCP_TIMEOUT_MIN, 2 jiffies, floored at 10 ms in tcp_schedule_loss_probe). */
    static final long MIN_PROBE_NANOS = 10_000_000L;

    private UnseenLoss() {
    }

    /**
     * Segment {@code s} from side {@code sender} (flow {@code fwd}; the peer's {@code rev}), after the sequence
     * analysis; {@code pathRtt} is the round trip from the capture point to the sender, -1 unknown.
     */
    static void frame(ConnectionId id, Segment s, FrameAnalysis fa, Side sender, Flow fwd, Flow rev, long pathRtt,
                      AnalysisSink sink) {
        long now = s.timestampNanos;
        boolean newData = s.payloadLength > 0 && !fa.retransmission()
                && !fa.has(FrameAnalysis.LOST_SEGMENT) && !fa.has(FrameAnalysis.OUT_OF_ORDER);
        if (s.ipId < 0) {
            fwd.ipIdRun = 0;
        } else if (fwd.lastIpId >= 0) {
            int step = (s.ipId - fwd.lastIpId) & 0xffff;
            if (step == 1) {
                fwd.ipIdRun = Math.min(fwd.ipIdRun + 1, SEQUENTIAL);
            } else {
                if (step >= 2 && step <= MAX_UNSEEN + 1 && fwd.ipIdRun >= SEQUENTIAL && newData && fwd.lastWasFull
                        && rev.newDataTs < fwd.lastPacketTs) {
                    lateSegment(id, s, sender, fwd, step - 1, now - fwd.lastPacketTs, pathRtt, sink);
                }
                fwd.ipIdRun = 0;
            }
        }
        fwd.lastIpId = s.ipId;
        int full = ConnectionAnalyzer.fullSize(fwd, rev);
        fwd.lastWasFull = s.payloadLength > 0 && full > 0 && s.payloadLength >= full;
        if (newData) {
            fwd.newDataTs = now;
        }
        fwd.lastFrame = s.frameNumber;
        fwd.lastPacketTs = now;
    }

    private static void lateSegment(ConnectionId id, Segment s, Side sender, Flow fwd, int unseen, long wait,
                                    long pathRtt, AnalysisSink sink) {
        Cause cause;
        if (wait >= CauseDetector.MIN_RTO_NANOS && (pathRtt < 0 || wait >= pathRtt + CauseDetector.MIN_RTO_NANOS / 2)) {
            cause = Cause.RTO;
        } else if (pathRtt > 0 && wait >= 2 * pathRtt && wait >= MIN_PROBE_NANOS) {
            cause = Cause.TAIL_LOSS_PROBE;
        } else {
            return;
        }
        sink.onCause(new CauseEvent(id, cause, sender, fwd.lastPacketTs, s.timestampNanos, wait, unseen,
                new long[] {fwd.lastFrame, s.frameNumber}));
    }
}
