package io.ackscope.capture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Test helper: reads a capture as consecutive splits the way the Spark source does, and compares with a whole read. */
final class Splits {

    /** The union of a split read. */
    static final class Result {
        final List<Records.Rec> records = new ArrayList<>();
        /** File-wide frame numbers computed from the splits (prefix sums), parallel to {@link #records}. */
        final List<Long> frames = new ArrayList<>();
        String fallback;          // why a whole-file read was needed, or null
        CaptureException damage;  // smallest-offset damage reported by any split
        CaptureProblem tail;
        int splits;
    }

    private Splits() {
    }

    static SeekableInput of(byte[] bytes) {
        return new SeekableInput() {
            @Override
            public long length() {
                return bytes.length;
            }

            @Override
            public int read(long pos, byte[] b, int off, int len) {
                if (pos >= bytes.length) {
                    return -1;
                }
                int n = (int) Math.min(len, bytes.length - pos);
                System.arraycopy(bytes, (int) pos, b, off, n);
                return n;
            }

            @Override
            public void close() {
            }
        };
    }

    /** Reads {@code file} in splits of {@code size} bytes; one locator per split, as independent tasks would. */
    static Result read(byte[] file, String name, long size) throws IOException, CaptureException {
        Result out = new Result();
        SeekableInput in = of(file);
        SplitLocator plan = SplitLocator.open(in, name);
        if (!plan.splittable()) {
            out.fallback = plan.whyNotSplittable();
            return out;
        }
        long framesBefore = plan.framesBeforeDataStart();
        List<Records.Rec> kept = new ArrayList<>();
        for (long start = 0; start < file.length; start += size) {
            out.splits++;
            SplitLocator task = SplitLocator.open(in, name);
            CaptureReader r = task.openSplit(start, Math.min(file.length, start + size));
            long lastFrame = 0;
            try (r) {
                while (r.next()) {
                    kept.add(Records.current(r));
                    out.frames.add(framesBefore + r.frameNumber());
                    lastFrame = r.frameNumber();
                }
                if (r.tailProblem() != null) {
                    out.tail = r.tailProblem();
                }
            } catch (CaptureException e) {
                if (SplitLocator.needsWholeFileRead(r)) {
                    out.fallback = e.reason();
                    return out;
                }
                if (out.damage == null || e.offset() < out.damage.offset()) {
                    out.damage = e;
                }
            }
            framesBefore += Math.max(lastFrame, r.frameNumber());
        }
        for (int i = 0; i < kept.size(); i++) {
            if (out.damage == null || kept.get(i).offset() < out.damage.offset()) {
                out.records.add(kept.get(i));
            } else {
                out.frames.set(i, -1L);
            }
        }
        out.frames.removeIf(f -> f < 0);
        return out;
    }
}
