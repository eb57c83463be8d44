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

    /** The duplicates as ranges: first, last, first, last, ... (ascending, each range of consecutive frames). */
    public long[] ranges() {
        long[] out = new long[0];
        int n = 0;
        for (int i = 0; i < duplicates.length; i++) {
            if (n > 0 && out[n - 1] == duplicates[i] - 1) {
                out[n - 1] = duplicates[i];
                continue;
            }
            if (n + 2 > out.length) {
                out = Arrays.copyOf(out, Math.max(8, out.length * 2));
            }
            out[n++] = duplicates[i];
            out[n++] = duplicates[i];
        }
        return Arrays.copyOf(out, n);
    }

    /** A file's numbering from its base and {@link #ranges()}; null when the ranges are not ascending pairs. */
    public static FileFrames ofRanges(long base, long[] ranges) {
        if (ranges.length % 2 != 0) {
            return null;
        }
        long count = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            if (ranges[i] > ranges[i + 1] || (i > 0 && ranges[i] <= ranges[i - 1])) {
                return null;
            }
            count += ranges[i + 1] - ranges[i] + 1;
        }
        if (count > Integer.MAX_VALUE - 8) {
            return null;
        }
        long[] d = new long[(int) count];
        int k = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            for (long f = ranges[i]; f <= ranges[i + 1]; f++) {
                d[k++] = f;
            }
        }
        return new FileFrames(base, d);
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
