package io.ackscope.spark;

import io.ackscope.spark.source.SegmentRows;
import org.apache.spark.sql.catalyst.InternalRow;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The 4-tuples of one shuffle partition that two or more sources saw, noted while the engine's first pass reads it:
 * only their connections can be matched between sources, so the vantage pass ({@link VantagePlan#find}) holds the
 * segments of those alone, and its memory follows the traffic the sources have in common, not the partition's
 * size. A partition holds a 4-tuple's frames of every source (the shuffle key ignores the source), so this is
 * decided per partition. Keys are {@link SegmentRows#connectionKey} hashes: a collision only keeps a connection
 * that then does not match.
 */
final class SharedTuples {
    private final ArchiveNumbering numbering;
    /** Per 4-tuple key, the one source that saw it, or -1 once a second did. */
    private final Map<Long, Integer> sourceOf = new HashMap<>();

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
                return r;
            }
        };
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
