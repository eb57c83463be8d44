package io.ackscope.capture;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Where one file's frames go in its source's frame sequence: the frames of a source are numbered as if its files,
 * in {@link Archive} order, were one capture (the unsplit capture's {@code frame.number}), frames that an earlier
 * file of the source also holds ({@link Overlaps}) left out.
 *
 * @param base       the source frame number before this file's first frame: the frames of the source's earlier
 *                   files, duplicates left out
 * @param duplicates this file's frame numbers (ascending) that an earlier file of the source holds: not analysed
 */
public record FileFrames(long base, long[] duplicates) implements Serializable {
    /** The first file of a source, without duplicates. */
    public static final FileFrames FIRST = new FileFrames(0, new long[0]);

    public FileFrames {
        for (int i = 1; i < duplicates.length; i++) {
            if (duplicates[i] <= duplicates[i - 1]) {
                throw new IllegalArgumentException("duplicate frames not ascending at " + i);
            }
        }
    }

    /** True if the file's frame {@code frame} is a duplicate of an earlier file's. */
    public boolean duplicate(long frame) {
        return duplicates.length > 0 && Arrays.binarySearch(duplicates, frame) >= 0;
    }

    /** The source frame number of the file's frame {@code frame} (not a duplicate). */
    public long sourceFrame(long frame) {
        if (duplicates.length == 0) {
            return base + frame;
        }
        int i = Arrays.binarySearch(duplicates, frame);
        return base + frame - (i >= 0 ? i : -i - 1);
    }

    /** The next file's: this file's last frame number is {@code lastFrame}. */
    public FileFrames next(long lastFrame, long[] nextDuplicates) {
        return new FileFrames(base + lastFrame - duplicates.length, nextDuplicates);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileFrames f && f.base == base && Arrays.equals(f.duplicates, duplicates);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(base) * 31 + Arrays.hashCode(duplicates);
    }

    @Override
    public String toString() {
        return "FileFrames[base=" + base + ", duplicates=" + duplicates.length + "]";
    }
}
