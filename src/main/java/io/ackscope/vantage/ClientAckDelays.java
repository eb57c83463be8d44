package io.ackscope.vantage;

import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.ConnectionAnalyzer;

import java.util.HashMap;
import java.util.Map;

/**
 * The client's ACK delays as {@link HostTimes}: at the client's point (A) the client host's own delay (Linux: about
 * 40 ms for a delayed ACK), at the server's point (B) that plus a round trip.
 *
 * <p>A sample is a pure ACK (no payload, no SYN, FIN or RST) from the client that acknowledges server data the
 * client had not acknowledged before, paired with the oldest such server segment (its first copy at A, the one
 * starting at the client's previous acknowledgement), both seen at both points. A sample is marked when the ACK
 * released held server data, i.e. it is a stall's: the server's next data segment left, at the server's point,
 * within {@link ConnectionAnalyzer#RESUME_WINDOW_NANOS} of the ACK's arrival there (Nagle waiting for that ACK),
 * and no client data came in between (then the server's data answered that, not the ACK).
 */
final class ClientAckDelays {
    private ClientAckDelays() {
    }

    /**
     * Adds the samples of one connection.
     *
     * @param partner for each of {@code ca}'s segments (by position), its partner's index in {@code b}, or -1
     */
    static void add(HostTimes.Builder out, PointSegments a, PointConnection ca, PointSegments b, int[] partner) {
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
                    out.add(a.timeNanos(i) - a.timeNanos(seg[d]), b.timeNanos(partner[k]) - b.timeNanos(partner[d]),
                            releases(a, seg, b, partner, k));
                }
            }
            if (clientAck < 0 || advances) {
                clientAck = ack;
            }
        }
    }

    /**
     * The server's next data segment after the ACK at k, with no client data in between, left B within the resume
     * window of the ACK's arrival.
     */
    private static boolean releases(PointSegments a, int[] seg, PointSegments b, int[] partner, int k) {
        long ackAtB = b.timeNanos(partner[k]);
        for (int m = k + 1; m < seg.length; m++) {
            int i = seg[m];
            if (a.fromOriginator(i) && a.payloadLength(i) > 0) {
                return false;      // a new request came first: the server's next data answers it
            }
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
}
