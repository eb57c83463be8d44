package io.ackscope.tcp;

import io.ackscope.decode.PacketDecoder;

/**
 * One TCP segment as the engine sees it: a small, reusable, mutable struct of primitives.
 *
 * <p>Everything the engine uses about a packet is in here and nowhere else, so a Spark job can shuffle frames as
 * rows and rebuild identical {@code Segment}s on the other side. It holds no reference to a reader buffer: the
 * payload is copied, and only a bounded prefix of it ({@link #MAX_PAYLOAD_PREFIX} bytes, enough for an HTTP/1.x
 * request line, Host header and status line).
 *
 * <p>Units: {@link #timestampNanos} is nanoseconds since the Unix epoch; sequence and acknowledgement numbers and
 * TCP timestamp values are unsigned 32-bit values held in longs; addresses follow {@link PacketDecoder}: IPv6 as
 * two big-endian longs, IPv4 as the IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}.
 *
 * <p>Not thread-safe; one per thread or Spark task. The engine never keeps a reference to a {@code Segment}
 * after {@link TcpEngine#accept} / {@link TupleTracker#accept} returns.
 */
public final class Segment {

    /** Payload bytes kept per segment: an HTTP/1.x request line plus Host header fits comfortably. */
    public static final int MAX_PAYLOAD_PREFIX = 1024;

    /** Index of the capture file in the job's input list (0 for a single file). */
    public int fileIndex;
    /** 1-based frame number in its file (tshark's {@code frame.number}). */
    public long frameNumber;
    public long timestampNanos;
    /** Length of the frame on the wire ({@code frame.len}), used for byte counts like tshark's conv table. */
    public long frameLength;
    /**
     * The IP packet's length ({@code ip.len}: IPv4 total length, IPv6 40 + payload length, from the frame when the
     * length field is 0), what Zeek counts in {@code orig_ip_bytes}/{@code resp_ip_bytes}.
     */
    public int ipLength;

    public long srcHi, srcLo, dstHi, dstLo;
    public int srcPort, dstPort;
    public long seq, ack;
    /** 12 flag bits as in tshark's {@code tcp.flags}; see {@link PacketDecoder#SYN} and friends. */
    public int flags;
    /** Raw (unscaled) window field. */
    public int window;
    /** TCP payload length from the IP length fields (tshark's {@code tcp.len}). */
    public int payloadLength;

    /** MSS option value, -1 when absent. */
    public int mss;
    /** Window scale shift count, -1 when absent. */
    public int windowScale;
    /** The IPv4 identification field, -1 for IPv6 (whose packets carry none unless fragmented). */
    public int ipId = -1;
    public boolean sackPermitted;
    public boolean hasTimestamps;
    public long tsVal, tsEcr;
    public int sackBlockCount;
    public final long[] sackLeft = new long[4];
    public final long[] sackRight = new long[4];

    /** The first {@link #payloadPrefixLength} payload bytes actually captured (at most {@link #MAX_PAYLOAD_PREFIX}). */
    public final byte[] payloadPrefix = new byte[MAX_PAYLOAD_PREFIX];
    public int payloadPrefixLength;

    /** Resets every field to "absent". */
    public Segment clear() {
        fileIndex = 0;
        frameNumber = 0;
        timestampNanos = 0;
        frameLength = 0;
        ipLength = 0;
        srcHi = srcLo = dstHi = dstLo = 0;
        srcPort = dstPort = 0;
        seq = ack = 0;
        flags = 0;
        window = 0;
        payloadLength = 0;
        mss = -1;
        windowScale = -1;
        ipId = -1;
        sackPermitted = false;
        hasTimestamps = false;
        tsVal = tsEcr = 0;
        sackBlockCount = 0;
        payloadPrefixLength = 0;
        return this;
    }

