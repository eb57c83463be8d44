package io.ackscope.vantage;

import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.Addresses;

import java.util.Arrays;

/**
 * One connection as one capture point saw it: its 4-tuple as the originator sent it, the initial sequence numbers
 * of both sides (-1 when that SYN was not seen), the originator's first TSval, and its segments' indices into the
 * point's {@link PointSegments} in capture order. The arrays are the record's own and are not copied by the
 * accessors: read them, do not change them.
 */
public record PointConnection(long stream, long[] tuple, int[] ports, long origIsn, long respIsn, long origFirstTsVal,
                              long firstNanos, long lastNanos, int[] segments) {

    /** "client:port > server:port", for messages. */
    public String describe() {
        return Addresses.endpoint(tuple[0], tuple[1], ports[0]) + " > " + Addresses.endpoint(tuple[2], tuple[3],
                ports[1]);
    }

    /** Collects one connection's segments while a point is read. */
    static final class Builder {
        private final long stream;
        private final long[] tuple;
        private final int[] ports;
        private int[] idx = new int[16];
        private int n;

        Builder(long stream, long[] tuple, int[] ports) {
            this.stream = stream;
            this.tuple = tuple.clone();
            this.ports = ports.clone();
        }

        void add(int i) {
            if (n == idx.length) {
                idx = Arrays.copyOf(idx, n * 2);
            }
            idx[n++] = i;
        }

        /** The indices in capture order: as added, unless the engine reported some frames late (replayed SYNs). */
        private int[] inCaptureOrder(PointSegments p) {
            int[] out = Arrays.copyOf(idx, n);
            for (int k = 1; k < n; k++) {
                if (p.captureOrder(out[k - 1]) > p.captureOrder(out[k])) {
                    Integer[] boxed = new Integer[n];
                    for (int j = 0; j < n; j++) {
                        boxed[j] = out[j];
                    }
                    Arrays.sort(boxed, (x, y) -> Long.compare(p.captureOrder(x), p.captureOrder(y)));
                    for (int j = 0; j < n; j++) {
                        out[j] = boxed[j];
                    }
                    break;
                }
            }
            return out;
        }

        PointConnection build(PointSegments p) {
            int[] sorted = inCaptureOrder(p);
            long origIsn = -1, respIsn = -1, origTs = -1, first = Long.MAX_VALUE, last = Long.MIN_VALUE;
            for (int k = 0; k < n; k++) {
                int i = sorted[k];
                first = Math.min(first, p.timeNanos(i));
                last = Math.max(last, p.timeNanos(i));
                boolean syn = (p.flags(i) & PacketDecoder.SYN) != 0;
                if (syn && p.fromOriginator(i) && origIsn < 0) {
                    origIsn = p.seq(i);
                } else if (syn && !p.fromOriginator(i) && respIsn < 0) {
                    respIsn = p.seq(i);
                }
                if (p.fromOriginator(i) && origTs < 0 && p.tsVal(i) >= 0) {
                    origTs = p.tsVal(i);
                }
            }
            return new PointConnection(stream, tuple, ports, origIsn, respIsn, origTs, first, last, sorted);
        }
    }
}
