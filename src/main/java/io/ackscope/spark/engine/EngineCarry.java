package io.ackscope.spark.engine;

import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.HeldTuple;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.function.UnaryOperator;

import io.ackscope.tcp.TcpEngine;

/**
 * The open connections a run carries into the next ({@code analyze --incremental}, docs/architecture.md): what the
 * engine tasks ask of it at each source's start and end, in both passes. A whole run's is {@link #NONE}: it holds
 * nothing, and every connection finishes at the end of its source; {@code spark.carry.CarriedState.Held} keeps the
 * held 4-tuples in {@link HeldState} files.
 *
 * <p>At the end of a source a task holds its engine's 4-tuples ({@link io.ackscope.tcp.TcpEngine#hold}) before
 * finishing it, so what the finish gives is provisional (the next run gives it again, complete), as are the records
 * of evicted attempts still held then ({@link io.ackscope.tcp.TcpEngine#revivable}). The ids in held state are
 * {@link #carried} ids: they keep their stream number and first frame and name their first file by its position in
 * the source, as {@code -1 - position}, so that a later run tells them from its own connections (which it numbers
 * after the source's count) and uses them as they are.
 */
public interface EngineCarry extends Serializable {
    /** The carry of a run that carries nothing (a whole run): it resumes nothing and is never given a 4-tuple. */
    EngineCarry NONE = new Nothing();

    /** What is carried, each kind in a directory of its own under a run's carried state. */
    enum Kind {
        /** Pass 1's engine state: enough to tell each connection's first appearance. */
        BOUNDARIES("boundaries"),
        /** Pass 2's engine state. */
        ENGINE("engine"),
        /** Pass 2's latency values of open connections ({@link OpenValues}). */
        VALUES("values");

        private final String dir;

        Kind(String dir) {
            this.dir = dir;
        }

        /** The name of this kind's directory. */
        public String dir() {
            return dir;
        }
    }

    /**
     * The held 4-tuples of {@code source} that go to shuffle partition {@code partition}, of kind {@code kind}; empty
     * for a source seen for the first time.
     */
    List<HeldTuple> resumed(Kind kind, int partition, String source) throws IOException;

    /** A task's held 4-tuples of {@code source} at its end, of kind {@code kind}. */
    void held(Kind kind, int partition, String source, List<HeldTuple> tuples) throws IOException;

    /**
     * Whether pass 1 notes each source's 4-tuples and handshakes ({@link io.ackscope.spark.carry.SourceTuples}): in an
     * archive of two or more sources, whose later runs must tell whether a new connection was seen by another source.
     */
    default boolean keepsTuples() {
        return false;
    }

    /** Whether the run carries open connections: false only for {@link #NONE}. */
    default boolean carries() {
        return true;
    }

    /** {@link #NONE}'s class: one instance (also after a task deserialises it). */
    final class Nothing implements EngineCarry {
        private static final long serialVersionUID = 1L;

        private Nothing() {
        }

        @Override
        public List<HeldTuple> resumed(Kind kind, int partition, String source) {
            return List.of();
        }

        @Override
        public void held(Kind kind, int partition, String source, List<HeldTuple> tuples) {
            if (!tuples.isEmpty()) {
                throw new IllegalStateException("a run that carries nothing was given " + tuples.size()
                        + " held 4-tuples of source " + source);
            }
        }

        @Override
        public boolean carries() {
            return false;
        }

        private Object readResolve() {
            return NONE;
        }
    }

    /** True for the id of a connection an earlier run held ({@link #carried}). */
    static boolean isCarried(ConnectionId id) {
        return id.firstFileIndex() < 0;
    }

    /**
     * The id a connection carries into the next run: stream number {@code stream} (the global one in pass 2, -1 in
     * pass 1, which does not need it) and its first file's position in its source, {@code fileInSource}, as
     * {@code -1 - fileInSource}; an id carried already stays as it is.
     */
    static ConnectionId carried(ConnectionId id, long stream, int fileInSource) {
        if (isCarried(id)) {
            return id;
        }
        return new ConnectionId(stream, -1 - fileInSource, id.firstFrameNumber(), id.firstNanos(), id.clientIp(),
                id.clientPort(), id.serverIp(), id.serverPort());
    }

    /** The position in its source of the first file of carried id {@code id}. */
    static int fileInSource(ConnectionId id) {
        return -1 - id.firstFileIndex();
    }

    /**
     * What a carrying run does around each source's engine in {@link EngineTask#feed}: it runs every source of the
     * run in every partition, with or without frames there, so that each partition resumes and holds its 4-tuples
     * again.
     */
    interface Hooks {
        /** The hooks of a pass that carries nothing: nothing before or after a source. */
        Hooks NONE = new Hooks() {
            @Override
            public void started(int source, TcpEngine engine) {
            }

            @Override
            public void ending(int source, TcpEngine engine) {
            }

            @Override
            public boolean everySource() {
                return false;
            }
        };

        /**
         * Whether the pass runs every source of the run in every partition, with or without frames there (a
         * carrying run: each partition resumes and holds its sources' 4-tuples), rather than only the sources whose
         * frames the partition has.
         */
        default boolean everySource() {
            return true;
        }

        /** Before the source's first segment. */
        void started(int source, TcpEngine engine) throws IOException;

        /** After its last segment, before its engine finishes. */
        void ending(int source, TcpEngine engine) throws IOException;
    }

    /** The hooks of one pass in one partition: resume the source's held 4-tuples, hold them at its end. */
    class Resuming implements Hooks {
        private final EngineCarry carry;
        private final Kind kind;
        private final int partition;
        private final ArchiveNumbering numbering;
        private final UnaryOperator<ConnectionId> ids;

        Resuming(EngineCarry carry, Kind kind, int partition, ArchiveNumbering numbering,
                 UnaryOperator<ConnectionId> ids) {
            this.carry = carry;
            this.kind = kind;
            this.partition = partition;
            this.numbering = numbering;
            this.ids = ids;
        }

        @Override
        public void started(int source, TcpEngine engine) throws IOException {
            String name = numbering.sourceName(source);
            try {
                for (HeldTuple h : carry.resumed(kind, partition, name)) {
                    engine.resume(h);
                }
            } catch (IllegalArgumentException e) {
                throw new IOException("held state of source " + name + " (" + kind.dir() + "): " + e.getMessage(), e);
            }
        }

        @Override
        public void ending(int source, TcpEngine engine) throws IOException {
            hold(source, engine);
        }

        /** Holds {@code engine}'s 4-tuples and hands them to the carry; returns them. */
        List<HeldTuple> hold(int source, TcpEngine engine) throws IOException {
            List<HeldTuple> held = engine.hold(ids);
            carry.held(kind, partition, numbering.sourceName(source), held);
            return held;
        }

        UnaryOperator<ConnectionId> ids() {
            return ids;
        }
    }
}
