package io.ackscope.spark.source;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureProblem;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.SplitLocator;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.FrameFilter;
import io.ackscope.tcp.RoleEvidence;
import io.ackscope.tcp.Segment;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * Reads the splits of one task: each record of a split is decoded once with the task's one {@link PacketDecoder},
 * counted in the split's {@link SplitStats}, and (unless the scan wants TCP frames only and it is not one) written
 * into the task's one reused row; a frame the {@link FrameFilter} drops is only counted. A damaged file ends its
 * split at the damage: the error and its offset go to the statistics (or fail the task with {@code failOnDamage}).
 */
public final class PcapPartitionReader implements PartitionReader<InternalRow> {
    private static final Logger LOG = LoggerFactory.getLogger(PcapPartitionReader.class);

    private final Iterator<CaptureSplit> splits;
    private final StructType required;
    private final Configuration conf;
    private final int payloadBytes;
    private final boolean httpPayloadOnly;
    private final boolean failOnDamage;
    private final boolean tcpOnly;
    /** A read for {@code analyze}'s shuffle: rows of {@link SegmentRows#SCHEMA} instead of frame columns. */
    private final boolean segmentRows;
    private final SplitStatsAccumulator statsSink;
    /** Frames it drops are counted, never read further ({@link FrameFilter#NONE}: none dropped). */
    private final FrameFilter filter;
    private final PacketDecoder decoder = new PacketDecoder();
    /** The segment of the row just written, for {@link RoleEvidence#observe} (segment rows only). */
    private final Segment observed = new Segment();

    private CaptureSplit split;
    private CaptureReader reader;
    private SplitOpener.Opened opened;
    private PacketRowWriter rows;
    private SegmentRows.Writer segments;
    private SplitStats stats;
    private long frameBase;
    private UnsafeRow current;

    public PcapPartitionReader(CapturePartition partition, StructType required, Configuration conf, int payloadBytes,
                               boolean httpPayloadOnly, boolean failOnDamage, boolean tcpOnly,
                               SplitStatsAccumulator statsSink, FrameFilter filter) {
        this.splits = partition.splits().iterator();
        this.required = required;
        this.conf = conf;
        this.payloadBytes = payloadBytes;
        this.httpPayloadOnly = httpPayloadOnly;
        this.failOnDamage = failOnDamage;
        this.segmentRows = SegmentRows.isSegmentSchema(required);
        this.tcpOnly = tcpOnly || segmentRows; // segment rows exist for TCP frames only
        this.statsSink = statsSink;
        this.filter = filter.isNone() ? null : filter;
    }

    @Override
    public boolean next() throws IOException {
        while (true) {
            if (reader == null) {
                if (!openNextSplit()) {
                    return false;
                }
                if (reader == null) {
                    continue; // the split could not be opened; its damage is recorded
                }
            }
            CaptureReader r = reader;
            try {
                // A split reader stops by itself at the next split's first record (whole files at the end).
                if (!r.next()) {
                    finishSplit(r.tailProblem());
                    continue;
                }
            } catch (CaptureException e) {
                if (SplitLocator.needsWholeFileRead(r)) {
                    // The planning pass walked this very split without this; the file changed under us.
                    throw new IOException(split.file().path() + " changed while being read: " + e.getMessage(), e);
                }
                damaged(e);
                continue;
            }
            int capLen = r.capturedLength();
            long ts = r.timestampNanos();
            stats.record(ts, ts != PacketRowWriter.NO_TIMESTAMP, capLen, r.originalLength(), r.linkType(), 0,
                    r.interfaceId());
            stats.seekPoint(frameBase + r.frameNumber(), r.recordOffset());
            stats.ordered(frameBase + r.frameNumber(), ts, ts != PacketRowWriter.NO_TIMESTAMP);
            decoder.decode(r.linkType(), r.data(), r.dataOffset(), capLen, r.originalLength());
            String dropped = filter == null ? null
                    : filter.drop(decoder, r.data(), ts, PacketRowWriter.NO_TIMESTAMP, r.originalLength());
            if (dropped != null) {
                stats.frames().filtered(decoder, dropped);
                continue;
            }
            boolean tcp = stats.frames().count(decoder);
            if (tcpOnly && !tcp) {
                continue;
            }
            if (segmentRows) {
                current = segments.write(decoder, r.data(), frameBase + r.frameNumber(), ts, r.originalLength());
                if (RoleEvidence.mayShow(decoder.tcpFlags(), decoder.capturedPayloadLength())) {
                    // exactly what the engine will be given for this frame (SegmentRows.fill), so that the evidence
                    // is what an engine over the frames would gather; most frames (bare ACKs) are not read back
                    SegmentRows.fill(observed, current);
                    stats.roles.observe(observed);
                }
            } else {
                current = rows.write(decoder, r.data(), frameBase + r.frameNumber(), r.recordOffset(), ts, capLen,
                        r.originalLength(), r.linkType(), r.interfaceId());
            }
            return true;
        }
    }

    private boolean openNextSplit() throws IOException {
        if (!splits.hasNext()) {
            return false;
        }
        split = splits.next();
        stats = new SplitStats(split.file().index(), split.splitIndex());
        if (segmentRows) {
            segments = new SegmentRows.Writer(split.file().index(), payloadBytes, httpPayloadOnly);
            stats.roles = new RoleEvidence();
        } else {
            rows = new PacketRowWriter(required, split.file().path(), split.file().index(),
                    split.file().sourceName(), payloadBytes,
                    httpPayloadOnly);
        }
        frameBase = split.firstFrame() - 1;
        try {
            opened = SplitOpener.open(split, conf);
            reader = opened.reader();
            stats.format = reader.format().name().toLowerCase(java.util.Locale.ROOT);
        } catch (CaptureException e) {
            damaged(e);
        }
        return true;
    }

    private void damaged(CaptureException e) throws IOException {
        if (failOnDamage) {
            throw new IOException(e.getMessage(), e);
        }
        LOG.warn("{}: damaged at byte {}: {}; the rest of the file is not read", split.file().path(), e.offset(),
                e.reason());
        stats.errorOffset = e.offset();
        stats.errorReason = e.reason();
        finishSplit(null);
    }

    private void finishSplit(CaptureProblem tail) throws IOException {
        if (tail != null && split.last()) {
            stats.tailOffset = tail.offset();
            stats.tailReason = tail.reason();
        }
        stats.complete = true;
        stats.frames().seal();
        if (statsSink != null) {
            statsSink.add(stats);
        }
        closeReader();
    }

    private void closeReader() throws IOException {
        SplitOpener.Opened o = opened;
        reader = null;
        opened = null;
        if (o != null) {
            o.close();
        }
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() {
        try {
            closeReader();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
