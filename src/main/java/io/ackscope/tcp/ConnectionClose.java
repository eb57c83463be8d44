package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.FIN;
import static io.ackscope.decode.PacketDecoder.RST;

/**
 * How one connection ends, as its {@link ConnectionAnalyzer} sees it frame by frame: who sent the first FIN or RST
 * and in which frame, each direction's FIN and whether the peer acknowledged it, and when the connection closed
 * (both FINs acknowledged, or a RST). Closed is final: once set, later frames change neither it nor its time.
 *
 * <p>Owned by exactly one analyzer and fed every frame of that connection in capture order through
 * {@link #frame}; it allocates nothing per frame. The per-direction FIN state lives in the {@link Flow}s it is given.
 */
final class ConnectionClose implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Who sent the connection's first FIN or RST (null before). */
    Side closer;
    /** The frame of that first FIN or RST (-1 before). */
    long closeFrame = -1;
    private boolean closed;
    private long closedAt = -1;

    /**
     * Takes one frame: {@code fwd} is its sender's flow, {@code rev} the peer's, {@code sender} who sent it.
     */
    void frame(Segment s, Flow fwd, Flow rev, Side sender) {
        if (closer == null && (s.flags & (FIN | RST)) != 0) {
            closer = sender;
            closeFrame = s.frameNumber;
        }
        if ((s.flags & FIN) != 0 && fwd.finAckSeq < 0) {
            fwd.finAckSeq = Seq.add(Seq.add(s.seq, s.payloadLength), 1);
        }
        if ((s.flags & ACK) != 0 && rev.finAckSeq >= 0 && Seq.ge(s.ack, rev.finAckSeq)) {
            rev.finAcked = true;
        }
        if (!closed && ((s.flags & RST) != 0 || (fwd.finAcked && rev.finAcked))) {
            closed = true;
            closedAt = s.timestampNanos;
        }
    }

    /** Both FINs acknowledged, or a RST seen. */
    boolean isClosed() {
        return closed;
    }

    /** When the connection closed (epoch ns), -1 if still open. */
    long closedAt() {
        return closedAt;
    }
}
