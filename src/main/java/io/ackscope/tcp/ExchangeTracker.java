package io.ackscope.tcp;

/**
 * Splits one connection into request/response exchanges: a burst of originator data (the request), then the
 * responder's data (the response) until the originator sends again. See {@link Exchange} for the TTFB split; the
 * HTTP exchanges' server, network and queueing parts go to {@link ResponseTimeCauses}.
 */
final class ExchangeTracker implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final ConnectionId id;
    private final AnalysisSink sink;
    private final ConnectionAnalyzer connection;
    private final ResponseTimeCauses causes;
    /** The request's last frame and the sequence number after it; the server's pure ACK of it; the response's first. */
    private long reqEndFrame = -1, reqEndSeq, ackTs = -1, ackFrame = -1, respFirstFrame = -1;
    /** The first request's first byte and frame (-1 before it). */
    long firstRequestStart = -1, firstRequestFrame = -1;
    /** Request data was retransmitted before the response: its wait is a recovery's, not the server's or a queue's. */
    private boolean requestRetransmitted;

    private int index;
    private boolean open;              // a request has started
    private long reqStart, reqEnd, respFirst = -1, respLast = -1, reqBytes, respBytes;
    private long stallBeforeFirst, stallAfterFirst;
    private long networkRtt = -1;
    private String method, target, host;
    private int status = -1;

    private long count;
    private final Summary.Acc ttfb = new Summary.Acc();

    ExchangeTracker(ConnectionId id, AnalysisSink sink, ConnectionAnalyzer connection) {
        this.id = id;
        this.sink = sink;
        this.connection = connection;
        this.causes = new ResponseTimeCauses(id);
    }

    /** The originator retransmitted data. */
    void originatorRetransmission() {
        if (open && respFirst < 0) {
            requestRetransmitted = true;
        }
    }

    /**
     * A retransmission of the responder that fills a hole the capture saw (its original never came past the capture
     * point): the response is complete only when it arrives, and its bytes were not counted yet.
     */
    void responderFill(Segment s) {
        if (open && respFirst >= 0) {
            respLast = s.timestampNanos;
            respBytes += s.payloadLength;
        }
    }

    /** A pure ACK of the responder: the first one that covers the whole request before the response is kept. */
    void responderAck(Segment s) {
        if (open && respFirst < 0 && ackTs < 0 && reqEndFrame >= 0 && Seq.ge(s.ack, reqEndSeq)) {
            ackTs = s.timestampNanos;
            ackFrame = s.frameNumber;
        }
    }

    /**
     * A new (not retransmitted) data segment.
     *
     * @param networkRttNanos current estimate of the capture-to-server round trip, -1 if unknown
     */
    void data(Side from, Segment s, long networkRttNanos) {
        long now = s.timestampNanos;
        if (from == Side.ORIGINATOR) {
            if (open && respFirst >= 0) {
                emit();
            }
            if (!open) {
                open = true;
                reqStart = now;
                if (firstRequestStart < 0) {
                    firstRequestStart = now;
                    firstRequestFrame = s.frameNumber;
                }
                reqBytes = 0;
                respFirst = respLast = -1;
                respBytes = 0;
                stallBeforeFirst = stallAfterFirst = 0;
                requestRetransmitted = false;
                method = target = host = null;
                status = -1;
                HttpPeek p = HttpPeek.request(s.payloadPrefix, s.payloadPrefixLength);
                if (p != null) {
                    method = p.method;
                    target = p.target;
                    host = p.host;
                }
            }
            reqEnd = now;
            reqEndFrame = s.frameNumber;
            reqEndSeq = Seq.add(s.seq, s.payloadLength);
            ackTs = ackFrame = -1;
            reqBytes += s.payloadLength;
        } else if (open) {
            if (respFirst < 0) {
                respFirst = now;
                respFirstFrame = s.frameNumber;
                networkRtt = networkRttNanos;
                status = HttpPeek.status(s.payloadPrefix, s.payloadPrefixLength);
            }
            respLast = now;
            respBytes += s.payloadLength;
        }
    }

    /** A stall inside the current exchange. */
    void stall(Stall st) {
        if (!open) {
            return;
        }
        long end = st.startNanos() + st.durationNanos();
        if (respFirst < 0 || end <= respFirst) {
            stallBeforeFirst += st.durationNanos();
        } else {
            stallAfterFirst += st.durationNanos();
        }
    }

    private void emit() {
        long ttfbNanos = -1, network = -1, server = -1, stall = -1;
        if (respFirst >= 0) {
            ttfbNanos = respFirst - reqStart;
            stall = Math.min(stallBeforeFirst, Math.max(0, ttfbNanos));
            long rest = Math.max(0, ttfbNanos - stall);
            network = networkRtt < 0 ? 0 : Math.min(networkRtt, rest);
            server = rest - network;
            ttfb.add(ttfbNanos);
            if (method != null && !requestRetransmitted) {
                causes.exchange(connection, connection.clientLeg(), reqEnd, reqEndFrame, ackTs, ackFrame, respFirst,
                        respFirstFrame, ttfbNanos, sink);
            }
        }
        sink.onExchange(new Exchange(id, index++, reqStart, reqEnd, respFirst, respLast, reqBytes, respBytes,
                ttfbNanos, network, server, stall, stallAfterFirst, respLast >= 0 ? respLast - reqStart : -1,
                method, target, host, status));
        count++;
        open = false;
    }

    /** Emits the exchange in progress, if any. */
    void finish() {
        if (open) {
            emit();
        }
    }

    long count() {
        return count;
    }

    Summary ttfb() {
        return ttfb.build();
    }
}
