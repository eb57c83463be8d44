package io.ackscope.tcp;

/**
 * Segments one direction has sent that the peer has not yet acknowledged, as Wireshark keeps them
 * ({@code tcp_unacked_t}), bounded at {@link #MAX_SEGMENTS} like tshark's {@code TCP_MAX_UNACKED_SEGMENTS}.
 *
 * <p>Parallel primitive arrays in insertion order (index 0 oldest). Wireshark walks its list from the newest
 * entry to the oldest; {@link ConnectionAnalyzer} does the same by walking indices downwards. Segments that
 * arrive while the list is full are not stored and are counted in {@link #dropped()}.
 */
final class UnackedList implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** tshark's TCP_MAX_UNACKED_SEGMENTS. */
    static final int MAX_SEGMENTS = 10_000;

    private static final long[] NO_LONGS = {};
    private static final int[] NO_INTS = {};
    private static final boolean[] NO_BOOLEANS = {};

    // empty until the first segment, then 1, 2, 4, ... entries: most directions of most connections hold one or
    // two segments at a time (a SYN, a request), and a scan's half-open connections hold one SYN
    long[] seq = NO_LONGS;
    long[] nextSeq = NO_LONGS;
    long[] frame = NO_LONGS;
    long[] ts = NO_LONGS;
    int[] payload = NO_INTS;
    /** The segment is a retransmission, or a later segment retransmitted some of its bytes (Karn's rule). */
    boolean[] retransmitted = NO_BOOLEANS;
    int size;
    private long dropped;

    /** Held state read back ({@link TcpEngine#resume}) must index its arrays as this class does. */
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        int n = seq.length;
        if (size < 0 || size > n || n > MAX_SEGMENTS || nextSeq.length != n || frame.length != n || ts.length != n
                || payload.length != n || retransmitted.length != n || dropped < 0) {
            throw new java.io.InvalidObjectException("malformed unacknowledged segments");
        }
    }

    boolean isFull() {
        return size >= MAX_SEGMENTS;
    }

    long dropped() {
        return dropped;
    }

    void countDrop() {
        dropped++;
    }

    void add(long s, long next, long frameNumber, long timestamp, int len, boolean retrans) {
        if (size == seq.length) {
            int n = size == 0 ? 1 : Math.min(MAX_SEGMENTS, size * 2);
            seq = java.util.Arrays.copyOf(seq, n);
            nextSeq = java.util.Arrays.copyOf(nextSeq, n);
            frame = java.util.Arrays.copyOf(frame, n);
            ts = java.util.Arrays.copyOf(ts, n);
            payload = java.util.Arrays.copyOf(payload, n);
            retransmitted = java.util.Arrays.copyOf(retransmitted, n);
        }
        seq[size] = s;
        nextSeq[size] = next;
        frame[size] = frameNumber;
        ts[size] = timestamp;
        payload[size] = len;
        retransmitted[size] = retrans;
        size++;
    }

    /** Marks every stored segment overlapping [s, next) as retransmitted (Karn ambiguity). */
    void markRetransmitted(long s, long next) {
        for (int i = 0; i < size; i++) {
            if (Seq.lt(seq[i], next) && Seq.gt(nextSeq[i], s)) {
                retransmitted[i] = true;
            }
        }
    }

    /** Marks entry {@code i} for removal by the next {@link #compact()}. */
    void markRemoved(int i) {
        frame[i] = -1;
    }

    /** Drops the entries marked by {@link #markRemoved}, keeping the order of the rest. */
    void compact() {
        int w = 0;
        for (int r = 0; r < size; r++) {
            if (frame[r] < 0) {
                continue;
            }
            if (w != r) {
                seq[w] = seq[r];
                nextSeq[w] = nextSeq[r];
                frame[w] = frame[r];
                ts[w] = ts[r];
                payload[w] = payload[r];
                retransmitted[w] = retransmitted[r];
            }
            w++;
        }
        size = w;
    }

    /** Timestamp of the oldest stored segment, or {@code fallback} when empty. */
    long oldestTs(long fallback) {
        return size == 0 ? fallback : ts[0];
    }
}
