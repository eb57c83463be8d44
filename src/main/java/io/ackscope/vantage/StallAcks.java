package io.ackscope.vantage;

import io.ackscope.decode.PacketDecoder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stall's delayed ACK as both points saw it. One point alone reads a host's ACK delay inflated by the path when
 * it stands at the other end (a server-side capture sees the client's 40 ms delayed ACK as 40 ms plus a round
 * trip); the point nearer the acking host reads the host's own figure. For the ACK of a stall (its frame at one
 * point) this gives its delay at each point, as {@link ClientAckDelays} measures it for either side: from the first
 * copy of the oldest data that the ACK newly acknowledges (the data starting at the acker's previous
 * acknowledgement) to the ACK, each at the same point, so no clock offset enters.
 */
public final class StallAcks {
    private StallAcks() {
    }

    /**
     * The ACK delay at each point, the frame at each, and who acked.
     *
     * @param ackerIsOriginatorAtX the acking host is X's originator (the client, when the points agree on it)
     */
    public record Delays(long frameX, long frameY, long atXNanos, long atYNanos, boolean ackerIsOriginatorAtX)
            implements java.io.Serializable {
    }

    /**
     * The delays of the ACKs captured as the frames {@code atX} at X or {@code atY} at Y in the matched connections
     * {@code m}, in one walk over X's segments; an ACK is left out when it did not move its sender's
     * acknowledgement forward, or it or its data was not seen at both points.
     */
    public static List<Delays> of(PointSegments x, PointSegments y, PairAnalysis.StreamPair m, Set<Long> atX,
                                  Set<Long> atY) {
        int[] sx = m.x().segments();
        int[] partner = m.partnerOfX();
        List<Delays> out = new ArrayList<>();
        // per acking side (0: X's originator): the other side's data by sequence number, and the last ACK
        List<Map<Long, Integer>> data = List.of(new HashMap<>(), new HashMap<>());
        long[] acked = {-1, -1};
        for (int j = 0; j < sx.length; j++) {
            int i = sx[j];
            int side = x.fromOriginator(i) ? 0 : 1;
            if (x.payloadLength(i) > 0) {
                data.get(1 - side).putIfAbsent(x.seq(i), j);
            }
            if ((x.flags(i) & PacketDecoder.ACK) == 0) {
                continue;
            }
            boolean advances = acked[side] >= 0 && (int) (x.ack(i) - acked[side]) > 0;
            if (advances && partner[j] >= 0 && (atX.contains(x.order(i)) || atY.contains(y.order(partner[j])))) {
                Integer d = data.get(side).get(acked[side]);
                if (d != null && partner[d] >= 0) {
                    out.add(new Delays(x.order(i), y.order(partner[j]), x.timeNanos(i) - x.timeNanos(sx[d]),
                            y.timeNanos(partner[j]) - y.timeNanos(partner[d]), side == 0));
                }
            }
            if (acked[side] < 0 || advances) {
                acked[side] = x.ack(i);
            }
        }
        return out;
    }
}
