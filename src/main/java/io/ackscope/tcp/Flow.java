package io.ackscope.tcp;

/**
 * One direction of a connection, Zeek-endpoint style: Wireshark's per-flow sequence analysis state plus the
 * counters ackscope reports. All sequence values are unsigned 32-bit in longs; times are epoch nanoseconds.
 */
final class Flow implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    // ---- Wireshark tcp_flow_t / tcp_analyze_seq_info, with the same meaning and the same "0 = unset" quirks ----
    boolean baseSeqSet;
    long baseSeq;
    /** Last raw window field seen (Wireshark starts at G_MAXUINT32: never equal to a real window). */
    long window = -1;
    /** -1 unknown, -2 no scaling, else the shift count. */
    int winScale = -1;
    boolean isFirstAck;
    int lastSegmentFlags;
    boolean validBif = true;     // Wireshark initialises valid_bif to 1; a lost segment clears it
    long nextSeq;
    long nextSeqFrame;
    long nextSeqTime;
    long maxSeqToBeAcked;
    long lastAck;
    long lastAckTime;
    int dupAckNum;
    final UnackedList unacked = new UnackedList();
    /**
     * The SACK blocks of this side's latest segment (Wireshark's num_sack_ranges and sack edges): at most the first
     * three, and the bytes they cover; the peer's bytes in flight subtract them.
     */
    int sackRanges;
    long sackDelivered;

    // ---- ackscope: what this side said and did ----
    /** Address and port of this side (the sender of this direction's segments). */
    long addrHi, addrLo;
    int port;

    long packets;
    long frameBytes;
    long payloadBytes;
    /** Sum of the IP lengths of this side's packets (Zeek's {@code orig_ip_bytes}/{@code resp_ip_bytes}). */
    long ipBytes;
    /** The sequence space this side used and the parts of it the capture missed, as Zeek counts them. */
    final SeqSpan span = new SeqSpan();
    long rsts;
    long fins;
    /**
     * This side's latest new data filled the peer's advertised window (tshark's window_full): what it sends next
     * waits for the window, not for Nagle (a stall is not called Nagle's then).
     */
    boolean windowFull;

    // sequence-analysis events this side caused, counted in an array allocated at the first one (a connection that
    // only handshakes, or a scan's half-open connection, has none)
    static final int RETRANSMISSIONS = 0, FAST_RETRANSMISSIONS = 1, SPURIOUS_RETRANSMISSIONS = 2, DUPLICATE_ACKS = 3,
            OUT_OF_ORDER = 4, ZERO_WINDOWS = 5, ZERO_WINDOW_PROBES = 6, WINDOW_FULL = 7, KEEP_ALIVES = 8,
            LOST_SEGMENTS = 9;
    private long[] events;
    /** The {@link FrameAnalysis} flag each counter above counts, by index. */
    private static final int[] EVENT_FLAGS = {FrameAnalysis.RETRANSMISSION, FrameAnalysis.FAST_RETRANSMISSION,
            FrameAnalysis.SPURIOUS_RETRANSMISSION, FrameAnalysis.DUPLICATE_ACK, FrameAnalysis.OUT_OF_ORDER,
            FrameAnalysis.ZERO_WINDOW, FrameAnalysis.ZERO_WINDOW_PROBE, FrameAnalysis.WINDOW_FULL,
            FrameAnalysis.KEEP_ALIVE, FrameAnalysis.LOST_SEGMENT};
    private static final int COUNTED_FLAGS = FrameAnalysis.ANY_RETRANSMISSION | FrameAnalysis.DUPLICATE_ACK
            | FrameAnalysis.OUT_OF_ORDER | FrameAnalysis.ZERO_WINDOW | FrameAnalysis.ZERO_WINDOW_PROBE
            | FrameAnalysis.WINDOW_FULL | FrameAnalysis.KEEP_ALIVE | FrameAnalysis.LOST_SEGMENT;

    /** Counts one of this side's segments' RST, FIN and sequence-analysis events ({@link FrameAnalysis} flags). */
    void countEvents(int tcpFlags, int analysisFlags) {
        if ((tcpFlags & io.ackscope.decode.PacketDecoder.RST) != 0) {
            rsts++;
        }
        if ((tcpFlags & io.ackscope.decode.PacketDecoder.FIN) != 0) {
            fins++;
        }
        if ((analysisFlags & COUNTED_FLAGS) == 0) {
            return;   // most segments
        }
        for (int e = 0; e < EVENT_FLAGS.length; e++) {
            if ((analysisFlags & EVENT_FLAGS[e]) != 0) {
                count(e);
            }
        }
    }

    private void count(int event) {
        if (events == null) {
            events = new long[LOST_SEGMENTS + 1];
        }
        events[event]++;
    }

    long counted(int event) {
        return events == null ? 0 : events[event];
    }

    long firstTs = -1;
    long lastTs = -1;
    /** RTT of this side's data (to the peer's ACK) and delays of the ACKs this side sent; null until the first. */
    Summary.Acc dataRtt, ackDelays;
    /** Sequence number that acknowledges this side's FIN (FIN seq + 1), -1 until a FIN is seen. */
    long finAckSeq = -1;
    boolean finAcked;

    // options from this side's SYN or SYN/ACK (-1 / false when not seen)
    int mss = -1;
    int wscaleOption = -1;
    boolean sackPermitted;
    boolean timestamps;
    /**
     * A hole in this side's data as the capture saw it (a segment past the next expected byte arrived): when and in
     * which frame that segment came, and where it started (the hole's end); -1 / none while there is no hole. The
     * peer's ACK of the hole's end closes it.
     */
    long holeTs = -1, holeFrame = -1, holeEnd;
    /** Duplicate ACKs the peer sent while the current hole was open. */
    int holeDupAcks;
    /** {@link UnseenLoss}: this side's last IP ID (-1 none), how many steps of one led to it, its last packet. */
    int lastIpId = -1, ipIdRun;
    long lastFrame = -1, lastPacketTs = -1;
    /** This side's last captured packet carried a full segment; when it last sent new data (-1 never). */
    boolean lastWasFull;
    long newDataTs = -1;
    /**
     * The latest round trip from the capture point to this side and back measured by a TCP timestamp this side
     * echoed (-1 none): the path as it is now, queues included, where the handshake's leg is the path when idle.
     */
    long echoRtt = -1;
    /** {@link #echoRtt} when the current hole opened: the path the hole's wait is held against (-1 none). */
    long holeRtt = -1;
    /** This side's SYN or SYN/ACK was seen. */
    boolean synSeen;
    /**
     * The largest payload this side sent that was followed by more of its data before the peer acknowledged it (a
     * segment the MSS cut, not the end of a write): its full segment when no SYN told the MSS; 0 none yet.
     */
    int largestPayload;

    // TCP timestamp option RTT (pping): TSvals this side sent, waiting for the peer to echo them.
    static final int TSVAL_RING = 64;
    /** The ring starts this small and doubles up to {@link #TSVAL_RING}: most connections never need more. */
    static final int TSVAL_RING_START = 4;
    private long[] tsvals;        // allocated when the side first sends a TSval
    private long[] tsvalTimes;
    int tsvalHead;   // index of the oldest entry
    int tsvalCount;
    long lastTsval = -1;

    /** Zero-window episode this side advertised: start time and frame, -1 when its window is open. */
    long zeroWindowSince = -1;
    /** When the peer last acknowledged new data of this flow (restarts the sender's RTO timer), or Long.MIN_VALUE. */
    long ackedAt = Long.MIN_VALUE;
    /** Zero-window advertisements of this flow's sender in its current zero-window episode. */
    int zeroWindowAdverts;
    long zeroWindowFrame = -1;

    /** Held state read back ({@link TcpEngine#resume}) must index its arrays as this class does. */
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        int cap = tsvals == null ? 0 : tsvals.length;
        if ((tsvals == null) != (tsvalTimes == null) || cap > TSVAL_RING || (cap > 0 && tsvalTimes.length != cap)
                || tsvalCount < 0 || tsvalCount > cap || tsvalHead < 0 || (cap > 0 && tsvalHead >= cap)
                || (events != null && events.length != LOST_SEGMENTS + 1) || span == null) {
            throw new java.io.InvalidObjectException("malformed flow");
        }
    }

    /** Records a TSval the first time this side sends it. */
    void rememberTsval(long tsval, long ts) {
        if (tsval == lastTsval) {
            return;
        }
        lastTsval = tsval;
        if (tsvals == null) {
            tsvals = new long[TSVAL_RING_START];
            tsvalTimes = new long[TSVAL_RING_START];
        }
        int cap = tsvals.length;
        if (tsvalCount == cap && cap < TSVAL_RING) {
            // grow, oldest first, so the ring behaves exactly as one of TSVAL_RING entries would
            long[] v = new long[cap * 2];
            long[] t = new long[cap * 2];
            for (int k = 0; k < tsvalCount; k++) {
                v[k] = tsvals[(tsvalHead + k) % cap];
                t[k] = tsvalTimes[(tsvalHead + k) % cap];
            }
            tsvals = v;
            tsvalTimes = t;
            tsvalHead = 0;
            cap *= 2;
        }
        if (tsvalCount == cap) {
            tsvalHead = (tsvalHead + 1) % cap;
            tsvalCount--;
        }
        int i = (tsvalHead + tsvalCount) % cap;
        tsvals[i] = tsval;
        tsvalTimes[i] = ts;
        tsvalCount++;
    }

    /**
     * Finds the time this side first sent {@code tsecr} as its TSval and forgets it and everything older, so each
     * TSval yields at most one sample (as pping does). Returns -1 when not found.
     */
    long takeEchoed(long tsecr) {
        for (int k = 0; k < tsvalCount; k++) {
            int i = (tsvalHead + k) % tsvals.length;
            if (tsvals[i] == tsecr) {
                long t = tsvalTimes[i];
                tsvalHead = (i + 1) % tsvals.length;
                tsvalCount -= k + 1;
                return t;
            }
        }
        return -1;
    }

    /** Counts a segment this side sent: packets, bytes, sequence space, first and last time. */
    void sent(Segment s) {
        packets++;
        frameBytes += s.frameLength;
        payloadBytes += s.payloadLength;
        ipBytes += s.ipLength;
        span.segment(s.seq, s.payloadLength, (s.flags & io.ackscope.decode.PacketDecoder.SYN) != 0,
                (s.flags & io.ackscope.decode.PacketDecoder.FIN) != 0);
        if (s.payloadLength > 0 && unacked.size > 0) {
            int last = unacked.size - 1;
            largestPayload = Math.max(largestPayload,
                    Math.min(0xffff, Seq.diff(unacked.nextSeq[last], unacked.seq[last])));
        }
        if (firstTs < 0) {
            firstTs = s.timestampNanos;
        }
        lastTs = s.timestampNanos;
    }

    /** Records the options of this side's SYN or SYN/ACK. */
    void synOptions(Segment s) {
        synSeen = true;
        if (s.mss >= 0) {
            mss = s.mss;
        }
        if (s.windowScale >= 0) {
            wscaleOption = s.windowScale;
        }
        sackPermitted |= s.sackPermitted;
        timestamps |= s.hasTimestamps;
    }

    /** This side's figures for its connection record; {@code c}: its ACKs per {@link AckClass}, by ordinal. */
    SideStats stats(long[] c) {
        return new SideStats(Addresses.format(addrHi, addrLo), port, packets, frameBytes, payloadBytes,
                counted(RETRANSMISSIONS), counted(FAST_RETRANSMISSIONS), counted(SPURIOUS_RETRANSMISSIONS),
                counted(DUPLICATE_ACKS), counted(OUT_OF_ORDER), counted(ZERO_WINDOWS), counted(ZERO_WINDOW_PROBES),
                counted(WINDOW_FULL), counted(KEEP_ALIVES), counted(LOST_SEGMENTS), rsts, fins, mss, wscaleOption,
                sackPermitted, timestamps, unacked.dropped(), Summary.Acc.build(ackDelays),
                c[AckClass.IMMEDIATE.ordinal()], c[AckClass.EVERY_SECOND_SEGMENT.ordinal()],
                c[AckClass.PIGGYBACKED.ordinal()], c[AckClass.DELAYED_40MS.ordinal()],
                c[AckClass.DELAYED_200MS.ordinal()], c[AckClass.DELAYED_OTHER.ordinal()], ipBytes, span.bytes(),
                span.missedBytes());
    }
}
