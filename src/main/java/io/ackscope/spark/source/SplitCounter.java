package io.ackscope.spark.source;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.SplitLocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.Serializable;

/**
 * The planning pass over a split file: each candidate split is walked once (records only, nothing decoded) to learn
 * how many frame numbers it takes, whether it meets damage, and whether the file must be read whole after all.
 * From these the planner gives each split its exact first frame number (a prefix sum in split order), drops splits
 * beyond the first damage (a whole-file read never gets there), or falls back to one whole-file read.
 */
final class SplitCounter {
    private SplitCounter() {
    }

    /**
     * One candidate split: byte range {@code [start, end)} of a file, and offsets strictly inside it where the
     * planner may cut it further (ascending; may be empty).
     */
    record Task(String path, int splitIndex, long start, long end, long[] cuts) implements Serializable {
        Task(String path, int splitIndex, long start, long end) {
            this(path, splitIndex, start, end, new long[0]);
        }
    }

    /**
     * @param frames      frame numbers the split takes (its last split-local frame number; pcapng custom blocks
     *                    count as tshark numbers them)
     * @param errorOffset offset of damage the split met, or -1
     * @param needsWhole  why the file must be read whole (a fooled locator, a section or interface declared after
     *                    the first packet), or null
     * @param framesBefore for each of the task's cuts: the frame numbers the range takes before a split starting at
     *                     that cut would start (at the locator's boundary at or after it), or -1 where the range
     *                     cannot be cut there (its record chain steps over that boundary, or ends before it)
     */
    record Result(long frames, long errorOffset, String needsWhole, long[] framesBefore) implements Serializable {
        Result(long frames, long errorOffset, String needsWhole) {
            this(frames, errorOffset, needsWhole, new long[0]);
        }
    }

    static Result count(Task t, Configuration conf) throws IOException {
        Path path = new Path(t.path());
        FileSystem fs = HadoopSeekableInput.captureFileSystem(path, conf);
        try (HadoopSeekableInput in = HadoopSeekableInput.open(fs, path)) {
            SplitLocator loc;
            try {
                loc = SplitLocator.open(in, t.path());
            } catch (CaptureException e) {
                return new Result(0, -1, "header unreadable: " + e.reason());
            }
            if (!loc.splittable()) {
                return new Result(0, -1, loc.whyNotSplittable());
            }
            long[] at = new long[t.cuts().length];
            long[] before = new long[at.length];
            for (int i = 0; i < at.length; i++) {
                at[i] = loc.boundaryAtOrAfter(t.cuts()[i]);
                before[i] = -1;
            }
            int next = 0;
            long frames = 0;
            try (CaptureReader r = loc.openSplit(t.start(), t.end())) {
                try {
                    while (r.next()) {
                        long offset = r.recordOffset();
                        while (next < at.length && at[next] <= offset) {
                            // a split starting at this cut starts at this record, or the chain stepped over its start
                            before[next] = at[next] == offset ? frames : -1;
                            next++;
                        }
                        frames = r.frameNumber();
                    }
                } catch (CaptureException e) {
                    if (SplitLocator.needsWholeFileRead(r)) {
                        return new Result(frames, -1, e.reason(), before);
                    }
                    return new Result(frames, e.offset(), null, before);
                }
            }
            return new Result(frames, -1, null, before);
        }
    }
}
