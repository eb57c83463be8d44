package io.ackscope.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Rewrites a gzipped classic pcap (Ethernet, IPv4) as if a NAT stood between it and the peer: one IPv4 address
 * becomes another and its TCP ports are moved by a fixed amount, the IP and TCP checksums adjusted (RFC 1624), so
 * the same connections appear under other 4-tuples with their sequence numbers, timestamps and payloads unchanged.
 */
final class PcapNat {
    private PcapNat() {
    }

    /** Copies {@code in} to {@code out}, address {@code from} becoming {@code to} and its ports {@code +portShift}. */
    static void rewrite(Path in, Path out, byte[] from, byte[] to, int portShift) throws IOException {
        byte[] data;
        try (InputStream s = new GZIPInputStream(Files.newInputStream(in))) {
            data = s.readAllBytes();
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        int magic = b.getInt(0);
        if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            b.order(ByteOrder.LITTLE_ENDIAN);
        }
        if (b.getInt(20) != 1) {
            throw new IOException(in + ": not Ethernet");
        }
        int pos = 24;
        while (pos + 16 <= data.length) {
            int incl = b.getInt(pos + 8);
            int frame = pos + 16;
            if (incl >= 54 && (data[frame + 12] & 0xff) == 0x08 && data[frame + 13] == 0 && data[frame + 23] == 6) {
                int ip = frame + 14;
                int tcp = ip + (data[ip] & 0x0f) * 4;
                for (int side = 0; side < 2; side++) {
                    int addr = ip + 12 + 4 * side;
                    if (same(data, addr, from)) {
                        for (int w = 0; w < 4; w += 2) {
                            int old = word(data, addr + w);
                            int neu = ((to[w] & 0xff) << 8) | (to[w + 1] & 0xff);
                            setWord(data, addr + w, neu);
                            adjust(data, ip + 10, old, neu);
                            adjust(data, tcp + 16, old, neu); // the pseudo-header holds the addresses
                        }
                        int port = tcp + 2 * side;
                        int old = word(data, port);
                        int neu = (old + portShift) & 0xffff;
                        setWord(data, port, neu);
                        adjust(data, tcp + 16, old, neu);
                    }
                }
            }
            pos = frame + incl;
        }
        try (OutputStream s = new GZIPOutputStream(Files.newOutputStream(out))) {
            s.write(data);
        }
    }

    private static boolean same(byte[] d, int at, byte[] a) {
        for (int i = 0; i < 4; i++) {
            if (d[at + i] != a[i]) {
                return false;
            }
        }
        return true;
    }

    private static int word(byte[] d, int at) {
        return ((d[at] & 0xff) << 8) | (d[at + 1] & 0xff);
    }

    private static void setWord(byte[] d, int at, int v) {
        d[at] = (byte) (v >>> 8);
        d[at + 1] = (byte) v;
    }

    /** RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'). */
    private static void adjust(byte[] d, int at, int old, int neu) {
        int sum = (~word(d, at) & 0xffff) + (~old & 0xffff) + neu;
        sum = (sum & 0xffff) + (sum >>> 16);
        sum = (sum & 0xffff) + (sum >>> 16);
        setWord(d, at, ~sum & 0xffff);
    }
}
