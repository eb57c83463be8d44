package io.ackscope.tcp;

/**
 * Where the time to first byte of one connection's HTTP exchanges went, split into the server's part, the path's
 * round trip and queueing on the path, each turned into a {@link CauseEvent} when it dominates (docs/causes.md,
 * "Server time, network time, queueing"). Fed by {@link ExchangeTracker} once per exchange that got a response.
 *
 * <p>The split rests on what proves that the server had the request: a capture next to the server sees it arrive,
 * elsewhere the server's pure ACK of the request's last byte shows it (Linux acknowledges when the application reads,
 * unless it answers within its delayed-ACK timer, when the response carries the ACK). From that proof to the first
 * response byte is the server's time. The rest of the wait after the request's last byte is the request's round
 * trip, and its excess over the smallest round trip of the connection (the handshake leg or an earlier request's, as
 * pping and RFC 6817's base delay take the minimum) is queueing.
 */
final class ResponseTimeCauses implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Below this a server's or a queue's part of one exchange is not a cause (a loaded but healthy server). */
    static final long MIN_PART_NANOS = 10_000_000L;
    /**
     * Below this the path's round trip is not a cause: 20 ms is a path beyond a metro area (light in fibre covers
     * ~100 km per ms of RTT), where moving closer or saving round trips is the fix.
     */
    static final long MIN_PATH_NANOS = 20_000_000L;

    private final ConnectionId id;
    /** Smallest round trip capture point -> server -> capture point seen so far, -1 none. */
    private long baseRtt = -1;
    private long baseFrame = -1;

    ResponseTimeCauses(ConnectionId id) {
        this.id = id;
    }

    /**
     * One exchange with a response; frames and times as {@link ExchangeTracker} kept them.
     *
     * @param clientLeg the path from the capture point to the client and back, -1 unknown
     * @param ackTs    the server's first pure ACK covering the request's last byte before the response, -1 none
     * @param ttfb     first request byte to first response byte, as captured
     */
    void exchange(Handshake hs, long clientLeg, long reqEnd, long reqEndFrame, long ackTs, long ackFrame, long respFirst,
                  long respFirstFrame, long ttfb, AnalysisSink sink) {
        if (hs.legServer >= 0 && baseRtt < 0) {
            baseRtt = hs.legServer;
            baseFrame = hs.synAckFrame;
        }
        long gap = respFirst - reqEnd;
        long server;
        long proof;
        if (hs.capturePoint().sees(Side.RESPONDER)) {
            server = gap;
            proof = reqEndFrame;
        } else if (ackTs >= 0 && (baseRtt < 0 || 2 * (ackTs - reqEnd) >= baseRtt)) {
            // an ACK sooner than half the round trip to the server cannot be the server's (a proxy splitting the
            // connection, or a crafted capture): it proves nothing about when the server had the request
            server = respFirst - ackTs;
            proof = ackFrame;
        } else {
            server = 0;
            proof = -1;
        }
        // with an ACK too soon to be the server's, the request's round trip to the server is not on the wire either
        boolean proxied = ackTs >= 0 && proof < 0;
        // the client sees the leg from the capture point to it and back on top of what was captured
        long clientTtfb = ttfb + Math.max(0, clientLeg);
        if (server >= MIN_PART_NANOS && 2 * server >= clientTtfb) {
            sink.onCause(new CauseEvent(id, Cause.SERVER_PROCESSING, Side.RESPONDER, respFirst - server, respFirst,
                    server, 1, frames(reqEndFrame, proof, respFirstFrame)));
        }
        long answerFrame = proof >= 0 && proof != reqEndFrame ? proof : respFirstFrame;
        queueing(proxied ? -1 : gap - server, reqEnd, reqEndFrame, answerFrame, sink);
        // the path: the smallest round trip to the server (not the handshake's alone, which a slow accept or a
        // first packet's set-up can lengthen) and the leg to the client
        long path = baseRtt >= 0 && clientLeg >= 0 ? baseRtt + clientLeg : -1;
        if (path >= MIN_PATH_NANOS && 2 * path >= clientTtfb) {
            sink.onCause(new CauseEvent(id, Cause.NETWORK_DELAY, Side.RESPONDER, reqEnd, respFirst, path, 1,
                    frames(baseFrame, hs.hsAckFrame, reqEndFrame, respFirstFrame), clientLeg));
        }
    }

    /** The request's round trip {@code rtt} (last request byte to the server's first answer), against the base. */
    private void queueing(long rtt, long reqEnd, long reqEndFrame, long answerFrame, AnalysisSink sink) {
        if (rtt < 0) {
            return;
        }
        if (baseRtt < 0 || rtt < baseRtt) {
            baseRtt = rtt;
            baseFrame = reqEndFrame;
            return;
        }
        long excess = rtt - baseRtt;
        if (excess >= MIN_PART_NANOS && excess >= 2 * baseRtt) {
            sink.onCause(new CauseEvent(id, Cause.QUEUEING_DELAY, Side.RESPONDER, reqEnd, reqEnd + rtt, excess, 1,
                    frames(baseFrame, reqEndFrame, answerFrame)));
        }
    }

    /** The frames given, without the unknown (-1) and repeated ones, in capture order. */
    private static long[] frames(long... f) {
        java.util.Arrays.sort(f);
        int n = 0;
        for (long x : f) {
            if (x >= 0 && (n == 0 || f[n - 1] != x)) {
                f[n++] = x;
            }
        }
        return java.util.Arrays.copyOf(f, n);
    }
}
