package io.ackscope.probe;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;

import java.io.Closeable;
import java.io.IOException;

/**
 * Sends complete IPv4 packets through a raw socket ({@code socket(AF_INET, SOCK_RAW, IPPROTO_RAW)}, which implies
 * {@code IP_HDRINCL}), as hping3 does: the kernel routes them like locally generated packets.
 *
 * <p>Used on loopback instead of libpcap injection. Linux hands a frame injected by a packet socket on {@code lo} to
 * IP input without a route attached, and input routing drops a 127.0.0.0/8 destination as a martian unless
 * {@code net.ipv4.conf.lo.route_localnet=1}; a raw IP socket goes through output routing and is delivered.
 * The kernel fills in the IPv4 checksum; the TCP checksum is ours.
 */
final class RawIpSender implements Closeable {

    private static final int AF_INET = 2;
    private static final int SOCK_RAW = 3;
    private static final int IPPROTO_RAW = 255;
    private static final int SOCKADDR_IN_LENGTH = 16;

    /** The three libc calls needed, bound through JNA (which pcap4j already brings). */
    private static final class LibC {
        static {
            Native.register("c");
        }

        static native int socket(int domain, int type, int protocol) throws LastErrorException;

        static native NativeLong sendto(int fd, byte[] buf, NativeLong len, int flags, byte[] addr, int addrLen)
                throws LastErrorException;

        static native int close(int fd) throws LastErrorException;
    }

    private final int fd;
    private final byte[] address = new byte[SOCKADDR_IN_LENGTH];
    private byte[] packet = new byte[128];

    /** Opens the socket; needs CAP_NET_RAW. */
    RawIpSender() throws IOException {
        try {
            fd = LibC.socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
        } catch (LastErrorException e) {
            throw new IOException("raw socket: " + e.getMessage(), e);
        }
        // struct sockaddr_in: family in host byte order (little-endian on x86 and arm64), port 0, address later
        address[0] = AF_INET;
    }

    /** Sends the IPv4 packet {@code buf[off .. off + len)} to {@code dstIp} (big-endian int). */
    void send(byte[] buf, int off, int len, int dstIp) throws IOException {
        if (packet.length < len) {
            packet = new byte[len];
        }
        System.arraycopy(buf, off, packet, 0, len);
        SynPacket.put32(address, 4, dstIp);
        try {
            long sent = LibC.sendto(fd, packet, new NativeLong(len), 0, address, SOCKADDR_IN_LENGTH).longValue();
            if (sent != len) {
                throw new IOException("raw socket sent " + sent + " of " + len + " bytes");
            }
        } catch (LastErrorException e) {
            throw new IOException("sendto: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            LibC.close(fd);
        } catch (LastErrorException e) {
            // nothing left to release
        }
    }
}
