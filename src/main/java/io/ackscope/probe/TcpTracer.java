package io.ackscope.probe;

import io.ackscope.decode.PacketDecoder;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapNativeException;

/**
 * {@code traceroute --tcp}: SYNs with TTL 1, 2, ... to the target port; a router where the TTL runs out answers
 * with ICMP time exceeded quoting the probe (matched back by source port and sequence number), the target with a
 * SYN/ACK or RST. Tracing stops at the first hop where the target answered or a router said unreachable.
 *
 * <p>The probes of one hop go out back to back and the hop waits until each is answered or its wait ran out.
 */
public final class TcpTracer {

    /** What one hop produced: one entry per probe, null where the probe went unanswered. */
    public interface HopListener {
        void hop(int ttl, ProbeReply[] replies);
    }

    private final Route route;
    private final int port;
    private final int maxTtl;
    private final int probesPerHop;
    private final long waitNanos;

    /**
     * @param maxTtl       last TTL tried (1..255)
     * @param probesPerHop probes per TTL (1..10)
     * @param waitNanos    how long a probe waits for its answer
     */
    public TcpTracer(Route route, int port, int maxTtl, int probesPerHop, long waitNanos) {
        if (maxTtl < 1 || maxTtl > 255) {
            throw new IllegalArgumentException("max TTL must be 1..255");
        }
        if (probesPerHop < 1 || probesPerHop > 10) {
            throw new IllegalArgumentException("probes per hop must be 1..10");
        }
        this.route = route;
        this.port = port;
        this.maxTtl = maxTtl;
        this.probesPerHop = probesPerHop;
        this.waitNanos = waitNanos;
    }

    /**
     * Runs the trace, handing each hop to {@code listener} as soon as it is complete.
     *
     * @return true when the target answered
     */
    public boolean run(HopListener listener) throws PcapNativeException, NotOpenException, java.io.IOException {
        int src = Routes.toInt(route.source());
        int dst = Routes.toInt(route.destination());
        ProbeBook book = new ProbeBook(src, dst, port, maxTtl * probesPerHop);
        SynPacket syn = new SynPacket(route.nextHopMac(), route.sourceMac(), src, dst, port,
                SynPacket.DEFAULT_WINDOW, true, SynPacket.DEFAULT_OPTIONS);
        byte[] frame = new byte[syn.frameLength()];
        PacketDecoder view = new PacketDecoder();
        try (PcapChannel ch = PcapChannel.open(route.device(), book.filter(true), route.loopback())) {
            for (int ttl = 1; ttl <= maxTtl; ttl++) {
                int first = (ttl - 1) * probesPerHop;
                ProbeReply[] replies = new ProbeReply[probesPerHop];
                for (int q = 0; q < probesPerHop; q++) {
                    int i = first + q;
                    int len = syn.write(frame, ttl, i + 1, book.srcPort(i), book.seq(i));
                    book.markSent(i);
                    ch.send(frame, len, dst);
                }
                long deadline = System.nanoTime() + waitNanos;
                int open = probesPerHop;
                while (open > 0 && System.nanoTime() - deadline < 0) {
                    byte[] b = ch.next();
                    if (b == null) {
                        continue;
                    }
                    long ts = ch.timestampNanos();
                    ProbeBook.decode(view, b, b.length);
                    int i = book.observe(view, ts);
                    if (i >= first && i < first + probesPerHop) {
                        replies[i - first] = book.reply(i, view, ts);
                        open--;
                    }
                    // an answer to an earlier hop's probe arriving late is dropped: that hop is already printed
                }
                listener.hop(ttl, replies);
                if (reachedEnd(replies)) {
                    return targetAnswered(replies);
                }
            }
        }
        return false;
    }

    /** The target answered with TCP, or some router reported it unreachable. */
    private static boolean reachedEnd(ProbeReply[] replies) {
        for (ProbeReply r : replies) {
            if (r != null && (r.isTcp() || r.icmpType() == ProbeBook.ICMP_UNREACHABLE)) {
                return true;
            }
        }
        return false;
    }

    private static boolean targetAnswered(ProbeReply[] replies) {
        for (ProbeReply r : replies) {
            if (r != null && r.isTcp()) {
                return true;
            }
        }
        return false;
    }
}
