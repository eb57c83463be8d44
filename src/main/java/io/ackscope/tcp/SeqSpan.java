package io.ackscope.tcp;

/**
 * The sequence space one side of a connection used, as Zeek's {@code TCP_Endpoint} accounts it for
 * {@code conn.log}'s {@code orig_bytes}/{@code resp_bytes}, and the parts of it no captured segment carried (Zeek's
 * content gaps, {@code missed_bytes}).
 *
 * <p>The start is the ISN of the side's SYN, or one below the first sequence number seen when the SYN was not
 * captured (Zeek numbers a partial connection as though a SYN had been seen). The high mark is the furthest the side
 * got: the end of a segment ({@code seq + len}, plus one for a SYN and one for a FIN) or the peer's acknowledgement
 * of it, whichever is further, counted on 64 bits so the 32-bit sequence numbers may wrap any number of times
 * (positions move by signed 32-bit differences, as Zeek's {@code seq_wraps}). {@link #bytes} is Zeek's
 * {@code TCP_Endpoint::Size}: the high mark minus the start, minus the SYN's octet, minus the FIN's when the side
 * sent one. A retransmission moves nothing, so it is counted once.
 *
 * <p>A segment that starts past the high mark, or an acknowledgement past it, leaves a hole; a later segment
 * covering it (a retransmission the capture saw) fills it. {@link #missedBytes} is the bytes of the holes still open.
 * At most {@link #MAX_HOLES} are kept (the arrays start at {@link #FIRST_HOLES} and double): when a new one would
 * exceed that, the oldest is counted as missed for good (bounded memory). A loss episode with SACK recovery opens
 * dozens at once (109 gaps on {@code lab-cause-queueing}, all filled later), so the bound is far above that.
 */
final class SeqSpan implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Holes kept open at once. */
    static final int MAX_HOLES = 4096;
    /** Size of the hole arrays at the first hole. */
    static final int FIRST_HOLES = 4;

    private boolean started;
    /** Raw sequence number of the start (ISN, or the first seq - 1). */
    private long start;
    /** The high mark, raw and as its distance from the start. */
    private long highRaw;
    private long high;
    private boolean fin;
    /** Open holes as [lo, hi) distances from the start, oldest first; allocated at the first hole. */
    private long[] holeLo, holeHi;
    private int holes;
    /** Bytes of holes given up on ({@link #MAX_HOLES}). */
    private long missedForGood;

    /** Accounts one segment this side sent. */
    void segment(long seq, int payloadLength, boolean syn, boolean finFlag) {
        if (!started) {
            started = true;
            start = syn ? seq : Seq.add(seq, -1);
            highRaw = Seq.add(start, 1);
            high = 1;
        }
        fin |= finFlag;
        long end = Seq.add(seq, (long) payloadLength + (syn ? 1 : 0) + (finFlag ? 1 : 0));
        long lo = high + Seq.diff(seq, highRaw);
        long hi = high + Seq.diff(end, highRaw);
        if (hi <= lo) {
            return;
        }
        if (hi > high) {
            if (lo > high) {
                addHole(high, lo);
            }
            high = hi;
            highRaw = end;
        }
        fill(lo, Math.min(hi, high));
    }

    /** Accounts the peer's acknowledgement number {@code ack} of this side's data (a segment with ACK set). */
    void acked(long ack) {
        if (!started) {
            return;
        }
        int d = Seq.diff(ack, highRaw);
        if (d > 0) {
            addHole(high, high + d);
            high += d;
            highRaw = ack;
        }
    }

    /** Zeek's {@code orig_bytes}/{@code resp_bytes} for this side. */
    long bytes() {
        long size = started ? high : 0;
        if (size > 0) {
            size--;   // the SYN's octet, or the one a partial connection is numbered as though it had
        }
        if (fin && size > 0) {
            size--;
        }
        return size;
    }

    /** Bytes of this side's sequence space no captured segment carried (Zeek's {@code missed_bytes} share). */
    long missedBytes() {
        long m = missedForGood;
        for (int i = 0; i < holes; i++) {
            m += holeHi[i] - holeLo[i];
        }
        return m;
    }

    private void addHole(long lo, long hi) {
        if (holeLo == null) {
            holeLo = new long[FIRST_HOLES];
            holeHi = new long[FIRST_HOLES];
        } else if (holes == holeLo.length && holes < MAX_HOLES) {
            holeLo = java.util.Arrays.copyOf(holeLo, holes * 2);
            holeHi = java.util.Arrays.copyOf(holeHi, holes * 2);
        }
        if (holes == holeLo.length) {
            missedForGood += holeHi[0] - holeLo[0];
            remove(0);
        }
        holeLo[holes] = lo;
        holeHi[holes] = hi;
        holes++;
    }

    private void remove(int i) {
        System.arraycopy(holeLo, i + 1, holeLo, i, holes - i - 1);
        System.arraycopy(holeHi, i + 1, holeHi, i, holes - i - 1);
        holes--;
    }

    /** Takes [lo, hi) out of the open holes. */
    private void fill(long lo, long hi) {
        for (int i = 0; i < holes; i++) {
            long a = holeLo[i];
            long b = holeHi[i];
            if (hi <= a || lo >= b) {
                continue;
            }
            if (lo <= a && hi >= b) {
                remove(i--);
            } else if (lo <= a) {
                holeLo[i] = hi;
            } else if (hi >= b) {
                holeHi[i] = lo;
            } else {
                holeHi[i] = lo;     // split: the right part becomes a hole of its own
                if (holes == holeLo.length && holes < MAX_HOLES) {
                    holeLo = java.util.Arrays.copyOf(holeLo, holes * 2);
                    holeHi = java.util.Arrays.copyOf(holeHi, holes * 2);
                }
                if (holes == holeLo.length) {
                    missedForGood += b - hi;
                } else {
                    System.arraycopy(holeLo, i + 1, holeLo, i + 2, holes - i - 1);
                    System.arraycopy(holeHi, i + 1, holeHi, i + 2, holes - i - 1);
                    holeLo[i + 1] = hi;
                    holeHi[i + 1] = b;
                    holes++;
                    i++;
                }
            }
        }
    }

    /** Held state read back ({@link TcpEngine#resume}) must index its arrays as this class does. */
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        int cap = holeLo == null ? 0 : holeLo.length;
        if ((holeLo == null) != (holeHi == null) || cap > MAX_HOLES || (cap > 0 && holeHi.length != cap)
                || holes < 0 || holes > cap) {
            throw new java.io.InvalidObjectException("malformed sequence span");
        }
    }
}
