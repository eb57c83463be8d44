package io.ackscope.spark.engine;

import io.ackscope.spark.source.SegmentRows;
import io.ackscope.tcp.HeldTuple;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The held 4-tuples of one engine task, one source and one pass, as a file ({@link EngineCarry}; the directories are the carried state's, {@code spark.carry.CarriedState}): written at the end
 * of the source, read back by the tasks of the next run, each keeping the 4-tuples its shuffle partition gets (the
 * analyze shuffle's partitioner over {@link SegmentRows#connectionKey}, which is the same in both directions).
 *
 * <h2>Layout</h2>
 * Big-endian. Header: the magic {@code ACKHELD} and a version byte ({@link #VERSION}), the name of the run's held
 * directory ({@link java.io.DataOutput#writeUTF}; a reader refuses a file whose name is not the one it expects, so
 * that an older run's files put back under a newer run's name are not resumed), then the reducer count and
 * partition of the task that wrote it (ints). Records: a body length (int, at most {@link #MAX_BODY}), the body (the
 * canonical 4-tuple: a's address high and low words, a's port, b's likewise, as long, long, int; then the engine's
 * state bytes), and the CRC-32C of the body (int). End: a length of -1, the record count (long) and the CRC-32C of
 * the count's eight bytes; a file without it was cut short. Every error names the file and the byte offset.
 *
 * <p>A reader whose shuffle has the same reducer count as the writer's reads only the file of its own partition (the
 * others hold no 4-tuple of it); with another count it reads every file and keeps its 4-tuples.
 */
public final class HeldState {
    private static final byte[] MAGIC = "ACKHELD".getBytes(StandardCharsets.US_ASCII);
    /** 3: the run's name in the header. */
    static final int VERSION = 3;
    /** Bound on a run's name in the header (a {@code held-<run>} directory name is about 50 bytes). */
    private static final int MAX_RUN = 256;
    /**
     * Bound on one record: a 4-tuple (40 bytes) and a state, far above any real tracker's (a few KB; 10,000
     * unacknowledged segments a side make about 1 MB).
     */
    static final int MAX_BODY = 16 << 20;
    private static final int TUPLE_BYTES = 40;
    static final String SUFFIX = ".held";

    private HeldState() {
    }

    /** The file name of partition {@code partition}'s held 4-tuples. */
    public static String fileName(int partition) {
        return String.format("part-%05d", partition) + SUFFIX;
    }

    /**
     * Writes {@code tuples} to {@code file} (replacing it: a task attempt redoes its predecessor's), stamped with
     * {@code run}, the name of the held directory of the run that writes it.
     */
    public static void write(Configuration conf, Path file, String run, int partition, int reducers,
                             List<HeldTuple> tuples) throws IOException {
        if (run.isEmpty() || run.length() > MAX_RUN) {
            throw new IllegalArgumentException("run name of " + run.length() + " characters");
        }
        FileSystem fs = file.getFileSystem(conf);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(fs.create(file, true), 1 << 16))) {
            out.write(MAGIC);
            out.writeByte(VERSION);
            out.writeUTF(run);
            out.writeInt(reducers);
            out.writeInt(partition);
            ByteBuffer body = ByteBuffer.allocate(TUPLE_BYTES);
            CRC32C crc = new CRC32C();
            for (HeldTuple t : tuples) {
                byte[] state = t.state();
                if (state.length > MAX_BODY - TUPLE_BYTES) {
                    throw new IOException(file + ": held state of " + state.length + " bytes, more than "
                            + (MAX_BODY - TUPLE_BYTES));
                }
                body.clear();
                body.putLong(t.aHi()).putLong(t.aLo()).putInt(t.aPort()).putLong(t.bHi()).putLong(t.bLo())
                        .putInt(t.bPort());
                crc.reset();
                crc.update(body.array(), 0, TUPLE_BYTES);
                crc.update(state);
                out.writeInt(TUPLE_BYTES + state.length);
                out.write(body.array(), 0, TUPLE_BYTES);
                out.write(state);
                out.writeInt((int) crc.getValue());
            }
            out.writeInt(-1);
            out.writeLong(tuples.size());
            out.writeInt(countCrc(tuples.size()));
        }
    }

    /**
     * The held 4-tuples in the {@link #SUFFIX} files of {@code dir} (none when it does not exist) that go to shuffle
     * partition {@code partition} of {@code reducers}; every file must be stamped {@code run}.
     */
    public static List<HeldTuple> read(Configuration conf, Path dir, String run, int partition, int reducers)
            throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        FileStatus[] files;
        try {
            files = fs.listStatus(dir, p -> p.getName().endsWith(SUFFIX));
        } catch (FileNotFoundException e) {
            return List.of();
        }
        Arrays.sort(files);
        List<HeldTuple> out = new ArrayList<>();
        for (FileStatus f : files) {
            // a file of the same reducer count and another partition holds no 4-tuple of this one: only its header
            read(fs, f.getPath(), run, partition, reducers, out);
        }
        return out;
    }

    /**
     * Reads every record of the {@link #SUFFIX} files of {@code dir} (none when it does not exist), checking each,
     * keeping none, each file stamped {@code run}: whether a later run can resume them; returns the records read.
     */
    public static long check(Configuration conf, Path dir, String run) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        FileStatus[] files;
        try {
            files = fs.listStatus(dir, p -> p.getName().endsWith(SUFFIX));
        } catch (FileNotFoundException e) {
            return 0;
        }
        long[] n = {0};
        List<HeldTuple> counting = new java.util.AbstractList<>() {
            @Override
            public boolean add(HeldTuple t) {
                n[0]++;
                return true;
            }

            @Override
            public HeldTuple get(int i) {
                throw new IndexOutOfBoundsException(i);
            }

            @Override
            public int size() {
                return 0;
            }
        };
        for (FileStatus f : files) {
            read(fs, f.getPath(), run, -1, 1, counting);
        }
        return n[0];
    }

    /**
     * Reads one file, stamped {@code run}, into {@code out}: its 4-tuples of {@code partition} of {@code reducers}
     * (all with -1).
     */
    static void read(FileSystem fs, Path file, String run, int partition, int reducers, List<HeldTuple> out)
            throws IOException {
        Reading in = new Reading(file, fs.open(file));
        try (in) {
            readRecords(in, run, partition, reducers, out);
        } catch (EOFException e) {
            throw in.damage(in.at, "cut short");
        }
    }

    private static void readRecords(Reading in, String run, int partition, int reducers, List<HeldTuple> out)
            throws IOException {
        byte[] magic = in.bytes(MAGIC.length);
        int version = in.in.readUnsignedByte();
        in.at++;
        if (!Arrays.equals(magic, MAGIC) || version != VERSION) {
            throw in.damage(0, Arrays.equals(magic, MAGIC)
                    ? "held state version " + version + " (this ackscope reads " + VERSION
                    + "): re-run without --incremental" : "not a held-state file");
        }
        int runLength = in.in.readUnsignedShort();
        in.at += 2;
        if (runLength == 0 || runLength > MAX_RUN) {
            throw in.damage(in.at - 2, "run name of " + runLength + " bytes");
        }
        String written = new String(in.bytes(runLength), StandardCharsets.UTF_8);
        if (!written.equals(run)) {
            throw in.damage(in.at - runLength - 2, "written by run " + written + ", not " + run
                    + " (the held state of another run put in its place?)");
        }
        int writers = in.integer();
        int writer = in.integer();
        if (writers <= 0 || writer < 0 || writer >= writers) {
            throw in.damage(in.at - 8, "partition " + writer + " of " + writers);
        }
        if (partition >= 0 && writers == reducers && writer != partition) {
            return;
        }
        long records = 0;
        while (true) {
            long start = in.at;
            int length = in.integer();
            if (length == -1) {
                long count = in.in.readLong();
                in.at += 8;
                if (count != records || in.integer() != countCrc(count)) {
                    throw in.damage(start, "end of " + count + " records after " + records);
                }
                if (in.in.read() != -1) {
                    throw in.damage(in.at, "bytes after the end");
                }
                return;
            }
            if (length < TUPLE_BYTES || length > MAX_BODY) {
                throw in.damage(start, "record of " + length + " bytes");
            }
            byte[] body = in.bytes(length);
            CRC32C crc = new CRC32C();
            crc.update(body);
            if (in.integer() != (int) crc.getValue()) {
                throw in.damage(start, "record checksum mismatch");
            }
            records++;
            ByteBuffer b = ByteBuffer.wrap(body);
            HeldTuple t = new HeldTuple(b.getLong(), b.getLong(), b.getInt(), b.getLong(), b.getLong(), b.getInt(),
                    Arrays.copyOfRange(body, TUPLE_BYTES, length));
            if (partition < 0 || partitionOf(t, reducers) == partition) {
                out.add(t);
            }
        }
    }

    /** The analyze shuffle's partition of a held 4-tuple. */
    static int partitionOf(HeldTuple t, int reducers) {
        return SegmentShuffle.reducerOf(SegmentRows.connectionKey(t.aHi(), t.aLo(), t.aPort(), t.bHi(), t.bLo(),
                t.bPort()), reducers);
    }

    private static int countCrc(long count) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(8).putLong(count).array());
        return (int) crc.getValue();
    }

    /** A file being read, with the offset of the next byte for errors. */
    private static final class Reading implements AutoCloseable {
        final Path file;
        final DataInputStream in;
        long at;

        Reading(Path file, InputStream raw) {
            this.file = file;
            this.in = new DataInputStream(new BufferedInputStream(raw, 1 << 16));
        }

        int integer() throws IOException {
            int v = in.readInt();
            at += 4;
            return v;
        }

        byte[] bytes(int n) throws IOException {
            byte[] b = new byte[n];
            try {
                in.readFully(b);
            } catch (EOFException e) {
                throw damage(at, "cut short: " + n + " bytes expected");
            }
            at += n;
            return b;
        }

        IOException damage(long offset, String what) {
            return new IOException(file + ": offset " + offset + ": " + what);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
