package io.ackscope.tcp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32;

/**
 * One {@link TupleTracker}'s state as bytes ({@link TcpEngine#hold}, {@link TcpEngine#resume}): Java serialization of
 * the tracker's object graph, in a form fitted to state that travels between runs of one ackscope version.
 *
 * <p><b>Layout.</b> {@link #FORMAT} (one byte), the {@link #FINGERPRINT} of the state classes (int), the engine kind
 * (one byte: 1 for a {@link TcpEngine#boundariesOnly} engine), the engine's capture clock (max timestamp, last sweep,
 * a pending clock jump), then the serialization stream. Class descriptors are written as one byte, the class's
 * index in {@link #CLASSES}, instead of names and field lists (Java writes those again in every stream; here a
 * stream is one 4-tuple), so the fingerprint, computed from every listed class's name, serialVersionUID and fields,
 * is what makes a state written by another version fail clearly instead of being misread.
 *
 * <p><b>Shared objects.</b> What a tracker shares with its engine (the sink, the per-frame {@link FrameAnalysis},
 * the replay {@link Segment}, the {@link StreamCounter}, the {@link EngineConfig}) is written as a {@link Shared}
 * marker and bound to the resuming engine's objects on reading. Every {@link ConnectionId} goes through the hold's
 * rewriting on writing (once per id object, so shared ids stay shared).
 *
 * <p><b>Untrusted input.</b> The bytes come back from a file: only the listed classes can be read (the one-byte
 * descriptors cannot name any other, and a filter refuses them besides), arrays are bounded by the engine's own
 * largest ({@link UnackedList#MAX_SEGMENTS}), and depth, references and bytes are bounded too. Classes holding
 * indexes into their arrays check them on reading.
 */
final class TrackerState {
    /** Version of the layout above. */
    static final byte FORMAT = 1;

    /** What the resuming engine says when the state is another version's. */
    static final String OTHER_VERSION = "state written by another ackscope version: re-run without --incremental";

    /** The markers written for the objects a tracker shares with its engine. */
    enum Shared { SINK, FRAME_ANALYSIS, REPLAY, STREAMS, CONFIG }

    /** Every class a held state may contain; a class's index is its descriptor on the wire (append only). */
    private static final List<Class<?>> CLASSES = List.of(TupleTracker.class, TupleTracker.Closed.class,
            ConnectionAnalyzer.class, Handshake.class, Flow.class, UnackedList.class, History.class, Summary.Acc.class,
            StallDetector.class, ExchangeTracker.class, ResponseTimeCauses.class, CauseDetector.class,
            CauseDetector.Episode.class, CauseDetector.Episode[].class, WindowLimitDetector.class,
            IdleRestartDetector.class, ConnectionId.class, Side.class, ConnectionRecord.OriginatorRule.class,
            Enum.class, Shared.class, long[].class, long[][].class, int[].class, boolean[].class, byte[].class,
            SeqSpan.class, ConnectionClose.class, AckDelayTracker.class);
    private static final Map<Class<?>, Integer> INDEX = new HashMap<>();
    private static final ObjectStreamClass[] DESCRIPTORS = new ObjectStreamClass[CLASSES.size()];
    /** CRC-32 of every listed class's name, serialVersionUID and serialized fields, in list order. */
    static final int FINGERPRINT;

    static {
        CRC32 crc = new CRC32();
        for (int i = 0; i < CLASSES.size(); i++) {
            Class<?> c = CLASSES.get(i);
            INDEX.put(c, i);
            ObjectStreamClass d = ObjectStreamClass.lookup(c);
            DESCRIPTORS[i] = d;
            StringBuilder sb = new StringBuilder(c.getName()).append('/').append(d.getSerialVersionUID());
            for (ObjectStreamField f : d.getFields()) {
                sb.append('/').append(f.getName()).append(':').append(f.getTypeCode()).append(f.getTypeString());
            }
            crc.update(sb.append(';').toString().getBytes(StandardCharsets.UTF_8));
        }
        FINGERPRINT = (int) crc.getValue();
    }

    /** Bounds on what one state may hold: far above any real tracker's (a few dozen objects), far below harm. */
    private static final int MAX_DEPTH = 24;
    private static final int MAX_REFERENCES = 10_000;

    /** The capture clock of the engine that held a state ({@link TcpEngine}'s fields of the same names). */
    record Clock(long maxTs, long lastSweep, boolean jumpPending) {
    }

    /** What a state read back holds. */
    record Read(boolean boundariesOnly, Clock clock, TupleTracker tracker) {
    }

    private TrackerState() {
    }

