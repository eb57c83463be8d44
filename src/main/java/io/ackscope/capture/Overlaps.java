package io.ackscope.capture;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Frames that two files of one source both hold: two capture processes on one host, a rotated file copied twice
 * with different cuts. A frame of a later file is a duplicate when an earlier file of the same source holds a frame
 * with the same timestamp, link type and captured bytes; each earlier frame answers for one later frame at most
 * (so a frame that a file holds twice, as tshark would show it, stays twice). Within one file nothing is left
 * out: a duplicate there is what tshark says it is.
 *
 * <p>Which files are compared: a later file and each earlier file of its source whose latest timestamp is at or
 * after the later file's first ({@link #overlap}). Both readers of {@link #duplicates} read their files whole; the
 * earlier files' frames are kept as one 64-bit hash each (8 bytes a frame). Files that do not overlap are never
 * compared, so a well-rotated archive costs nothing here.
 */
public final class Overlaps {
    private Overlaps() {
    }

    /** True if an earlier file whose latest timestamp is {@code earlierMaxNanos} overlaps a later file. */
    public static boolean overlap(long earlierMaxNanos, long laterFirstNanos) {
        return laterFirstNanos != CaptureReader.NO_TIMESTAMP && earlierMaxNanos != Long.MIN_VALUE
                && earlierMaxNanos >= laterFirstNanos;
    }

    /** Opens a file's reader (for each file compared). */
    public interface Opener {
        CaptureReader open(String path) throws IOException, CaptureException;
    }

    /**
     * The frame numbers (ascending) of {@code later} that one of {@code earlier} holds. Damage in a file ends its
     * part of the comparison: the frames before it count.
     */
    public static long[] duplicates(List<String> earlier, String later, Opener open) throws IOException {
        long[] held = new long[1024];
        int n = 0;
        for (String path : earlier) {
            try (CaptureReader r = open.open(path)) {
                while (r.next()) {
                    if (n == held.length) {
                        held = Arrays.copyOf(held, n * 2);
                    }
                    held[n++] = key(r);
                }
            } catch (CaptureException e) {
                // the frames before the damage count
            }
        }
        long[] keys = Arrays.copyOf(held, n);
        Arrays.sort(keys);
        boolean[] used = new boolean[n];
        long[] dup = new long[64];
        int d = 0;
        try (CaptureReader r = open.open(later)) {
            while (r.next()) {
                long k = key(r);
                int i = Arrays.binarySearch(keys, k);
                if (i < 0) {
                    continue;
                }
                while (i > 0 && keys[i - 1] == k) {
                    i--;
                }
                while (i < n && keys[i] == k && used[i]) {
                    i++;
                }
                if (i < n && keys[i] == k) {
                    used[i] = true;
                    if (d == dup.length) {
                        dup = Arrays.copyOf(dup, d * 2);
                    }
                    dup[d++] = r.frameNumber();
                }
            }
        } catch (CaptureException e) {
            // the frames before the damage count
        }
        return Arrays.copyOf(dup, d);
    }

    /** A 64-bit hash of the current record's timestamp, link type, lengths and captured bytes. */
    static long key(CaptureReader r) {
        long h = mix(r.timestampNanos() ^ 0x9E3779B97F4A7C15L);
        h = mix(h ^ ((long) r.linkType() << 32 | r.capturedLength()));
        h = mix(h ^ r.originalLength());
        byte[] b = r.data();
        int end = r.dataOffset() + r.capturedLength();
        long f = 0xcbf29ce484222325L;   // FNV-1a over the bytes, then mixed in
        for (int i = r.dataOffset(); i < end; i++) {
            f = (f ^ (b[i] & 0xff)) * 0x100000001b3L;
        }
        return mix(h ^ f);
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
