package io.ackscope.tcp;

/**
 * How long a host held an acknowledgement: from the arrival of the oldest data it acknowledges to the ACK.
 * Times are epoch nanoseconds, values nanoseconds.
 *
 * @param connection      the connection
 * @param timeNanos       when the ACK was captured
 * @param frameNumber     frame number of the ACK
 * @param ackingSide      the side that sent the ACK
 * @param valueNanos      the delay (corrected by the path RTT when {@code method} is ESTIMATED)
 * @param sinceNewestNanos the same, measured from the newest acknowledged segment instead of the oldest
 * @param segments        data segments this ACK newly acknowledges
 * @param bytes           payload bytes this ACK newly acknowledges
 * @param method          how the value was obtained
 * @param ackClass        what kind of acknowledgement it was
 */
public record AckDelay(ConnectionId connection, long timeNanos, long frameNumber, Side ackingSide, long valueNanos,
                       long sinceNewestNanos, int segments, long bytes, Method method, AckClass ackClass) {

    public enum Method {
        /** The capture is at the acking host: data arrival and ACK departure are both seen there. */
        DIRECT,
        /** The capture is away from the acking host: the path RTT to it (its handshake leg) was subtracted. */
        ESTIMATED,
        /** The handshake was not captured, so nothing was subtracted: an upper bound. */
        UNCORRECTED
    }

    /**
     * How an ACK delay is read at a capture point: directly when it sees the acker, the path RTT to the acker
     * subtracted when it does not, nothing subtracted (an upper bound) when the vantage or the path is unknown.
     */
    static Method method(CapturePoint v, Side acker, long pathRttToAcker) {
        if (v.sees(acker)) {
            return Method.DIRECT;
        }
        return v == CapturePoint.UNKNOWN || pathRttToAcker < 0 ? Method.UNCORRECTED : Method.ESTIMATED;
    }

    /** {@code raw}, the time from data to ACK at the capture point, read by {@code method}. */
    static long corrected(Method method, long raw, long pathRttToAcker) {
        return method == Method.ESTIMATED ? Math.max(0, raw - pathRttToAcker) : raw;
    }
}
