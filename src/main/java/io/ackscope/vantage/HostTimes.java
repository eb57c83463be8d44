package io.ackscope.vantage;

import java.util.Arrays;

/**
 * One host's time between two segments (received one, then sent one), measured at both points of a pair. At the
 * point next to that host it is the host's own time; at the other point the two segments are one round trip
 * between the points further apart (the received segment is seen before its trip to the host, the sent one after
 * its trip back). Each value is read on one clock, so the clock offset does not enter. Two kinds
 * ({@link PairAnalysis}): the client's ACK delays ({@link ClientAckDelays}) and the server's turnarounds from a
 * request to its response ({@link ServerTurnarounds}). Some samples are marked (what marked means is the kind's).
 */
public final class HostTimes {
    private final long[] atA;
    private final long[] atB;
    private final boolean[] marked;

    HostTimes(long[] atA, long[] atB, boolean[] marked) {
        this.atA = atA;
        this.atB = atB;
        this.marked = marked;
    }

    /** Only the marked samples. */
    public HostTimes marked() {
        int n = 0;
        for (boolean m : marked) {
            n += m ? 1 : 0;
        }
        long[] a = new long[n];
        long[] b = new long[n];
        boolean[] m = new boolean[n];
        for (int i = 0, k = 0; i < marked.length; i++) {
            if (marked[i]) {
                a[k] = atA[i];
                b[k] = atB[i];
                m[k++] = true;
            }
        }
        return new HostTimes(a, b, m);
    }

    /** Samples (pairs of values). */
    public int samples() {
        return atA.length;
    }

    /** The values measured at point A (nearer the clients), ns. */
    public long[] atANanos() {
        return atA.clone();
    }

    /** The same samples measured at point B, ns. */
    public long[] atBNanos() {
        return atB.clone();
    }

    /** Median at A, microseconds (-1 without samples). */
    public long atAP50Us() {
        return Percentiles.micros(atA, 50);
    }

    /** Median at B, microseconds (-1 without samples). */
    public long atBP50Us() {
        return Percentiles.micros(atB, 50);
    }

    /**
     * Median of the per-sample difference, microseconds: the round trip between the points (B minus A for the
     * client's times, A minus B for the server's: positive either way).
     */
    public long pathRttP50Us() {
        long[] d = new long[atA.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.abs(atB[i] - atA[i]);
        }
        return Percentiles.micros(d, 50);
    }

    /** Collects samples. */
    static final class Builder {
        private long[] atA = new long[64];
        private long[] atB = new long[64];
        private boolean[] marked = new boolean[64];
        private int n;

        void add(long a, long b, boolean mark) {
            if (n == atA.length) {
                atA = Arrays.copyOf(atA, n * 2);
                atB = Arrays.copyOf(atB, n * 2);
                marked = Arrays.copyOf(marked, n * 2);
            }
            atA[n] = a;
            atB[n] = b;
            marked[n] = mark;
            n++;
        }

        HostTimes build() {
            return new HostTimes(Arrays.copyOf(atA, n), Arrays.copyOf(atB, n), Arrays.copyOf(marked, n));
        }
    }
}
