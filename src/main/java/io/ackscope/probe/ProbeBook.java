package io.ackscope.probe;

import io.ackscope.capture.LinkTypes;
import io.ackscope.decode.PacketDecoder;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bookkeeping for one run of raw SYN probes to one target: the source port and sequence number each probe
 * carries, when it left, and which received frame answers it.
 *
 * <p>Probe {@code i} uses source port {@code basePort + i} and a random initial sequence number. A frame answers
 * it when it is a TCP segment from the target port to that source port acknowledging {@code seq + 1} (SYN/ACK or
 * RST/ACK), or an ICMP error quoting that source port and sequence number. The probe's own SYN, seen by the
 * capture, gives the wire send time; without it the user-space send time is used.
 *
 * <p>Received frames are decoded by a {@link PacketDecoder} ({@link #decode}); {@link #kind} says what a decoded
 * frame is to the probes.
 */
final class ProbeBook {

    /** Not a frame the probes use (not IPv4, truncated, malformed, or another protocol). */
    static final int OTHER = 0;
    /** An IPv4 TCP segment with its 20-byte header captured. */
    static final int TCP = 1;
    /** An ICMP error (time exceeded, destination unreachable) quoting an IPv4 TCP header's ports and sequence. */
    static final int ICMP_ERROR = 2;

    static final int ICMP_UNREACHABLE = 3;
    static final int ICMP_TIME_EXCEEDED = 11;

    private static final int TCP_HEADER = 20;
    /** Quoted TCP bytes needed: ports and sequence number (RFC 792 guarantees 8). */
    private static final int QUOTED_TCP_BYTES = 8;
    /** The nine flag bits a reply shows (NS 0x100 ... FIN 0x001), without the three reserved ones. */
    private static final int FLAG_BITS = 0x1ff;

    private static final int FIRST_PORT = 20_000;
    private static final int LAST_PORT = 60_999;

    private final int srcIp;
    private final int dstIp;
    private final int dstPort;
    private final int basePort;
    private final int capacity;
    private final long[] seq;
    private final long[] sentUserNanos;  // epoch nanoseconds, user space
    private final long[] sentWireNanos;  // epoch nanoseconds of the SYN in the capture, 0 until seen
    private final boolean[] sent;
    private final boolean[] answered;
    private final Clock clock = Clock.systemUTC();

    ProbeBook(int srcIp, int dstIp, int dstPort, int capacity) {
        if (capacity < 1 || capacity > LAST_PORT - FIRST_PORT) {
            throw new IllegalArgumentException("cannot track " + capacity + " probes");
        }
        this.srcIp = srcIp;
        this.dstIp = dstIp;
        this.dstPort = dstPort;
        this.capacity = capacity;
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        this.basePort = FIRST_PORT + rnd.nextInt(LAST_PORT - FIRST_PORT - capacity + 1);
        this.seq = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            seq[i] = rnd.nextLong(1L << 32);
        }
        this.sentUserNanos = new long[capacity];
        this.sentWireNanos = new long[capacity];
        this.sent = new boolean[capacity];
        this.answered = new boolean[capacity];
    }

    int srcPort(int i) {
        return basePort + i;
    }

    long seq(int i) {
        return seq[i];
    }

    /** Records that probe {@code i} was handed to the kernel now. */
    void markSent(int i) {
        Instant now = clock.instant();
        sentUserNanos[i] = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        sent[i] = true;
    }

    boolean isAnswered(int i) {
        return answered[i];
    }

    /** BPF filter passing the probes' own SYNs, TCP from the target port, and ICMP errors to the source. */
    String filter(boolean withIcmp) {
        String s = Routes.dotted(srcIp);
        String d = Routes.dotted(dstIp);
        String f = "(tcp and src host " + s + " and dst host " + d + " and dst port " + dstPort
                + " and tcp[tcpflags] & (tcp-syn|tcp-ack) == tcp-syn)"
                + " or (tcp and src host " + d + " and dst host " + s + " and src port " + dstPort + ")";
        return withIcmp ? f + " or (icmp and dst host " + s + ")" : f;
    }

    /**
     * Decodes a received frame, {@code frame[0 .. len)}, into {@code d} (Ethernet: {@link PcapChannel} opens
     * nothing else).
     *
     * @return {@link #kind} of the frame
     */
    static int decode(PacketDecoder d, byte[] frame, int len) {
        int captured = Math.max(0, Math.min(len, frame.length));
        d.decode(LinkTypes.EN10MB, frame, 0, captured, captured);
        return kind(d);
    }

    /** What the frame {@code d} last decoded is to the probes: {@link #TCP}, {@link #ICMP_ERROR} or {@link #OTHER}. */
    static int kind(PacketDecoder d) {
        if (d.ipVersion() != 4) {
            return OTHER;
        }
        if (d.hasTcp() && TCP_HEADER <= d.captureEnd() - d.transportOffset()) {
            return TCP;
        }
        if (d.hasIcmp() && (d.icmpType() == ICMP_TIME_EXCEEDED || d.icmpType() == ICMP_UNREACHABLE)
                && d.quotedTcp() && d.quotedIpVersion() == 4 && d.quotedTcpBytes() >= QUOTED_TCP_BYTES) {
            return ICMP_ERROR;
        }
        return OTHER;
    }

    /** The IPv4 address in the low 32 bits of an IPv4-mapped address's low half, big-endian in an int. */
    private static int ipv4(long mappedLo) {
        return (int) mappedLo;
    }

    /**
     * Looks at one received frame, just decoded into {@code d}.
     *
     * @return the index of the probe it answers for the first time, or -1 (own SYN, duplicate, unrelated)
     */
    int observe(PacketDecoder d, long wireNanos) {
        int kind = kind(d);
        int src = ipv4(d.srcLo());
        int dst = ipv4(d.dstLo());
        if (kind == TCP) {
            int flags = d.tcpFlags();
            if (src == srcIp && dst == dstIp && d.dstPort() == dstPort
                    && (flags & (ProbeReply.SYN | ProbeReply.ACK)) == ProbeReply.SYN) {
                int i = index(d.srcPort());
                if (i >= 0 && sent[i] && d.seq() == seq[i] && sentWireNanos[i] == 0) {
                    sentWireNanos[i] = wireNanos;
                }
                return -1;
            }
            if (src == dstIp && dst == srcIp && d.srcPort() == dstPort && (flags & ProbeReply.ACK) != 0) {
                int i = index(d.dstPort());
                if (i >= 0 && sent[i] && !answered[i] && d.ack() == ((seq[i] + 1) & 0xffffffffL)) {
                    answered[i] = true;
                    return i;
                }
            }
            return -1;
        }
        // in an ICMP error the decoder's ports and sequence number are those of the quoted TCP header
        if (kind == ICMP_ERROR && dst == srcIp && ipv4(d.quotedSrcLo()) == srcIp
                && ipv4(d.quotedDstLo()) == dstIp && d.dstPort() == dstPort) {
            int i = index(d.srcPort());
            if (i >= 0 && sent[i] && !answered[i] && d.seq() == seq[i]) {
                answered[i] = true;
                return i;
            }
        }
        return -1;
    }

    /** True when the RTT of probe {@code i} is measured between two capture timestamps. */
    boolean wireTimed(int i) {
        return sentWireNanos[i] != 0;
    }

    /** RTT of probe {@code i} answered at capture time {@code replyWireNanos}. */
    long rttNanos(int i, long replyWireNanos) {
        long start = sentWireNanos[i] != 0 ? sentWireNanos[i] : sentUserNanos[i];
        return Math.max(0, replyWireNanos - start);
    }

    /** The answer in {@code d} (the frame {@link #observe} matched to probe {@code i}), as a record. */
    ProbeReply reply(int i, PacketDecoder d, long replyWireNanos) {
        boolean tcp = kind(d) == TCP;
        int ipLength = d.ipLengthFromFrame() ? 0 : d.ipTotalLength(); // the header's own field
        return new ProbeReply(i, Routes.dotted(ipv4(d.srcLo())), ipLength, d.ttl(), d.dontFragment(), d.ipId(),
                tcp ? d.srcPort() : dstPort, tcp ? d.tcpFlags() & FLAG_BITS : 0, tcp ? d.window() : -1,
                tcp ? -1 : d.icmpType(), tcp ? -1 : d.icmpCode(), rttNanos(i, replyWireNanos), wireTimed(i));
    }

    private int index(int port) {
        int i = port - basePort;
        return i >= 0 && i < capacity ? i : -1;
    }
}
