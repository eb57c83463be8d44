package io.ackscope.spark.engine;

import io.ackscope.spark.commit.TaskOutput;
import io.ackscope.spark.source.SegmentRows;

import io.ackscope.capture.FileFrames;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.EngineConfig;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.RoleEvidence;
import io.ackscope.tcp.TcpEngine;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Runs the TCP engine over one shuffle partition: frames of whole 4-tuples, in file order, which is source by
 * source (files are ordered by source first). Each source gets an engine of its own (a source change is the end of
 * one capture and the start of the next, so the same 4-tuple in two sources is two connections), its frames
 * renumbered in the source and its duplicates of earlier files left out ({@link ArchiveNumbering}). The engine's
 * results depend only on each 4-tuple's own frames, so each connection comes out exactly as a single engine over
 * its source would give it; only its {@code tcp.stream} number is local.
 *
 * <p>With one source and nothing carried, one pass ({@link #write} without ranks) writes every table with each
 * connection's (first file, first frame) key as its {@code stream} and returns the keys; the driver ranks them into
 * global stream numbers and maps the column in the files. Otherwise, pass 1 ({@link #connectionKeys}) only collects
 * the keys (and what the vantage pass and a carrying run need of them), the driver ranks them, and pass 2
 * ({@link #write} with the ranks) runs again over the same shuffle output (Spark reuses it) and writes every table
 * with the global numbers. Either writes into task-attempt files that the driver commits.
 */
public final class EngineTask {
    private EngineTask() {
    }

    /** Bits of the frame number in a {@link #key}; the file index is above them. */
    private static final int FRAME_BITS = 40;

    /** Packs a connection's first appearance into one sortable long. */
    static long key(int fileIndex, long frameNumber) {
        if (fileIndex < 0 || fileIndex >= (1 << (63 - FRAME_BITS)) || frameNumber < 0
                || frameNumber >= (1L << FRAME_BITS)) {
            throw new IllegalArgumentException("file " + fileIndex + " frame " + frameNumber + " out of range");
        }
        return ((long) fileIndex << FRAME_BITS) | frameNumber;
    }

    static long key(ConnectionId id) {
        return key(id.firstFileIndex(), id.firstFrameNumber());
    }

    /** The file index of a {@link #key}. */
    static int fileOf(long key) {
        return (int) (key >>> FRAME_BITS);
    }

    /**
     * What pass 1 learns of a partition.
     *
     * @param keys    the first-appearance keys of its connections, sorted
     * @param revived the keys of its evicted attempts that a later segment continued (their first record is
     *                superseded: {@link AnalysisSink#onAttemptRevived}), sorted
     * @param shared  with two or more sources, the 4-tuple keys two or more of them saw ({@link SharedTuples}),
     *                sorted; empty otherwise
     * @param lone    with two or more sources, the handshakes of 4-tuples one of them alone saw (for {@link NatPairs})
     * @param tuples  in a carrying run that keeps them ({@link EngineCarry#keepsTuples}), per source the 4-tuples it
     *                alone saw and their first handshakes ({@link SharedTuples#bySource}); null otherwise
     */
    public record Pass1(long[] keys, long[] revived, long[] shared, List<NatPairs.Candidate> lone, long[][][] tuples)
            implements Serializable {
    }


    /** Pass 1: the first-appearance keys of the partition's connections, and those of its revived attempts. */
    public static Pass1 connectionKeys(Iterator<InternalRow> rows, ArchiveNumbering numbering) {
        return connectionKeys(rows, numbering, -1, EngineCarry.NONE);
    }

    /**
     * Pass 1 of shuffle partition {@code partition} in a run that carries open connections ({@code carry};
     * {@link EngineCarry#NONE}: none): connections an earlier run held are numbered already and left out.
     */
    public static Pass1 connectionKeys(Iterator<InternalRow> rows, ArchiveNumbering numbering, int partition,
                                EngineCarry carry) {
        long[][] keys = {new long[1024], new long[0]};
        int[] n = {0, 0};
        AnalysisSink sink = new AnalysisSink() {
            @Override
            public void onConnectionBoundary(ConnectionId id) {
                if (!EngineCarry.isCarried(id)) {
                    add(0, key(id));
                }
            }

            @Override
            public void onAttemptRevived(ConnectionId id) {
                if (!EngineCarry.isCarried(id)) {
                    add(1, key(id));     // a carried one's first record was an earlier run's, and provisional
                }
            }

            private void add(int list, long key) {
                if (n[list] == keys[list].length) {
                    keys[list] = Arrays.copyOf(keys[list], Math.max(16, n[list] * 2));
                }
                keys[list][n[list]++] = key;
            }
        };
        boolean pairing = numbering.sources() >= 2;
        boolean keep = carry.keepsTuples();
        SharedTuples shared = pairing || keep ? new SharedTuples(numbering) : null;
        EngineCarry.Hooks hooks = !carry.carries() ? EngineCarry.Hooks.NONE
                : new EngineCarry.Resuming(carry, EngineCarry.Kind.BOUNDARIES, partition, numbering,
                        id -> EngineCarry.isCarried(id) ? id
                                : EngineCarry.carried(id, -1, numbering.fileInSource(id.firstFileIndex())));
        feed(shared == null ? rows : shared.watch(rows), numbering,
                source -> TcpEngine.boundariesOnly(EngineConfig.DEFAULTS, sink), hooks);
        long[] out = Arrays.copyOf(keys[0], n[0]);
        Arrays.sort(out);
        long[] revived = Arrays.copyOf(keys[1], n[1]);
        Arrays.sort(revived);
        return new Pass1(out, revived, pairing ? shared.shared() : new long[0], pairing ? shared.lone() : List.of(),
                keep ? shared.bySource(numbering.sources()) : null);
    }

    /** Engine figures summed over a partition's sources. */
    record Fed(long connections, long segments, int peakOpenTuples, long attemptsEvicted) {
    }

    /**
     * Feeds a partition's rows source by source, a new engine from {@code engines} for each; duplicates are left
     * out and frames renumbered in their source.
     */
    static Fed feed(Iterator<InternalRow> rows, ArchiveNumbering numbering,
                            java.util.function.IntFunction<TcpEngine> engines) {
        return feed(rows, numbering, engines, EngineCarry.Hooks.NONE);
    }

    /** {@link #feed} with {@code hooks} around each source's engine. */
    static Fed feed(Iterator<InternalRow> rows, ArchiveNumbering numbering,
                    java.util.function.IntFunction<TcpEngine> engines, EngineCarry.Hooks hooks) {
        Segment s = new Segment();
        TcpEngine engine = null;
        int file = -1;
        int source = -1;
        FileFrames frames = null;
        Fed done = new Fed(0, 0, 0, 0);
        while (rows.hasNext()) {
            SegmentRows.fill(s, rows.next());
            if (s.fileIndex != file) {
                file = s.fileIndex;
                frames = numbering.frames(file);
                if (numbering.source(file) != source) {
                    done = finish(engine, source, done, hooks);
                    // a carrying run runs the sources without frames here too (their held 4-tuples)
                    for (int skipped = source + 1; hooks.everySource() && skipped < numbering.source(file);
                         skipped++) {
                        done = finish(start(engines, skipped, hooks), skipped, done, hooks);
                    }
                    source = numbering.source(file);
                    engine = start(engines, source, hooks);
                }
            }
            if (frames.duplicate(s.frameNumber)) {
                continue;
            }
            s.frameNumber = frames.sourceFrame(s.frameNumber);
            engine.accept(s);
        }
        done = finish(engine, source, done, hooks);
        for (int skipped = source + 1; hooks.everySource() && skipped < numbering.sources(); skipped++) {
            done = finish(start(engines, skipped, hooks), skipped, done, hooks);
        }
        return done;
    }

    private static TcpEngine start(java.util.function.IntFunction<TcpEngine> engines, int source, EngineCarry.Hooks hooks) {
        TcpEngine engine = engines.apply(source);
        try {
            hooks.started(source, engine);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return engine;
    }

    /** Finishes {@code engine} (the end of its source), if any, and adds its figures to {@code sum}. */
    private static Fed finish(TcpEngine engine, int source, Fed sum, EngineCarry.Hooks hooks) {
        if (engine == null) {
            return sum;
        }
        try {
            hooks.ending(source, engine);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        engine.finish();
        return new Fed(sum.connections() + engine.connections(), sum.segments() + engine.segments(),
                Math.max(sum.peakOpenTuples(), engine.peakOpenTuples()), sum.attemptsEvicted() + engine.attemptsEvicted());
    }

    /**
     * What the pass that writes the tables ({@link #write}) produced of one partition.
     *
     * @param endpoints       the per-endpoint aggregate (latency and causes) of the final rows
     * @param openEndpoints   that of the provisional rows (of connections a carrying run held: {@link EngineCarry})
     * @param keys            in a pass without the global ranking ({@link #write} with null ranks), the sorted
     *                        first-appearance keys of the partition's connections, which its rows hold as their
     *                        {@code stream}; empty otherwise
     */
    public record Result(int partition, List<TaskOutput.Written> files, long connections, long segments,
                         int peakOpenTuples, long attemptsEvicted, EndpointAggregate endpoints,
                         VantageAggregate vantage, EndpointAggregate openEndpoints, long[] keys)
            implements Serializable {
    }

    /**
     * Pass 2: analyses the partition and writes its rows of every engine table under
     * {@code staging/<table>/_temporary/<attempt>/}.
     *
     * @param ranks   sorted first-appearance keys of all connections: a connection's stream number is its index;
     *                null in a single pass: the rows hold each connection's key instead, and the result the
     *                partition's keys ({@link Result#keys})
     * @param revived sorted keys of the revived attempts ({@link Pass1#revived()}): their first record is not
     *                written, so {@code connections} holds one row per stream; null in a single pass: an evicted
     *                attempt's record waits until it is settled or revived ({@link TableSink})
     * @param plan    the connections matched between sources and the pairs' clocks; null with a single source
     */
    public static Result write(int partition, long attempt, Iterator<InternalRow> rows, long[] ranks, long[] revived,
                        ArchiveNumbering numbering, VantagePlan plan, String stagingRoot, Configuration conf) {
        return write(partition, attempt, rows, ranks, revived, numbering, plan, stagingRoot, conf, EngineCarry.NONE,
                null);
    }

    /** {@link #write} in a run that carries open connections, roles from frames and ports alone. */
    public static Result write(int partition, long attempt, Iterator<InternalRow> rows, long[] ranks, long[] revived,
                        ArchiveNumbering numbering, VantagePlan plan, String stagingRoot, Configuration conf,
                        EngineCarry carry) {
        return write(partition, attempt, rows, ranks, revived, numbering, plan, stagingRoot, conf, carry, null);
    }

    /**
     * Pass 2 in a run that carries open connections ({@code carry}; {@link EngineCarry#NONE}: none): each source's
     * held 4-tuples are
     * resumed at its start and held at its end, and the rows its finish gives, and those of its evicted attempts still
     * held, are written as provisional ({@link TableSink#provisional}).
     *
     * @param roles per source, the evidence of who serves (the read stage's); null: roles from frames and ports alone
     */
    public static Result write(int partition, long attempt, Iterator<InternalRow> rows, long[] ranks, long[] revived,
                        ArchiveNumbering numbering, VantagePlan plan, String stagingRoot, Configuration conf,
                        EngineCarry carry, RoleEvidence[] roles) {
        try (TableSink sink = new TableSink(partition, attempt, stagingRoot, conf, ranks, revived, numbering, plan,
                carry, roles)) {
            return sink.result(feed(rows, numbering, sink::engine, sink.hooks()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