    /**
     * Fills this segment from a decoded packet.
     *
     * @param d           a decoder that has just decoded the packet held in {@code buf}
     * @param buf         the array the packet was decoded from (the payload prefix is copied out of it)
     * @param fileIndex   index of the capture in the input list
     * @param frameNumber 1-based frame number in its file
     * @param tsNanos     frame timestamp, nanoseconds since the epoch
     * @param frameLength frame length on the wire
     * @return false (and the segment cleared) when the packet carries no TCP header of its own: not TCP, a TCP
     *         header quoted inside an ICMP error (tshark keeps those out of {@code tcp.stream} and {@code conv,tcp}),
     *         or an IP fragment (tshark analyses the segment only in the reassembled datagram, which ackscope does
     *         not rebuild)
     */
    public boolean fill(PacketDecoder d, byte[] buf, int fileIndex, long frameNumber, long tsNanos, long frameLength) {
        clear();
        if (!d.hasTcp() || d.isFragment()) {
            return false;
        }
        this.fileIndex = fileIndex;
        this.frameNumber = frameNumber;
        this.timestampNanos = tsNanos;
        this.frameLength = frameLength;
        ipLength = Math.max(0, d.ipTotalLength());
        srcHi = d.srcHi();
        srcLo = d.srcLo();
        dstHi = d.dstHi();
        dstLo = d.dstLo();
        srcPort = d.srcPort();
        dstPort = d.dstPort();
        seq = d.seq();
        ack = d.ack();
        flags = d.tcpFlags();
        window = d.window();
        payloadLength = Math.max(0, d.payloadLength());
        mss = d.mss();
        windowScale = d.windowScale();
        ipId = d.ipVersion() == 4 ? d.ipId() : -1;
        sackPermitted = d.sackPermitted();
        hasTimestamps = d.hasTimestamps();
        tsVal = d.tsVal();
        tsEcr = d.tsEcr();
        int n = Math.min(4, Math.max(0, d.sackBlockCount()));
        sackBlockCount = n;
        for (int i = 0; i < n; i++) {
            sackLeft[i] = d.sackLeft(i);
            sackRight[i] = d.sackRight(i);
        }
        int off = d.payloadOffset();
        // capturedPayloadLength is bounded by the captured bytes; clamp again against the array we were given.
        int len = Math.min(Math.min(d.capturedPayloadLength(), MAX_PAYLOAD_PREFIX), payloadLength);
        if (off >= 0 && len > 0 && off <= buf.length - len) {
            System.arraycopy(buf, off, payloadPrefix, 0, len);
            payloadPrefixLength = len;
        }
        return true;
    }

    /** Copies every field of {@code o} into this segment. */
    public Segment copyFrom(Segment o) {
        fileIndex = o.fileIndex;
        frameNumber = o.frameNumber;
        timestampNanos = o.timestampNanos;
        frameLength = o.frameLength;
        ipLength = o.ipLength;
        srcHi = o.srcHi;
        srcLo = o.srcLo;
        dstHi = o.dstHi;
        dstLo = o.dstLo;
        srcPort = o.srcPort;
        dstPort = o.dstPort;
        seq = o.seq;
        ack = o.ack;
        flags = o.flags;
        window = o.window;
        payloadLength = o.payloadLength;
        mss = o.mss;
        windowScale = o.windowScale;
        ipId = o.ipId;
        sackPermitted = o.sackPermitted;
        hasTimestamps = o.hasTimestamps;
        tsVal = o.tsVal;
        tsEcr = o.tsEcr;
        sackBlockCount = o.sackBlockCount;
        System.arraycopy(o.sackLeft, 0, sackLeft, 0, 4);
        System.arraycopy(o.sackRight, 0, sackRight, 0, 4);
        payloadPrefixLength = o.payloadPrefixLength;
        System.arraycopy(o.payloadPrefix, 0, payloadPrefix, 0, o.payloadPrefixLength);
        return this;
    }

    /** Sets the payload prefix from {@code bytes} (bounded); for rebuilding segments from stored rows. */
    public void setPayloadPrefix(byte[] bytes, int off, int len) {
        int n = Math.max(0, Math.min(len, MAX_PAYLOAD_PREFIX));
        System.arraycopy(bytes, off, payloadPrefix, 0, n);
        payloadPrefixLength = n;
    }

    public boolean syn() {
        return (flags & PacketDecoder.SYN) != 0;
    }

    public boolean fin() {
        return (flags & PacketDecoder.FIN) != 0;
    }

    public boolean rst() {
        return (flags & PacketDecoder.RST) != 0;
    }

    public boolean hasAck() {
        return (flags & PacketDecoder.ACK) != 0;
    }

    /** Sequence space the segment occupies: payload plus one each for SYN and FIN. */
    public int seqLength() {
        return payloadLength + ((flags & PacketDecoder.SYN) != 0 ? 1 : 0) + ((flags & PacketDecoder.FIN) != 0 ? 1 : 0);
    }
}
