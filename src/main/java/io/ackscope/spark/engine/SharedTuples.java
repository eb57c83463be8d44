package io.ackscope.spark.engine;

import io.ackscope.spark.source.SegmentRows;
import org.apache.spark.sql.catalyst.InternalRow;

import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.Segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The 4-tuples of one shuffle partition that two or more sources saw, noted while the engine's first pass reads it:
 * only their connections can be matched between sources, so the vantage pass ({@link VantagePlan#find}) holds the
 * segments of those alone, and its memory follows the traffic the sources have in common, not the partition's
 * size. A partition holds a 4-tuple's frames of every source (the shuffle key ignores the source), so this is
 * decided per partition. Keys are {@link SegmentRows#connectionKey} hashes: a collision only keeps a connection
 * that then does not match.
 *
 * <p>It also notes each 4-tuple's first handshake (the originator's and the responder's initial sequence numbers):
 * those of the 4-tuples one source alone saw ({@link #lone()}) are what {@link NatPairs} pairs across partitions,
 * connections whose addresses a NAT between the sources rewrote.
 */
final class SharedTuples {
    private final ArchiveNumbering numbering;
    /** Per 4-tuple key, the one source that saw it, or -1 once a second did. */
    private final Map<Long, Integer> sourceOf = new HashMap<>();
    /** Per 4-tuple key with a SYN seen, its first SYN's sequence number and the SYN-ACK's after it (-1 until). */
    private final Map<Long, long[]> isns = new HashMap<>();
    private final Segment s = new Segment();

    SharedTuples(ArchiveNumbering numbering) {
        this.numbering = numbering;
    }

    /** {@code rows}, each noted as it passes. */
    Iterator<InternalRow> watch(Iterator<InternalRow> rows) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public InternalRow next() {
                InternalRow r = rows.next();
                int source = numbering.source(r.getInt(SegmentRows.FILE_INDEX));
                sourceOf.merge(r.getLong(SegmentRows.KEY), source, (a, b) -> a.equals(b) ? a : -1);
                SegmentRows.fill(s, r);
                if ((s.flags & PacketDecoder.SYN) != 0) {
                    handshake(r.getLong(SegmentRows.KEY), (s.flags & PacketDecoder.ACK) != 0, s.seq);
                }
                return r;
            }
        };
    }

    private void handshake(long key, boolean synAck, long seq) {
        long[] i = isns.get(key);
        if (i == null && !synAck) {
            isns.put(key, new long[]{seq, -1});
        } else if (i != null && synAck && i[1] < 0) {
            i[1] = seq;
        }
    }

    /** The 4-tuples one source alone saw whose first handshake was seen both ways, by key. */
    List<NatPairs.Candidate> lone() {
        List<NatPairs.Candidate> out = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : isns.entrySet()) {
            int source = sourceOf.get(e.getKey());
            if (source >= 0 && e.getValue()[1] >= 0) {
                out.add(new NatPairs.Candidate(source, e.getKey(), e.getValue()[0], e.getValue()[1]));
            }
        }
        out.sort(java.util.Comparator.comparingLong(NatPairs.Candidate::tupleKey));
        return out;
    }

    /**
     * Per source of the run, the keys of the 4-tuples it alone saw ({@code [0]}) and the first handshakes of those seen
     * both ways ({@code [1]}: {@link #isnPair}), each sorted: what a carrying run keeps so that a later run can tell
     * whether a new connection was also seen from another capture point ({@link io.ackscope.spark.carry.SourceTuples}).
     */
    long[][][] bySource(int sources) {
        long[][] keys = new long[sources][], pairs = new long[sources][];
        int[] nk = new int[sources], np = new int[sources];
        for (int s = 0; s < sources; s++) {
            keys[s] = new long[16];
            pairs[s] = new long[16];
        }
        for (Map.Entry<Long, Integer> e : sourceOf.entrySet()) {
            int s = e.getValue();
            if (s < 0) {
                continue;
            }
            if (nk[s] == keys[s].length) {
                keys[s] = Arrays.copyOf(keys[s], 2 * nk[s]);
            }
            keys[s][nk[s]++] = e.getKey();
            long[] i = isns.get(e.getKey());
            if (i != null && i[1] >= 0) {
                if (np[s] == pairs[s].length) {
                    pairs[s] = Arrays.copyOf(pairs[s], 2 * np[s]);
                }
                pairs[s][np[s]++] = isnPair(i[0], i[1]);
            }
        }
        long[][][] out = new long[2][sources][];
        for (int s = 0; s < sources; s++) {
            out[0][s] = Arrays.copyOf(keys[s], nk[s]);
            Arrays.sort(out[0][s]);
            out[1][s] = Arrays.copyOf(pairs[s], np[s]);
            Arrays.sort(out[1][s]);
        }
        return out;
    }

    /** A first handshake as one long: the originator's and the responder's initial sequence numbers (32 bits each). */
    static long isnPair(long originatorIsn, long responderIsn) {
        return (originatorIsn << 32) | (responderIsn & 0xffffffffL);
    }

    /** The keys two or more sources saw, sorted. */
    long[] shared() {
        return sourceOf.entrySet().stream().filter(e -> e.getValue() < 0).mapToLong(Map.Entry::getKey).sorted()
                .toArray();
    }

    /** {@code key} is in {@code sorted} (a {@link #shared()} array). */
    static boolean contains(long[] sorted, long key) {
        return Arrays.binarySearch(sorted, key) >= 0;
    }
}
