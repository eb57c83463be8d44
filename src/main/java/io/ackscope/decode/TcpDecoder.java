package io.ackscope.decode;

import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u32;

/**
 * A TCP header (RFC 9293 section 3.1) at {@code d.cursor} in a {@link PacketDecoder}, its options through
 * {@link TcpOptions}. Stateless: writes the TCP and payload fields of {@code d}; the payload ends at {@code d.limit}.
 */
final class TcpDecoder {
    private TcpDecoder() {
    }

    static final int MIN_HEADER = 20;
    /** Bytes of TCP header up to and including the window: what tshark needs to show anything beyond the ports. */
    static final int FIXED_FIELDS = 16;

    static void decode(PacketDecoder d, byte[] b) {
        int t = d.cursor;
        int avail = d.transportWithPorts(b);
        d.hasTcpPorts = avail >= 4;
        if (avail < FIXED_FIELDS) {
            d.need(t, MIN_HEADER, Layer.TCP); // records TRUNCATED or MALFORMED
            return;
        }
        // safe: 16 bytes available
        d.seq = u32(b, t + 4);
        d.ack = u32(b, t + 8);
        int offsetFlags = u16(b, t + 12);
        int headerLength = (offsetFlags >>> 12) * 4;
        d.tcpHeaderLength = headerLength;
        d.tcpFlags = offsetFlags & 0x0fff;
        d.window = u16(b, t + 14);
        if (headerLength < MIN_HEADER) {
            d.stop(StopReason.TCP_DATA_OFFSET, Layer.TCP, t);
            return;
        }
        d.hasTcp = true;
        d.payloadOffset = t + headerLength;
        d.payloadLength = Math.max(0, d.transportLength - headerLength);
        d.capturedPayloadLength = Math.max(0, avail - headerLength);
        if (!d.need(t, MIN_HEADER, Layer.TCP)) {
            return;
        }
        d.urgentPointer = u16(b, t + 18); // safe: 20 bytes checked above
        // Options: only those lying wholly inside the header, the IP payload and the capture are read.
        boolean optionsValid = TcpOptions.parse(d, b, t + MIN_HEADER, t + Math.min(headerLength, avail),
                t + headerLength);
        if (!d.need(t, headerLength, Layer.TCP)) {
            return;
        }
        if (!optionsValid) {
            d.stop(StopReason.TCP_OPTION_LENGTH, Layer.TCP, t);
        }
    }
}
