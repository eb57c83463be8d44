package io.ackscope.spark.source;

import java.io.Serializable;

/**
 * A byte range of one capture that one task reads: the records whose header starts in {@code [start, end)}.
 *
 * @param file        the capture
 * @param splitIndex  0-based position of the split within its file
 * @param start       start of the byte range (0 for a whole file); the split reads the records from the first
 *                    record boundary at or after it ({@link io.ackscope.capture.SplitLocator})
 * @param end         end of the byte range ({@code Long.MAX_VALUE} for a whole file); the split reads on to finish
 *                    its last record, up to the next split's first record
 * @param firstFrame  frame number of the first record of the split (1 for a whole file)
 * @param whole       the file is read in one piece from its first byte (compressed, unsplittable, or small)
 * @param last        the split ends the file: it reports the file's tail problem, if any
 */
public record CaptureSplit(CaptureFile file, int splitIndex, long start, long end, long firstFrame, boolean whole,
                           boolean last) implements Serializable {

    /** Bytes of the file this split covers, for packing splits into tasks and for progress. */
    public long byteLength() {
        return whole ? file.length() : end - start;
    }
}
