package io.ackscope.spark.carry;

import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.engine.EngineTask;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 4-tuples each source of an archive has had, and their first handshakes, kept in the output's carried state
 * ({@code held-<run>/tuples/} and {@code handshakes/}, one sorted list of longs per source): a run that adds files to
 * an archive of two or more capture points reads only the new files, so it cannot pair their connections with those the
 * other points saw in earlier files ({@link io.ackscope.spark.engine.VantagePlan}); it appends only when no new 4-tuple
 * ({@link io.ackscope.spark.source.SegmentRows#connectionKey}) and no new first handshake
 * ({@link io.ackscope.spark.engine.SharedTuples#isnPair}: what {@link io.ackscope.spark.engine.NatPairs} pairs through
 * a NAT) is one another source has, and otherwise reads every file again. A hash collision only costs that: a whole
 * run.
 *
 * <p>Eight bytes per 4-tuple per source on the driver, read and written by each run that appends.
 */
final class SourceTuples {
    private SourceTuples() {
    }

    /**
     * What is kept, each kind in a directory of its own; a kind's {@link #ordinal} is its index in pass 1's
     * {@link EngineTask.Pass1#tuples} and in each source's pair of lists here.
     */
    enum Kind {
        /** The 4-tuple keys ({@link io.ackscope.spark.source.SegmentRows#connectionKey}). */
        KEYS("tuples"),
        /** The first handshakes ({@link io.ackscope.spark.engine.SharedTuples#isnPair}). */
        HANDSHAKES("handshakes");

        final String dir;

        Kind(String dir) {
            this.dir = dir;
        }
    }
    /**
     * "ACKU": the magic, the run's name ({@link CarriedState#run}, {@link DataOutputStream#writeUTF}), the count and
     * the longs. (Lists of the first layout, magic "ACKT", had no run name; they no longer read, and the run reads
     * every file again once.)
     */
    private static final int MAGIC = 0x41434b55;

    /** The two lists of each source of this run (by name), merged over the partitions of pass 1. */
    static Map<String, long[][]> ofRun(List<EngineTask.Pass1> pass1, ArchiveNumbering numbering) {
        Map<String, long[][]> out = new LinkedHashMap<>();
        for (int s = 0; s < numbering.sources(); s++) {
            long[][] both = new long[2][];
            for (Kind kind : Kind.values()) {
                int source = s, k = kind.ordinal();
                both[k] = distinct(pass1.stream().flatMapToLong(p -> Arrays.stream(p.tuples()[k][source]))
                        .toArray());
            }
            out.put(numbering.sourceName(s), both);
        }
        return out;
    }

    /** {@code a}'s values, sorted, once each. */
    static long[] distinct(long[] a) {
        Arrays.sort(a);
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            if (n == 0 || a[n - 1] != a[i]) {
                a[n++] = a[i];
            }
        }
        return Arrays.copyOf(a, n);
    }

    /** The union of two sorted lists of distinct values. */
    static long[] union(long[] a, long[] b) {
        long[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return distinct(both);
    }

    /** Whether two sorted lists share a value. */
    static boolean intersect(long[] a, long[] b) {
        int i = 0, j = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                return true;
            }
            if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return false;
    }

    static void write(FileSystem fs, Path file, String run, long[] sorted) throws IOException {
        try (FSDataOutputStream raw = fs.create(file, true);
             DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(raw, 1 << 16))) {
            out.writeInt(MAGIC);
            out.writeUTF(run);
            out.writeLong(sorted.length);
            for (long v : sorted) {
                out.writeLong(v);
            }
        }
    }

    /** A list {@link #write} wrote, stamped {@code run}; null when the file does not exist. */
    static long[] read(FileSystem fs, Path file, String run) throws IOException {
        long length;
        try {
            length = fs.getFileStatus(file).getLen();
        } catch (FileNotFoundException e) {
            return null;
        }
        try (FSDataInputStream raw = fs.open(file);
             DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16))) {
            if (length < 14 || in.readInt() != MAGIC) {
                throw new IOException(file + ": offset 0: not a list of 4-tuples of " + length + " bytes");
            }
            String written = in.readUTF();
            if (!written.equals(run)) {
                throw new IOException(file + ": offset 4: written by run " + written + ", not " + run
                        + " (the state of another run put in its place?)");
            }
            long header = 4 + 2 + written.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 8;
            long n = length >= header ? in.readLong() : -1;
            if (n < 0 || header + 8 * n != length) {
                throw new IOException(file + ": offset " + (header - 8) + ": a count of " + n + " 4-tuples in "
                        + length + " bytes");
            }
            long[] out = new long[(int) n];
            for (int i = 0; i < n; i++) {
                out[i] = in.readLong();
            }
            return out;
        }
    }
}
