package io.ackscope.spark.source;

import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.Segment;
import org.apache.spark.sql.catalyst.InternalRow;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows {@code analyze}'s read tasks give for one capture file ({@link SegmentRows}), and the read statistics
 * its numbering needs ({@link SplitStats#lastFrame}), without Spark: for tests of the engine tasks.
 */
public final class SegmentRowsFixture {
    private SegmentRowsFixture() {
    }

    /** The TCP frames of {@code capture} as segment rows of file {@code fileIndex}, in file order; fills {@code stats}. */
    public static List<InternalRow> rows(Path capture, int fileIndex, SplitStats stats) throws Exception {
        List<InternalRow> out = new ArrayList<>();
        SegmentRows.Writer w = new SegmentRows.Writer(fileIndex, Segment.MAX_PAYLOAD_PREFIX, true);
        PacketDecoder d = new PacketDecoder();
        try (CaptureReader r = CaptureReader.open(capture)) {
            while (r.next()) {
                long ts = r.timestampNanos();      // as PcapPartitionReader reads a split
                boolean has = ts != PacketRowWriter.NO_TIMESTAMP;
                stats.record(ts, has, r.capturedLength(), r.originalLength(), r.linkType(), 0, r.interfaceId());
                stats.ordered(r.frameNumber(), ts, has);
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                if (stats.frames().count(d)) {
                    out.add(w.write(d, r.data(), r.frameNumber(), ts, r.originalLength()).copy());
                }
            }
        }
        return out;
    }
}
