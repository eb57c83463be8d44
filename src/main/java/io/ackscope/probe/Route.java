package io.ackscope.probe;

import java.net.Inet4Address;

/**
 * How frames to one IPv4 destination leave this host: the interface, the source address the kernel would choose,
 * the gateway (null when the destination is on-link or local) and the two MAC addresses of the Ethernet header.
 *
 * @param device     outgoing interface, {@code lo} for local destinations
 * @param source     source address
 * @param destination the target
 * @param gateway    next-hop router, or null
 * @param sourceMac  the interface's MAC (zero on loopback)
 * @param nextHopMac the next hop's MAC (zero on loopback)
 * @param loopback   the interface is a loopback device (Ethernet framing with zero MACs on Linux)
 */
public record Route(String device, Inet4Address source, Inet4Address destination, Inet4Address gateway,
                    byte[] sourceMac, byte[] nextHopMac, boolean loopback) {

    /** Address the next hop's MAC belongs to: the gateway, or the destination itself. */
    public Inet4Address nextHop() {
        return gateway != null ? gateway : destination;
    }

    /** {@code dev lo src 127.0.0.1} or {@code dev eth0 src 10.0.0.2 via 10.0.0.1 (02:...)}, for the header line. */
    public String describe() {
        StringBuilder sb = new StringBuilder(device).append(' ').append(source.getHostAddress());
        if (gateway != null) {
            sb.append(" via ").append(gateway.getHostAddress());
        }
        if (!loopback) {
            sb.append(" (next hop ").append(Routes.formatMac(nextHopMac)).append(')');
        }
        return sb.toString();
    }
}
