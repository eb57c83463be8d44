package io.ackscope.spark.source;

import io.ackscope.tcp.RoleEvidence;

import java.io.Serializable;
import java.util.TreeSet;

/**
 * What reading one {@link CaptureSplit} found: frames and bytes, time range, link types, frame accounting, and
 * the damage or truncation that ended it. Filled by the task reading the split; merged per file on the driver
 * ({@link #merge}) in split order.
 */
public final class SplitStats implements Serializable {
    private static final long serialVersionUID = 1L;

    final int fileIndex;
    final int splitIndex;
    String format;                 // "pcap" / "pcapng", null until the header was read
    String compression;            // "none", "gzip", ...
    long capturedBytes;
    long originalBytes;
    long firstNanos = Long.MAX_VALUE;
    long lastNanos = Long.MIN_VALUE;
    final TreeSet<Integer> linkTypes = new TreeSet<>();
    final TreeSet<Long> interfaces = new TreeSet<>();   // section << 32 | interface id
    final FrameAccounting frames = new FrameAccounting();
    /** Damage (CaptureException, or an I/O error) that ended reading, with its byte offset; null if none. */
    Long errorOffset;
    String errorReason;
    /** The file ended inside its last record. */
    Long tailOffset;
    String tailReason;
    boolean complete;              // the split was read to its end (or to the damage)
    /**
     * Seek points: frame numbers 1, 1 + {@link #SEEK_POINT_FRAMES}, 1 + 2 x that, ... of the file, ascending, and the
     * byte offsets of their records, the first {@link #seekPointCount} of each array. A reader can start at any of
     * them with known frame numbers (the report's flow graphs do); they are fixed by the frame numbers, so the same
     * whatever the splits.
     */
    long[] seekFrames = new long[0];
    long[] seekOffsets = new long[0];
    int seekPointCount;

    /** The highest frame number read (pcapng blocks without a packet are numbered too, as tshark does). */
    long lastFrame;
    /**
     * Timestamps of the first and the last record that has one, in record order (not the earliest and latest), and
     * the longest step from one such record to the next: what tells a missing rotated file from a quiet moment.
     */
    long firstRecordNanos = Long.MIN_VALUE;
    long lastRecordNanos = Long.MIN_VALUE;
    long maxStepNanos;
    /**
     * What the split's TCP frames show of who serves ({@link RoleEvidence#observe}), in a read for {@code analyze}'s
     * shuffle (segment rows); null in other reads, and once the driver's accumulator took it
     * ({@link SplitStatsAccumulator#roles}).
     */
    RoleEvidence roles;

    /** Frames between two seek points (a power of two: {@link #seekPoint} masks). */
    public static final long SEEK_POINT_FRAMES = 16_384;

    private transient int lastLinkType = -1;
    private transient long lastInterface = -1;

    public SplitStats(int fileIndex, int splitIndex) {
        this.fileIndex = fileIndex;
        this.splitIndex = splitIndex;
    }

    /** Counts one record's frame-level facts (the decode accounting is done by {@link #frames()}). */
    public void record(long timestampNanos, boolean hasTimestamp, int capLen, long origLen, int linkType, int section,
                       int interfaceId) {
        capturedBytes += capLen;
        originalBytes += origLen;
        if (hasTimestamp) {
            if (timestampNanos < firstNanos) {
                firstNanos = timestampNanos;
            }
            if (timestampNanos > lastNanos) {
                lastNanos = timestampNanos;
            }
        }
        if (linkType != lastLinkType) {
            linkTypes.add(linkType);
            lastLinkType = linkType;
        }
        long iface = ((long) section << 32) | (interfaceId & 0xffffffffL);
        if (iface != lastInterface) {
            interfaces.add(iface);
            lastInterface = iface;
        }
    }