    /** The state of {@code t}, held by an engine with clock {@code clock}; {@code ids} rewrites every id in it. */
    static byte[] write(TupleTracker t, Clock clock, UnaryOperator<ConnectionId> ids) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
            DataOutputStream head = new DataOutputStream(bytes);
            head.writeByte(FORMAT);
            head.writeInt(FINGERPRINT);
            head.writeByte(t.boundariesOnly() ? 1 : 0);
            head.writeLong(clock.maxTs());
            head.writeLong(clock.lastSweep());
            head.writeBoolean(clock.jumpPending());
            head.flush();
            try (Writer out = new Writer(bytes, t, ids)) {
                out.writeObject(t);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            // only a class outside the list can fail here (memory streams do not): a programming error
            throw new UncheckedIOException("cannot hold the state of a 4-tuple", e);
        }
    }

    /**
     * Reads a state written by {@link #write}, binding its shared objects to those of {@code engine}'s tracker
     * {@code into} gives (a fresh tracker of the resuming engine: its config, counter, sink and scratch objects).
     *
     * @throws IllegalArgumentException the state is another version's ({@link #OTHER_VERSION}) or malformed
     */
    static Read read(byte[] state, TupleTracker into) {
        try {
            DataInputStream head = new DataInputStream(new ByteArrayInputStream(state));
            int format = head.readUnsignedByte();
            int fingerprint = head.readInt();
            if (format != FORMAT || fingerprint != FINGERPRINT) {
                throw new IllegalArgumentException(OTHER_VERSION + " (format " + format + ", classes "
                        + Integer.toHexString(fingerprint) + "; this version reads " + FORMAT + ", "
                        + Integer.toHexString(FINGERPRINT) + ")");
            }
            int kind = head.readUnsignedByte();
            if (kind > 1) {
                throw new IllegalArgumentException("malformed held state: engine kind " + kind);
            }
            Clock clock = new Clock(head.readLong(), head.readLong(), head.readBoolean());
            try (Reader in = new Reader(head, state.length, into)) {
                Object o = in.readObject();
                if (!(o instanceof TupleTracker t) || in.read() != -1) {
                    throw new IllegalArgumentException("malformed held state: not one 4-tuple's tracker");
                }
                return new Read(kind == 1, clock, t);
            }
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            // a damaged or crafted stream can fail inside the JDK's reading in many ways; each is the state's fault
            throw new IllegalArgumentException("malformed held state: " + e, e);
        }
    }

    /** Writes descriptors as indexes and shared objects as markers; rewrites ids. */
    private static final class Writer extends ObjectOutputStream {
        private final Map<Object, Shared> shared = new IdentityHashMap<>();
        private final UnaryOperator<ConnectionId> ids;

        Writer(ByteArrayOutputStream out, TupleTracker t, UnaryOperator<ConnectionId> ids) throws IOException {
            super(out);
            this.ids = ids;
            shared.put(t.sink(), Shared.SINK);
            shared.put(t.frameAnalysis(), Shared.FRAME_ANALYSIS);
            shared.put(t.replay(), Shared.REPLAY);
            shared.put(t.streams(), Shared.STREAMS);
            shared.put(t.config(), Shared.CONFIG);
            enableReplaceObject(true);
        }

        @Override
        protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
            Integer i = INDEX.get(desc.forClass());
            if (i == null) {
                throw new NotSerializableException(desc.getName() + " is not part of a held state");
            }
            writeByte(i);
        }

        @Override
        protected Object replaceObject(Object obj) throws IOException {
            Shared s = shared.get(obj);
            if (s != null) {
                return s;
            }
            if (obj instanceof ConnectionId id) {
                return ids.apply(id);
            }
            if (obj instanceof AnalysisSink || obj instanceof FrameAnalysis || obj instanceof Segment
                    || obj instanceof StreamCounter || obj instanceof EngineConfig) {
                throw new NotSerializableException(obj.getClass().getName() + " not shared with the engine");
            }
            return obj;
        }
    }

    /** Reads descriptors as indexes of the list only, within the bounds, and binds the markers. */
    private static final class Reader extends ObjectInputStream {
        private final TupleTracker into;

        Reader(DataInputStream in, long maxBytes, TupleTracker into) throws IOException {
            super(in);
            this.into = into;
            // the engine's own objects the markers resolve to are checked too (after resolveObject)
            Set<Class<?>> bound = Set.of(into.sink().getClass(), FrameAnalysis.class, Segment.class,
                    StreamCounter.class, EngineConfig.class);
            setObjectInputFilter(info -> {
                Class<?> c = info.serialClass();
                if (info.depth() > MAX_DEPTH || info.references() > MAX_REFERENCES || info.streamBytes() > maxBytes
                        || info.arrayLength() > UnackedList.MAX_SEGMENTS
                        || (c != null && !INDEX.containsKey(c) && !bound.contains(c))) {
                    return ObjectInputFilter.Status.REJECTED;
                }
                return ObjectInputFilter.Status.ALLOWED;
            });
            enableResolveObject(true);
        }

        @Override
        protected ObjectStreamClass readClassDescriptor() throws IOException {
            int i = readUnsignedByte();
            if (i >= DESCRIPTORS.length) {
                throw new InvalidClassException("class " + i + " is not part of a held state");
            }
            return DESCRIPTORS[i];
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws InvalidClassException {
            Class<?> c = desc.forClass();
            if (c == null || !INDEX.containsKey(c)) {
                throw new InvalidClassException(desc.getName(), "not part of a held state");
            }
            return c;
        }

        @Override
        protected Object resolveObject(Object obj) {
            if (obj instanceof Shared s) {
                return switch (s) {
                    case SINK -> into.sink();
                    case FRAME_ANALYSIS -> into.frameAnalysis();
                    case REPLAY -> into.replay();
                    case STREAMS -> into.streams();
                    case CONFIG -> into.config();
                };
            }
            return obj;
        }
    }
}
