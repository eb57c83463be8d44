package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;

/**
 * How long each side of one connection holds its ACKs, and the Nagle &times; delayed-ACK stalls those holds cause.
 * Per acking side it owns the count of ACKs by {@link AckClass}, and the connection's {@link StallDetector} (null
 * until the first pure delayed ACK of everything the peer had in flight); each ACK's delay goes to the sink as an
 * {@link AckDelay} and into the acker's {@link Flow#ackDelays}.
 *
 * <p>Owned by exactly one {@link ConnectionAnalyzer}, which creates it at the first frame that {@link #measures}
 * (a connection that never acknowledges data holds none) and then feeds it every frame in capture order through
 * {@link #frame}. Sides are indexed 0 = a, 1 = b, as in the analyzer; a stall is indexed by its holder, the side
 * that did not send the delayed ACK.
 */
final class AckDelayTracker implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private static final AckClass[] ACK_CLASSES = AckClass.values();

    private final ConnectionId id;
    /** ACK classes counted per acking side: index side * classes + class ordinal. */
    private final long[] classCounts = new long[2 * ACK_CLASSES.length];
    /** Null until the first delayed ACK that can start a stall. */
    StallDetector stalls;

    AckDelayTracker(ConnectionId id) {
        this.id = id;
    }

    /** Whether {@code s} has an ACK delay: it acknowledges new data, and which segments it acknowledges is certain. */
    static boolean measures(Segment s, FrameAnalysis fa) {
        return fa.ackedSegments > 0 && !fa.ackedAmbiguous && (s.flags & ACK) != 0;
    }

    /**
     * Takes one frame after its sequence analysis ({@code fa}): {@code fi} is its sender's index, {@code sender}
     * that side, {@code fwd} its flow and {@code rev} the peer's; {@code hs} gives the path RTTs and capture point.
     * Returns the stall this frame ended, or null.
     */
    Stall frame(Segment s, FrameAnalysis fa, int fi, Side sender, Flow fwd, Flow rev, Handshake hs,
                AnalysisSink sink) {
        int ri = 1 - fi;
        boolean newData = s.payloadLength > 0 && !fa.retransmission();

        // this side sends data: a pending stall of the *peer* is off (its next data may answer ours)
        if (newData && stalls != null) {
            stalls.cancel(ri);
        }
        if (measures(s, fa)) {
            ackDelay(s, fa, fi, sender, fwd, rev, hs, sink);
        }
        if (newData && stalls != null && fullSized(s, fwd, rev)) {
            // Nagle holds only a partial segment: a full one waited for the congestion window instead
            stalls.cancel(fi);
        }
        if (newData && stalls != null) {
            return stalls.resume(id, s, fi, sender, hs.pathRttTo(sender), hs.capturePoint().sees(sender));
        }
        return null;
    }

    /** Whether data segment {@code s} is a full one ({@link ConnectionAnalyzer#fullSize}; false when unknown). */
    private static boolean fullSized(Segment s, Flow fwd, Flow rev) {
        int full = ConnectionAnalyzer.fullSize(fwd, rev);
        return full > 0 && s.payloadLength >= full;
    }

    /**
     * The ACK delay of ACK {@code s}, from the oldest data segment it acknowledged (corrected by the path RTT to the
     * acker when the capture point does not see it), and its class; a pure delayed ACK of all the peer had in flight
     * is step 1 of a stall.
     */
    private void ackDelay(Segment s, FrameAnalysis fa, int fi, Side acker, Flow fwd, Flow rev, Handshake hs,
                          AnalysisSink sink) {
        long now = s.timestampNanos;
        long path = hs.pathRttTo(acker);
        AckDelay.Method method = AckDelay.method(hs.capturePoint(), acker, path);
        long value = AckDelay.corrected(method, now - fa.ackedOldestTs, path);
        long newest = AckDelay.corrected(method, now - fa.ackedNewestTs, path);
        AckClass cls = s.payloadLength > 0 ? AckClass.PIGGYBACKED
                : AckClass.classify(value, fa.ackedSegments, newest);
        fwd.ackDelays = Summary.Acc.add(fwd.ackDelays, value);
        classCounts[fi * ACK_CLASSES.length + cls.ordinal()]++;
        sink.onAckDelay(new AckDelay(id, now, s.frameNumber, acker, value, newest, fa.ackedSegments, fa.ackedBytes,
                method, cls));

        // Nagle x delayed ACK, step 1: a pure, delayed ACK covering everything the peer had in flight, unless that
        // filled the window this side advertised: then the peer waited for the window, not for Nagle
        if (cls.delayed() && s.ack == rev.nextSeq && s.payloadLength == 0 && !rev.windowFull) {
            if (stalls == null) {
                stalls = new StallDetector();
            }
            stalls.delayedAck(1 - fi, fa.ackedNewestFrame, fa.ackedOldestTs, fa.ackedBytes, s.frameNumber, now, value);
        }
    }

    /** Held state read back ({@link TcpEngine#resume}) must index its array as this class does. */
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (classCounts == null || classCounts.length != 2 * ACK_CLASSES.length) {
            throw new java.io.InvalidObjectException("malformed ACK delay tracker");
        }
    }

    /** The ACK counts of side {@code i} by {@link AckClass} ordinal; all zero when {@code t} is null. */
    static long[] classCounts(AckDelayTracker t, int i) {
        long[] c = new long[ACK_CLASSES.length];
        if (t != null) {
            System.arraycopy(t.classCounts, i * c.length, c, 0, c.length);
        }
        return c;
    }
}
