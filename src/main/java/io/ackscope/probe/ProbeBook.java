package io.ackscope.probe;

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
 */
final class ProbeBook {

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
     * Looks at one received frame.
     *
     * @return the index of the probe it answers for the first time, or -1 (own SYN, duplicate, unrelated)
     */
    int observe(ReplyView v, long wireNanos) {
        if (v.kind() == ReplyView.TCP) {
            if (v.src() == srcIp && v.dst() == dstIp && v.dstPort() == dstPort
                    && (v.flags() & (ProbeReply.SYN | ProbeReply.ACK)) == ProbeReply.SYN) {
                int i = index(v.srcPort());
                if (i >= 0 && sent[i] && v.seq() == seq[i] && sentWireNanos[i] == 0) {
                    sentWireNanos[i] = wireNanos;
                }
                return -1;
            }
            if (v.src() == dstIp && v.dst() == srcIp && v.srcPort() == dstPort
                    && (v.flags() & ProbeReply.ACK) != 0) {
                int i = index(v.dstPort());
                if (i >= 0 && sent[i] && !answered[i] && v.ack() == ((seq[i] + 1) & 0xffffffffL)) {
                    answered[i] = true;
                    return i;
                }
            }
            return -1;
        }
        if (v.kind() == ReplyView.ICMP_ERROR && v.dst() == srcIp && v.quotedSrc() == srcIp
                && v.quotedDst() == dstIp && v.quotedDstPort() == dstPort) {
            int i = index(v.quotedSrcPort());
            if (i >= 0 && sent[i] && !answered[i] && v.quotedSeq() == seq[i]) {
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

    /** The answer in {@code v} to probe {@code i}, as a record. */
    ProbeReply reply(int i, ReplyView v, long replyWireNanos) {
        boolean tcp = v.kind() == ReplyView.TCP;
        return new ProbeReply(i, Routes.dotted(v.src()), v.ipLength(), v.ttl(), v.dontFragment(), v.ipId(),
                tcp ? v.srcPort() : dstPort, tcp ? v.flags() : 0, tcp ? v.window() : -1,
                tcp ? -1 : v.icmpType(), tcp ? -1 : v.icmpCode(), rttNanos(i, replyWireNanos), wireTimed(i));
    }

    private int index(int port) {
        int i = port - basePort;
        return i >= 0 && i < capacity ? i : -1;
    }
}
