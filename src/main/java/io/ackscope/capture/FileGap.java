package io.ackscope.capture;

import java.io.Serializable;
import java.util.List;

/**
 * A gap between consecutive files of a source: a missing rotated file, or capture stopped for a while. The step
 * from one file's last record to the next file's first is a gap when it is longer than every step between
 * consecutive records in the source's earlier files (and than {@link #MIN_GAP_NANOS}): traffic that went on across
 * a rotation makes no longer pause at the boundary than it made inside the files, a missing file does. It uses only
 * what is known before the later file is read, so a single pass over the files (conv, diagnose) finds the same
 * gaps as analyze.
 *
 * @param afterFile file index of the file before the gap
 * @param start     timestamp of that file's last record (ns)
 * @param end       timestamp of the next file's first record (ns)
 */
public record FileGap(int afterFile, long start, long end) implements Serializable {
    /** Steps at most this long are never gaps. */
    public static final long MIN_GAP_NANOS = 1_000_000L;

    /**
     * The gap between two consecutive files of a source, or null.
     *
     * @param lastNanos    timestamp of the earlier file's last record, {@link Long#MIN_VALUE} if none
     * @param maxStepNanos longest step between consecutive records in the source's files up to the earlier one
     * @param firstNanos   timestamp of the later file's first record, {@link CaptureReader#NO_TIMESTAMP} if none
     */
    public static FileGap between(int afterFile, long lastNanos, long maxStepNanos, long firstNanos) {
        if (lastNanos == Long.MIN_VALUE || firstNanos == CaptureReader.NO_TIMESTAMP) {
            return null;
        }
        long step = firstNanos - lastNanos;
        return step > Math.max(MIN_GAP_NANOS, maxStepNanos) ? new FileGap(afterFile, lastNanos, firstNanos) : null;
    }

    /** True if a connection from {@code firstNanos} to {@code lastNanos} has frames on both sides of this gap. */
    public boolean crossedBy(long firstNanos, long lastNanos) {
        return firstNanos <= start && lastNanos >= end;
    }

    /** True if a connection crosses any of {@code gaps}. */
    public static boolean crossesAny(List<FileGap> gaps, long firstNanos, long lastNanos) {
        for (FileGap g : gaps) {
            if (g.crossedBy(firstNanos, lastNanos)) {
                return true;
            }
        }
        return false;
    }

    /** The gap's length in ns. */
    public long nanos() {
        return end - start;
    }
}