    /** Notes a record's frame number and timestamp in record order ({@link #lastFrame}, {@link #maxStepNanos}). */
    void ordered(long frame, long timestampNanos, boolean hasTimestamp) {
        if (frame > lastFrame) {
            lastFrame = frame;
        }
        if (!hasTimestamp) {
            return;
        }
        if (firstRecordNanos == Long.MIN_VALUE) {
            firstRecordNanos = timestampNanos;
        } else {
            maxStepNanos = Math.max(maxStepNanos, timestampNanos - lastRecordNanos);
        }
        lastRecordNanos = timestampNanos;
    }

    /** Notes the record of {@code frame} at {@code offset} if {@code frame} is a seek point. */
    void seekPoint(long frame, long offset) {
        if (((frame - 1) & (SEEK_POINT_FRAMES - 1)) != 0) {   // a power of two: a mask, not a division per record
            return;
        }
        if (seekPointCount == seekFrames.length) {
            int n = Math.max(8, 2 * seekPointCount);
            seekFrames = java.util.Arrays.copyOf(seekFrames, n);
            seekOffsets = java.util.Arrays.copyOf(seekOffsets, n);
        }
        seekFrames[seekPointCount] = frame;
        seekOffsets[seekPointCount] = offset;
        seekPointCount++;
    }

    public int fileIndex() {
        return fileIndex;
    }

    public int splitIndex() {
        return splitIndex;
    }

    public FrameAccounting frames() {
        return frames;
    }

    // Read by the analyze pipeline (capture_files, sources, numbering); written only here and by the reader.

    public String format() {
        return format;
    }

    public long capturedBytes() {
        return capturedBytes;
    }

    public long originalBytes() {
        return originalBytes;
    }

    /** Earliest timestamp, {@link Long#MAX_VALUE} when no record had one. */
    public long firstNanos() {
        return firstNanos;
    }

    /** Latest timestamp, {@link Long#MIN_VALUE} when no record had one. */
    public long lastNanos() {
        return lastNanos;
    }

    public TreeSet<Integer> linkTypes() {
        return linkTypes;
    }

    public TreeSet<Long> interfaces() {
        return interfaces;
    }

    public Long errorOffset() {
        return errorOffset;
    }

    public String errorReason() {
        return errorReason;
    }

    public Long tailOffset() {
        return tailOffset;
    }

    public String tailReason() {
        return tailReason;
    }

    public boolean complete() {
        return complete;
    }

    public long[] seekFrames() {
        return seekFrames;
    }

    public long[] seekOffsets() {
        return seekOffsets;
    }

    public int seekPointCount() {
        return seekPointCount;
    }

    public long lastFrame() {
        return lastFrame;
    }

    public long lastRecordNanos() {
        return lastRecordNanos;
    }

    public long maxStepNanos() {
        return maxStepNanos;
    }

    /** Adds the next split of the same file (splits are merged in order); the first error (in file order) wins. */
    public void merge(SplitStats o) {
        if (format == null) {
            format = o.format;
            compression = o.compression;
        }
        capturedBytes += o.capturedBytes;
        originalBytes += o.originalBytes;
        firstNanos = Math.min(firstNanos, o.firstNanos);
        lastNanos = Math.max(lastNanos, o.lastNanos);
        linkTypes.addAll(o.linkTypes);
        interfaces.addAll(o.interfaces);
        frames.merge(o.frames);
        if (errorOffset == null && o.errorOffset != null) {
            errorOffset = o.errorOffset;
            errorReason = o.errorReason;
        }
        if (o.tailOffset != null) {
            tailOffset = o.tailOffset;
            tailReason = o.tailReason;
        }
        complete &= o.complete;
        lastFrame = Math.max(lastFrame, o.lastFrame);
        if (o.firstRecordNanos != Long.MIN_VALUE) {
            if (lastRecordNanos != Long.MIN_VALUE) {
                maxStepNanos = Math.max(maxStepNanos, o.firstRecordNanos - lastRecordNanos);
            } else {
                firstRecordNanos = o.firstRecordNanos;
            }
            lastRecordNanos = o.lastRecordNanos;
        }
        maxStepNanos = Math.max(maxStepNanos, o.maxStepNanos);
        for (int i = 0; i < o.seekPointCount; i++) {
            seekPoint(o.seekFrames[i], o.seekOffsets[i]);
        }
    }
}
