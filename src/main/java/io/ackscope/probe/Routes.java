package io.ackscope.probe;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds the {@link Route} to an IPv4 destination on Linux.
 *
 * <p>The interface, source and gateway come from {@code ip -4 -o route get DST} (which knows the local table,
 * policy rules and source selection); where {@code ip} is missing, from a longest-prefix match on
 * {@code /proc/net/route} with the source taken from a connected UDP socket. The interface's MAC comes from
 * {@code /sys/class/net/DEV/address}, the next hop's from {@code /proc/net/arp}; when the neighbour is not yet
 * known, one empty UDP datagram to the next hop makes the kernel resolve it.
 */
public final class Routes {

    /** ARPHRD_LOOPBACK in {@code /sys/class/net/DEV/type}. */
    private static final int ARPHRD_LOOPBACK = 772;
    /** ATF_COM in {@code /proc/net/arp}'s flags: the entry is complete. */
    private static final int ATF_COM = 0x2;
    /** Discard port (RFC 863): where the datagram that triggers ARP resolution goes. */
    private static final int DISCARD_PORT = 9;
    private static final long IP_COMMAND_TIMEOUT_MS = 5_000;

    private Routes() {
    }

    /** Interface, source and gateway as parsed from {@code ip route get} or {@code /proc/net/route}. */
    record Hop(String device, String source, String gateway) {
    }

    /**
     * Looks up the route to {@code destination}, resolving the next hop's MAC within {@code neighbourWaitMs}.
     *
     * @throws IOException no route, an unreachable destination, or an unresolved neighbour
     */
    public static Route lookup(Inet4Address destination, long neighbourWaitMs) throws IOException {
        Hop hop = ipRouteGet(destination);
        if (hop == null) {
            hop = procRoute(destination);
        }
        if (hop == null || hop.device() == null) {
            throw new IOException("no route to " + destination.getHostAddress());
        }
        Inet4Address source = hop.source() != null ? ipv4(hop.source()) : sourceFor(destination);
        Inet4Address gateway = hop.gateway() != null ? ipv4(hop.gateway()) : null;
        boolean loopback = isLoopback(hop.device());
        byte[] srcMac = loopback ? new byte[6] : deviceMac(hop.device());
        byte[] dstMac;
        if (loopback) {
            dstMac = new byte[6];
        } else {
            Inet4Address next = gateway != null ? gateway : destination;
            dstMac = resolveNeighbour(next, hop.device(), neighbourWaitMs);
        }
        return new Route(hop.device(), source, destination, gateway, srcMac, dstMac, loopback);
    }

