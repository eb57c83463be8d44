package io.ackscope.tcp;

/**
 * Where the capture was taken, inferred per connection from the two handshake legs: SYN&rarr;SYN/ACK (capture
 * point to server and back) and SYN/ACK&rarr;ACK (capture point to client and back). The leg to the near host is
 * only that host's processing time, so it is small compared with the other.
 *
 * <p>One capture's point of view on one connection; the {@code connections} column {@code vantage} holds its name.
 * Two captures of the same connections seen together are the {@code vantage} package's concern, not this one.
 */
public enum CapturePoint {
    /** SYN/ACK&rarr;ACK is at most {@link #NEAR_SHARE} of the handshake: the capture is next to the client. */
    NEAR_CLIENT,
    /** SYN&rarr;SYN/ACK is at most {@link #NEAR_SHARE} of the handshake: the capture is next to the server. */
    NEAR_SERVER,
    /** Both legs are substantial: the capture is on the path between the hosts. */
    IN_BETWEEN,
    /** Both ends are on the capturing host (same address, or loopback): every delay is seen directly. */
    LOCAL,
    /** The handshake was not captured. */
    UNKNOWN;

    /** Share of the handshake time under which a leg counts as "only the near host's processing time". */
    public static final double NEAR_SHARE = 0.15;

    /**
     * Infers the vantage point.
     *
     * @param legToServerNanos SYN&rarr;SYN/ACK, -1 if not seen
     * @param legToClientNanos SYN/ACK&rarr;ACK, -1 if not seen
     * @param sameHost         both addresses are equal, or both are loopback addresses
     */
    public static CapturePoint infer(long legToServerNanos, long legToClientNanos, boolean sameHost) {
        if (sameHost) {
            return LOCAL;
        }
        if (legToServerNanos < 0 || legToClientNanos < 0) {
            return UNKNOWN;
        }
        double total = (double) legToServerNanos + legToClientNanos;
        boolean serverNear = legToServerNanos <= NEAR_SHARE * total;
        boolean clientNear = legToClientNanos <= NEAR_SHARE * total;
        if (clientNear && !serverNear) {
            return NEAR_CLIENT;
        }
        if (serverNear && !clientNear) {
            return NEAR_SERVER;
        }
        return IN_BETWEEN;
    }

    /** True when an ACK delay of {@code host} can be read straight off the capture. */
    public boolean sees(Side host) {
        return this == LOCAL || (this == NEAR_CLIENT && host == Side.ORIGINATOR)
                || (this == NEAR_SERVER && host == Side.RESPONDER);
    }
}
