package io.ackscope.spark;

import java.io.Serializable;

/**
 * A byte range of one capture that one task reads: the records whose header starts in {@code [start, end)}.
 *
 * @param file        the capture
 * @param splitIndex  0-based position of the split within its file
 * @param start       offset of the first record header to read (a verified record boundary), or 0 for a whole file
 * @param end         offset of the first record header not to read ({@code Long.MAX_VALUE}: read to the end)
 * @param firstFrame  frame number of the first record of the split (1 for a whole file)
 * @param whole       the file is read in one piece from its first byte (compressed, unsplittable, or small)
 * @param last        the split ends the file: it reports the file's tail problem, if any
 */
public record CaptureSplit(CaptureFile file, int splitIndex, long start, long end, long firstFrame, boolean whole,
                           boolean last) implements Serializable {

    /** Bytes of the file this split covers, for packing splits into tasks and for progress. */
    public long byteLength() {
        return whole ? file.length() : Math.min(end, file.length()) - start;
    }
}
