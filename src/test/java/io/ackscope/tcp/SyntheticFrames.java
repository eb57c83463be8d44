package io.ackscope.tcp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The parts every written test capture shares: a classic pcap file header and an IPv4 header checksum. */
final class SyntheticFrames {
    private SyntheticFrames() {
    }

    /** Writes the header of a little-endian, microsecond, Ethernet pcap file with a snap length of 65535. */
    static void pcapHeader(OutputStream out) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        out.write(h.array());
    }

    /** Fills in the checksum of the 20-byte IPv4 header at {@code ip} in {@code rec}. */
    static void ipv4Checksum(ByteBuffer rec, int ip) {
        int sum = 0;
        for (int k = 0; k < 20; k += 2) {
            sum += rec.getShort(ip + k) & 0xFFFF;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        rec.putShort(ip + 10, (short) ~sum);
    }
}
