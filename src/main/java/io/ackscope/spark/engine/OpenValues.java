package io.ackscope.spark.engine;

import io.ackscope.tcp.ConnectionCauses;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.Addresses;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.HeldTuple;
import io.ackscope.tcp.ValueCounts;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The latency values pass 2 keeps for each open connection until its record names its server endpoint
 * ({@link EndpointAggregate}), carried with the held 4-tuples ({@link EngineCarry.Kind#VALUES}): a connection continued in
 * a later run gets its earlier values back, so its final record adds them all to {@code latency_summary}. Stored as
 * {@link HeldTuple}s (the connection's 4-tuple, so that they go to the shuffle partition its frames go to, and bytes:
 * a version byte, the carried id, then per metric a present flag and its value and count pairs).
 */
final class OpenValues {
    /** 2: with the connection's causes and exchanges so far ({@link ConnectionCauses}). */
    private static final int VERSION = 2;

    private OpenValues() {
    }

    /** The values of the connections of {@code held} in {@code open}, keyed by the ids {@code ids} gives them. */
    static List<HeldTuple> of(List<HeldTuple> held, Map<ConnectionId, ValueCounts[]> open,
                              UnaryOperator<ConnectionId> ids) {
        return of(held, open, null, ids);
    }

    /**
     * The values of the connections of {@code held} in {@code open}, and what {@code findings} (null: nothing) noted
     * of them, keyed by the ids {@code ids} gives them.
     */
    static List<HeldTuple> of(List<HeldTuple> held, Map<ConnectionId, ValueCounts[]> open,
                              EndpointAggregate findings, UnaryOperator<ConnectionId> ids) {
        Map<String, HeldTuple> byTuple = new HashMap<>();
        for (HeldTuple t : held) {
            byTuple.put(tupleText(Addresses.endpoint(t.aHi(), t.aLo(), t.aPort()),
                    Addresses.endpoint(t.bHi(), t.bLo(), t.bPort())), t);
        }
        List<HeldTuple> out = new ArrayList<>();
        java.util.Set<ConnectionId> all = new java.util.LinkedHashSet<>(open.keySet());
        if (findings != null) {
            all.addAll(findings.openIds());
        }
        for (ConnectionId id : all) {
            HeldTuple t = byTuple.get(tupleText(Addresses.endpointText(id.clientIp(), id.clientPort()),
                    Addresses.endpointText(id.serverIp(), id.serverPort())));
            if (t != null) {
                ValueCounts[] values = open.get(id);
                out.add(new HeldTuple(t.aHi(), t.aLo(), t.aPort(), t.bHi(), t.bLo(), t.bPort(),
                        bytes(ids.apply(id), values != null ? values : new ValueCounts[EndpointAggregate.METRICS],
                                findings == null ? null : findings.held(id))));
            }
        }
        return out;
    }

    private static String tupleText(String x, String y) {
        return x.compareTo(y) <= 0 ? x + " " + y : y + " " + x;
    }

    static byte[] bytes(ConnectionId id, ValueCounts[] values) {
        return bytes(id, values, null);
    }

    static byte[] bytes(ConnectionId id, ValueCounts[] values, ConnectionCauses findings) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(b);
            out.writeByte(VERSION);
            out.writeLong(id.stream());
            out.writeInt(id.firstFileIndex());
            out.writeLong(id.firstFrameNumber());
            out.writeLong(id.firstNanos());
            out.writeUTF(id.clientIp());
            out.writeInt(id.clientPort());
            out.writeUTF(id.serverIp());
            out.writeInt(id.serverPort());
            out.writeByte(values.length);
            for (ValueCounts v : values) {
                out.writeBoolean(v != null);
                if (v != null) {
                    List<long[]> pairs = new ArrayList<>();
                    v.forEach((value, count) -> pairs.add(new long[] {value, count}));
                    out.writeInt(pairs.size());
                    for (long[] p : pairs) {
                        out.writeLong(p[0]);
                        out.writeLong(p[1]);
                    }
                }
            }
            out.writeBoolean(findings != null);
            if (findings != null) {
                findings.write(out);
            }
            out.flush();
            return b.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);      // a memory stream does not fail
        }
    }

    /** A connection's carried id, values, and causes and exchanges so far (null: none), from {@link #bytes}. */
    record Open(ConnectionId id, ValueCounts[] values, ConnectionCauses findings) {
    }

    /**
     * Reads {@link #bytes}; every count is bounded by the bytes left.
     *
     * @throws IOException another version's or malformed bytes
     */
    static Open read(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IOException("open connection values of version " + version + " (this ackscope reads "
                    + VERSION + "): re-run without --incremental");
        }
        ConnectionId id = new ConnectionId(in.readLong(), in.readInt(), in.readLong(), in.readLong(), in.readUTF(),
                in.readInt(), in.readUTF(), in.readInt());
        int metrics = in.readUnsignedByte();
        if (metrics > EndpointAggregate.METRICS) {
            throw new IOException("open connection values of " + metrics + " metrics, at most "
                    + EndpointAggregate.METRICS + " expected");
        }
        // fewer metrics: carried by a version before the later metrics, which then start from this run's values
        ValueCounts[] values = new ValueCounts[EndpointAggregate.METRICS];
        for (int m = 0; m < metrics; m++) {
            if (in.readBoolean()) {
                int n = in.readInt();
                if (n < 0 || (long) n * 16 > in.available()) {
                    throw new IOException("open connection values: " + n + " pairs in " + in.available() + " bytes");
                }
                values[m] = new ValueCounts();
                for (int i = 0; i < n; i++) {
                    long v = in.readLong();
                    long count = in.readLong();
                    if (count < 1) {
                        throw new IOException("open connection values: count " + count);
                    }
                    values[m].add(v, count);
                }
            }
        }
        ConnectionCauses findings = in.readBoolean() ? ConnectionCauses.read(in) : null;
        if (in.available() != 0) {
            throw new IOException("open connection values: " + in.available() + " bytes after the end");
        }
        return new Open(id, values, findings);
    }
}
