package io.ackscope.probe;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Probes by timing {@code connect()}: the fallback without root or libpcap. A completed connect is a SYN/ACK; a
 * refused one a RST; the socket is then closed with an RST (linger 0) so no TIME_WAIT is left behind. The time
 * includes the system calls on both sides, so it is a little above the wire RTT.
 */
public final class ConnectProber {

    private final InetAddress target;
    private final int port;
    private final int count;
    private final long intervalNanos;
    private final long timeoutNanos;

    public ConnectProber(InetAddress target, int port, int count, long intervalNanos, long timeoutNanos) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1");
        }
        this.target = target;
        this.port = port;
        this.count = count;
        this.intervalNanos = intervalNanos;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Runs the probes one after the other, each at {@code start + i * interval} or when the previous one ends.
     *
     * @throws IOException a failure that is neither a refusal nor a timeout (no route, unreachable network)
     */
    public RttStats run(Consumer<ProbeReply> onReply) throws IOException, InterruptedException {
        RttStats stats = new RttStats();
        InetSocketAddress addr = new InetSocketAddress(target, port);
        int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long wait = start + i * intervalNanos - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            stats.sent();
            int flags;
            long t0;
            long t1;
            try (Socket s = new Socket()) {
                s.setSoLinger(true, 0);
                t0 = System.nanoTime();
                try {
                    s.connect(addr, timeoutMs);
                    t1 = System.nanoTime();
                    flags = ProbeReply.SYN | ProbeReply.ACK;
                } catch (ConnectException e) {
                    t1 = System.nanoTime();
                    if (!String.valueOf(e.getMessage()).contains("refused")) {
                        throw e;
                    }
                    flags = ProbeReply.RST | ProbeReply.ACK;
                } catch (SocketTimeoutException e) {
                    continue; // lost
                }
            }
            long rtt = t1 - t0;
            stats.received(rtt);
            onReply.accept(new ProbeReply(i, target.getHostAddress(), -1, -1, false, -1, port, flags, -1, -1, -1,
                    rtt, false));
        }
        return stats;
    }
}
