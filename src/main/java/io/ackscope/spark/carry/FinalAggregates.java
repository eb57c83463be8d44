package io.ackscope.spark.carry;

import io.ackscope.tcp.EndpointAggregate;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One source's per-endpoint aggregate ({@link EndpointAggregate}: what {@code latency_summary} and {@code findings}
 * are made from) over its final rows, kept in the output's
 * carried state ({@code held-<run>/final/<source in hex>.agg}) so that a run appending files to the source adds its own
 * final rows to them and writes the source's rows of both tables exactly as one run over all its files would (exact
 * counts of distinct values, so the percentiles are exact). The rows of connections still open are kept apart
 * ({@link io.ackscope.spark.engine.EngineTask.Result#openEndpoints()}) and added only to the table, never to this state.
 *
 * <p>Java serialization of the aggregate behind a magic and a version, read through an
 * {@link ObjectInputFilter} that admits only the aggregate's own classes and the JDK collections they use, with
 * bounded depth and references: a damaged or foreign file fails with its path, and the run then analyses the
 * source again whole.
 */
final class FinalAggregates {
    private FinalAggregates() {
    }

    private static final byte[] MAGIC = "ACKAGG".getBytes(StandardCharsets.US_ASCII);
    /**
     * 2: one per-endpoint aggregate in place of version 1's separate latency and cause aggregates; 3: the run's name
     * ({@link CarriedState#run}) after the version.
     */
    static final int VERSION = 3;

    /** Writes {@code endpoints} to {@code file}, stamped with {@code run}. */
    static void write(FileSystem fs, Path file, String run, EndpointAggregate endpoints) throws IOException {
        try (FSDataOutputStream raw = fs.create(file, true);
             ObjectOutputStream out = new ObjectOutputStream(new BufferedOutputStream(raw, 1 << 16))) {
            out.write(MAGIC);
            out.writeByte(VERSION);
            out.writeUTF(run);
            out.writeObject(endpoints);
        }
    }

    /** The aggregate of {@code file}, which must be stamped {@code run}. */
    static EndpointAggregate read(FileSystem fs, Path file, String run) throws IOException {
        long length = fs.getFileStatus(file).getLen();
        try (FSDataInputStream raw = fs.open(file);
             ObjectInputStream in = new ObjectInputStream(new BufferedInputStream(raw, 1 << 16))) {
            in.setObjectInputFilter(filter(length));
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            int version = in.readUnsignedByte();
            if (!Arrays.equals(magic, MAGIC) || version != VERSION) {
                throw new IOException(file + ": not a version " + VERSION + " aggregate file");
            }
            String written = in.readUTF();
            if (!written.equals(run)) {
                throw new IOException(file + ": written by run " + written + ", not " + run
                        + " (the state of another run put in its place?)");
            }
            return (EndpointAggregate) in.readObject();
        } catch (ClassNotFoundException | ClassCastException | InvalidClassException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Only the aggregate's classes and the JDK types they hold. */
    private static ObjectInputFilter filter(long bytes) {
        return info -> {
            if (info.depth() > 16 || info.references() > 50_000_000L || info.streamBytes() > bytes) {
                return ObjectInputFilter.Status.REJECTED;
            }
            Class<?> c = info.serialClass();
            if (c == null) {
                return ObjectInputFilter.Status.UNDECIDED;
            }
            while (c.isArray()) {
                c = c.getComponentType();
            }
            String n = c.getName();
            boolean ok = c.isPrimitive() || n.startsWith("io.ackscope.tcp.EndpointAggregate")
                    || n.equals("io.ackscope.tcp.ConnectionCauses$Tally")
                    || n.equals("io.ackscope.tcp.ValueCounts")
                    || n.equals("io.ackscope.tcp.Cause") || n.equals("java.lang.Enum") || n.equals("java.lang.String")
                    || n.equals("java.lang.Number") || n.equals("java.lang.Long") || n.equals("java.util.TreeMap")
                    || n.equals("java.util.EnumMap") || n.equals("java.util.ArrayList") || n.equals("java.util.HashMap")
                    || n.equals("java.lang.Object");
            return ok ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
        };
    }
}
