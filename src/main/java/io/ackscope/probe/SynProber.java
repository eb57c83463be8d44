package io.ackscope.probe;

import io.ackscope.decode.PacketDecoder;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapNativeException;

import java.util.function.Consumer;

/**
 * hping3-style SYN probes: crafted SYNs injected through libpcap, answers read back through a BPF filter, RTT
 * from SYN to SYN/ACK (open port) or RST (closed port) in capture timestamps.
 *
 * <p>Probes leave at {@code start + i * interval}, whatever happens to earlier ones; each waits up to the timeout
 * for its answer while later ones go out. The kernel answers each SYN/ACK with a RST, since no socket of its own
 * sent the SYN; hping3 shows the same.
 */
public final class SynProber implements java.io.Closeable {

    private final Route route;
    private final int port;
    private final int count;
    private final long intervalNanos;
    private final long timeoutNanos;
    private final ProbeBook book;
    private final PcapChannel channel;

    private SynProber(Route route, int port, int count, long intervalNanos, long timeoutNanos, ProbeBook book,
                      PcapChannel channel) {
        this.route = route;
        this.port = port;
        this.count = count;
        this.intervalNanos = intervalNanos;
        this.timeoutNanos = timeoutNanos;
        this.book = book;
        this.channel = channel;
    }

    /**
     * Opens the libpcap handles; nothing is sent yet.
     *
     * @param route         where the probes go out
     * @param port          target TCP port
     * @param count         probes to send, at least 1
     * @param intervalNanos time between probes
     * @param timeoutNanos  how long a probe waits for its answer
     * @throws PcapNativeException libpcap refused: no permission (needs root or CAP_NET_RAW), device, link type
     * @throws java.io.IOException the raw socket used on loopback could not be opened
     */
    public static SynProber open(Route route, int port, int count, long intervalNanos, long timeoutNanos)
            throws PcapNativeException, NotOpenException, java.io.IOException {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1");
        }
        ProbeBook book = new ProbeBook(Routes.toInt(route.source()), Routes.toInt(route.destination()), port, count);
        PcapChannel ch = PcapChannel.open(route.device(), book.filter(false), route.loopback());
        return new SynProber(route, port, count, intervalNanos, timeoutNanos, book, ch);
    }

    /** Bytes on the wire of each probe's IPv4 packet. */
    public static int probeIpLength() {
        return SynPacket.IPV4_HEADER + SynPacket.TCP_HEADER + SynPacket.DEFAULT_OPTIONS.length;
    }

    /**
     * Sends the probes and hands each answer to {@code onReply} as it arrives.
     *
     * @return counts and RTT statistics
     * @throws PcapNativeException libpcap failed to send
     * @throws java.io.IOException the raw socket failed to send
     */
    public RttStats run(Consumer<ProbeReply> onReply)
            throws PcapNativeException, NotOpenException, java.io.IOException {
        int src = Routes.toInt(route.source());
        int dst = Routes.toInt(route.destination());
        SynPacket syn = new SynPacket(route.nextHopMac(), route.sourceMac(), src, dst, port,
                SynPacket.DEFAULT_WINDOW, true, SynPacket.DEFAULT_OPTIONS);
        byte[] frame = new byte[syn.frameLength()];
        PacketDecoder view = new PacketDecoder();
        RttStats stats = new RttStats();
        long[] deadline = new long[count];
        long start = System.nanoTime();
        int next = 0;
        while (true) {
            long now = System.nanoTime();
            if (next < count && now - (start + next * intervalNanos) >= 0) {
                int len = syn.write(frame, 64, next + 1, book.srcPort(next), book.seq(next));
                book.markSent(next);
                channel.send(frame, len, dst);
                stats.sent();
                deadline[next] = System.nanoTime() + timeoutNanos;
                next++;
                continue;
            }
            if (next == count && allSettled(book, deadline, count, now)) {
                break;
            }
            byte[] b = channel.next();
            if (b == null) {
                continue;
            }
            long ts = channel.timestampNanos();
            ProbeBook.decode(view, b, b.length);
            int i = book.observe(view, ts);
            if (i >= 0) {
                ProbeReply r = book.reply(i, view, ts);
                if (r.rttNanos() <= timeoutNanos) {
                    stats.received(r.rttNanos());
                    onReply.accept(r);
                }
            }
        }
        return stats;
    }

    @Override
    public void close() {
        channel.close();
    }

    /** Every sent probe is answered or past its deadline. */
    private static boolean allSettled(ProbeBook book, long[] deadline, int sent, long now) {
        for (int i = 0; i < sent; i++) {
            if (!book.isAnswered(i) && now - deadline[i] < 0) {
                return false;
            }
        }
        return true;
    }
}
