package io.ackscope.vantage;

import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.ConnectionAnalyzer;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The client's ACK delay seen from both points. At the client's point (A) the time from a server segment's arrival
 * to the client's pure ACK of it is the client host's own delay (Linux: about 40 ms for a delayed ACK); at the
 * server's point (B) the same two segments are one round trip further apart, since the server segment is seen
 * before its trip to the client and the ACK after its trip back. Both are read on one clock each, so the clock
 * offset does not enter.
 *
 * <p>A sample is a pure ACK (no payload, no SYN, FIN or RST) from the client that acknowledges server data the
 * client had not acknowledged before, paired with the oldest such server segment (its first copy at A, the one
 * starting at the client's previous acknowledgement), both seen at both points. A sample is a stall's when the ACK
 * released held server data: the server's next data segment left, at the server's point, within
 * {@link ConnectionAnalyzer#RESUME_WINDOW_NANOS} of the ACK's arrival there (Nagle waiting for that ACK).
 */
public final class AckDelaySplit {
    private final long[] atClient;
    private final long[] atServer;
    private final boolean[] released;

    AckDelaySplit(long[] atClient, long[] atServer, boolean[] released) {
        this.atClient = atClient;
        this.atServer = atServer;
        this.released = released;
    }

    /** Only the samples whose ACK released held server data: the stalls' ACK delays. */
    public AckDelaySplit stalls() {
        int n = 0;
        for (boolean r : released) {
            n += r ? 1 : 0;
        }
        long[] c = new long[n];
        long[] s = new long[n];
        boolean[] r = new boolean[n];
        for (int i = 0, k = 0; i < released.length; i++) {
            if (released[i]) {
                c[k] = atClient[i];
                s[k] = atServer[i];
                r[k++] = true;
            }
        }
        return new AckDelaySplit(c, s, r);
    }

    /** Samples (pairs of values). */
    public int samples() {
        return atClient.length;
    }

    /** The client's ACK delays as measured at the client's point, ns. */
    public long[] atClientNanos() {
        return atClient.clone();
    }

    /** The same ACKs' delays as measured at the server's point, ns (client delay plus the round trip). */
    public long[] atServerNanos() {
        return atServer.clone();
    }

    /** Median at the client's point, microseconds (-1 without samples). */
    public long atClientP50Us() {
        return Percentiles.micros(atClient, 50);
    }

    /** Median at the server's point, microseconds (-1 without samples). */
    public long atServerP50Us() {
        return Percentiles.micros(atServer, 50);
    }

    /** Median of the per-sample difference (the round trip between the points), microseconds. */
    public long pathRttP50Us() {
        long[] d = new long[atClient.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = atServer[i] - atClient[i];
        }
        return Percentiles.micros(d, 50);
    }

    /** Collects samples over the matched connections of a pair. */
    static final class Builder {
        private long[] atClient = new long[64];
        private long[] atServer = new long[64];
        private boolean[] released = new boolean[64];
        private int n;

        /**
         * Adds the samples of one connection.
         *
         * @param partner for each of {@code ca}'s segments (by position), its partner's index in {@code b}, or -1
         */
        void add(PointSegments a, PointConnection ca, PointSegments b, int[] partner) {
            int[] seg = ca.segments();
            Map<Long, Integer> serverData = new HashMap<>();
            long clientAck = -1;
            for (int k = 0; k < seg.length; k++) {
                int i = seg[k];
                if (!a.fromOriginator(i)) {
                    if (a.payloadLength(i) > 0) {
                        serverData.putIfAbsent(a.seq(i), k);
                    }
                    continue;
                }
                if ((a.flags(i) & PacketDecoder.ACK) == 0) {
                    continue;
                }
                long ack = a.ack(i);
                // 32-bit sequence comparison: the acknowledgement moved forward
                boolean advances = clientAck >= 0 && (int) (ack - clientAck) > 0;
                boolean pure = a.payloadLength(i) == 0
                        && (a.flags(i) & (PacketDecoder.SYN | PacketDecoder.FIN | PacketDecoder.RST)) == 0;
                if (advances && pure) {
                    Integer d = serverData.get(clientAck);
                    if (d != null && partner[d] >= 0 && partner[k] >= 0) {
                        add(a.timeNanos(i) - a.timeNanos(seg[d]), b.timeNanos(partner[k]) - b.timeNanos(partner[d]),
                                releases(a, seg, b, partner, k));
                    }
                }
                if (clientAck < 0 || advances) {
                    clientAck = ack;
                }
            }
        }

        /** The server's next data segment after the ACK at k left B within the resume window of its arrival. */
        private static boolean releases(PointSegments a, int[] seg, PointSegments b, int[] partner, int k) {
            long ackAtB = b.timeNanos(partner[k]);
            for (int m = k + 1; m < seg.length; m++) {
                int i = seg[m];
                if (!a.fromOriginator(i) && a.payloadLength(i) > 0) {
                    if (partner[m] < 0) {
                        return false;
                    }
                    long gap = b.timeNanos(partner[m]) - ackAtB;
                    return gap >= 0 && gap <= ConnectionAnalyzer.RESUME_WINDOW_NANOS;
                }
            }
            return false;
        }

        private void add(long client, long server, boolean releasedData) {
            if (n == atClient.length) {
                atClient = Arrays.copyOf(atClient, n * 2);
                atServer = Arrays.copyOf(atServer, n * 2);
                released = Arrays.copyOf(released, n * 2);
            }
            atClient[n] = client;
            atServer[n] = server;
            released[n] = releasedData;
            n++;
        }

        AckDelaySplit build() {
            return new AckDelaySplit(Arrays.copyOf(atClient, n), Arrays.copyOf(atServer, n),
                    Arrays.copyOf(released, n));
        }
    }
}