    /** Runs {@code ip -4 -o route get}; null when {@code ip} cannot be run. */
    private static Hop ipRouteGet(Inet4Address destination) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder("ip", "-4", "-o", "route", "get", destination.getHostAddress())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            return null; // iproute2 not installed: fall back to /proc/net/route
        }
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
            if (!p.waitFor(IP_COMMAND_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException("ip route get did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running ip route get", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("no route to " + destination.getHostAddress() + ": " + out.strip());
        }
        return parseRouteGet(out);
    }

    /**
     * Parses one line of {@code ip -4 -o route get}, such as
     * {@code 10.0.0.9 via 10.0.0.1 dev eth0 src 10.0.0.2 uid 0 \    cache} or
     * {@code local 127.0.0.1 dev lo src 127.0.0.1 uid 0 \    cache <local>}.
     *
     * @throws IOException the route is unreachable, prohibit or blackhole
     */
    static Hop parseRouteGet(String line) throws IOException {
        String[] t = line.strip().split("\\s+");
        if (t.length > 0 && (t[0].equals("unreachable") || t[0].equals("prohibit") || t[0].equals("blackhole")
                || t[0].equals("throw"))) {
            throw new IOException("route is " + t[0] + ": " + line.strip());
        }
        String dev = null;
        String src = null;
        String via = null;
        for (int i = 0; i + 1 < t.length; i++) {
            switch (t[i]) {
                case "dev" -> dev = t[++i];
                case "src" -> src = t[++i];
                case "via" -> via = t[++i];
                default -> { }
            }
        }
        if (via != null && via.equals("inet")) {
            via = null; // "via inet 10.0.0.1" is not printed with -4, but do not take "inet" for an address
        }
        return new Hop(dev, src, via);
    }

    private static Hop procRoute(Inet4Address destination) throws IOException {
        Path p = Path.of("/proc/net/route");
        if (!Files.isReadable(p)) {
            return null;
        }
        return parseProcRoute(Files.readAllLines(p), destination);
    }

    /**
     * Longest-prefix match on the lines of {@code /proc/net/route} (addresses in host byte order, little-endian
     * hex on x86 and arm64); among equal prefixes the lowest metric wins. Source is left null.
     */
    static Hop parseProcRoute(List<String> lines, Inet4Address destination) {
        int dst = toInt(destination);
        String bestDev = null;
        int bestGw = 0;
        int bestLen = -1;
        long bestMetric = Long.MAX_VALUE;
        for (String line : lines) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 8 || f[0].equals("Iface")) {
                continue;
            }
            int flags;
            int net;
            int gw;
            int mask;
            long metric;
            try {
                net = Integer.reverseBytes((int) Long.parseLong(f[1], 16));
                gw = Integer.reverseBytes((int) Long.parseLong(f[2], 16));
                flags = Integer.parseInt(f[3], 16);
                metric = Long.parseLong(f[6]);
                mask = Integer.reverseBytes((int) Long.parseLong(f[7], 16));
            } catch (NumberFormatException e) {
                continue; // not a route line
            }
            if ((flags & 0x1) == 0 || (dst & mask) != net) {
                continue; // RTF_UP not set, or another network
            }
            int len = Integer.bitCount(mask);
            if (len > bestLen || (len == bestLen && metric < bestMetric)) {
                bestDev = f[0];
                bestGw = (flags & 0x2) != 0 ? gw : 0; // RTF_GATEWAY
                bestLen = len;
                bestMetric = metric;
            }
        }
        if (bestDev == null) {
            return null;
        }
        return new Hop(bestDev, null, bestGw == 0 ? null : fromInt(bestGw).getHostAddress());
    }

    /** The MAC of a complete entry for {@code ip} on {@code device} in {@code /proc/net/arp} text, or null. */
    static byte[] parseArp(List<String> lines, String ip, String device) {
        for (String line : lines) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 6 || !f[0].equals(ip) || !f[5].equals(device)) {
                continue;
            }
            int flags;
            try {
                flags = Integer.decode(f[2]);
            } catch (NumberFormatException e) {
                continue;
            }
            if ((flags & ATF_COM) != 0) {
                return parseMac(f[3]);
            }
        }
        return null;
    }

    private static byte[] resolveNeighbour(Inet4Address next, String device, long waitMs) throws IOException {
        Path arp = Path.of("/proc/net/arp");
        byte[] mac = parseArp(Files.readAllLines(arp), next.getHostAddress(), device);
        if (mac != null) {
            return mac;
        }
        try (DatagramSocket s = new DatagramSocket()) {
            s.send(new DatagramPacket(new byte[0], 0, new InetSocketAddress(next, DISCARD_PORT)));
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            mac = parseArp(Files.readAllLines(arp), next.getHostAddress(), device);
            if (mac != null) {
                return mac;
            }
        }
        throw new IOException("next hop " + next.getHostAddress() + " on " + device + " did not answer ARP within "
                + waitMs + " ms");
    }

    /** The source address the kernel picks for {@code destination} (a connected UDP socket sends nothing). */
    private static Inet4Address sourceFor(Inet4Address destination) throws IOException {
        try (DatagramSocket s = new DatagramSocket()) {
            s.connect(destination, DISCARD_PORT);
            InetAddress a = s.getLocalAddress();
            if (a instanceof Inet4Address v4 && !v4.isAnyLocalAddress()) {
                return v4;
            }
            throw new IOException("no IPv4 source address for " + destination.getHostAddress());
        }
    }

    private static boolean isLoopback(String device) throws IOException {
        Path type = Path.of("/sys/class/net", device, "type");
        if (!Files.isReadable(type)) {
            return device.equals("lo");
        }
        return Integer.parseInt(Files.readString(type).strip()) == ARPHRD_LOOPBACK;
    }

    private static byte[] deviceMac(String device) throws IOException {
        byte[] mac = parseMac(Files.readString(Path.of("/sys/class/net", device, "address")).strip());
        if (mac == null) {
            throw new IOException(device + " has no Ethernet address");
        }
        return mac;
    }

    /** {@code aa:bb:cc:dd:ee:ff} to 6 bytes, or null when it is not such a string. */
    static byte[] parseMac(String s) {
        String[] p = s.split(":");
        if (p.length != 6) {
            return null;
        }
        byte[] mac = new byte[6];
        for (int i = 0; i < 6; i++) {
            if (p[i].isEmpty() || p[i].length() > 2) {
                return null;
            }
            try {
                mac[i] = (byte) Integer.parseInt(p[i], 16);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return mac;
    }

    static String formatMac(byte[] mac) {
        StringBuilder sb = new StringBuilder(17);
        for (int i = 0; i < mac.length; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(Character.forDigit((mac[i] >> 4) & 0xf, 16)).append(Character.forDigit(mac[i] & 0xf, 16));
        }
        return sb.toString();
    }

    /** An IPv4 address as a big-endian int. */
    public static int toInt(Inet4Address a) {
        byte[] b = a.getAddress();
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    /** A big-endian int as an IPv4 address. */
    public static Inet4Address fromInt(int v) {
        byte[] b = {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        try {
            return (Inet4Address) InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 bytes are always an IPv4 address", e);
        }
    }

    /** Dotted quad of a big-endian int, without allocating an InetAddress. */
    public static String dotted(int v) {
        return (v >>> 24) + "." + ((v >>> 16) & 0xff) + "." + ((v >>> 8) & 0xff) + "." + (v & 0xff);
    }

    private static Inet4Address ipv4(String literal) throws IOException {
        InetAddress a = InetAddress.getByName(literal); // a literal: no name lookup
        if (a instanceof Inet4Address v4) {
            return v4;
        }
        throw new IOException("not an IPv4 address: " + literal);
    }
}
