package io.ackscope.spark;

import io.ackscope.spark.source.SegmentRows;

import io.ackscope.capture.FileFrames;
import io.ackscope.capture.FileGap;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.HivePath;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.VantageTables;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.EngineConfig;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.CauseEvent;
import io.ackscope.tcp.LatencyEvent;
import io.ackscope.tcp.RttSample;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.Stall;
import io.ackscope.tcp.TcpEngine;
import io.ackscope.tcp.ValueCounts;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Runs the TCP engine over one shuffle partition: frames of whole 4-tuples, in file order, which is source by
 * source (files are ordered by source first). Each source gets an engine of its own (a source change is the end of
 * one capture and the start of the next, so the same 4-tuple in two sources is two connections), its frames
 * renumbered in the source and its duplicates of earlier files left out ({@link ArchiveNumbering}). The engine's
 * results depend only on each 4-tuple's own frames, so each connection comes out exactly as a single engine over
 * its source would give it; only its {@code tcp.stream} number is local.
 *
 * <p>Pass 1 ({@link #connectionKeys}) only collects each connection's (first file, first frame), from which the
 * driver ranks connections into global stream numbers. Pass 2 ({@link #write}) runs again over the same shuffle
 * output (Spark reuses it) and writes every table with the global numbers into task-attempt files that the driver
 * commits.
 */
final class EngineTask {
    private EngineTask() {
    }

    private static final long DAY_NANOS = 86_400_000_000_000L;

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
     * @param tuples  in a carrying run, per source the 4-tuples it alone saw and their first handshakes
     *                ({@link SharedTuples#bySource}); null otherwise
     */
    record Pass1(long[] keys, long[] revived, long[] shared, List<NatPairs.Candidate> lone, long[][][] tuples)
            implements Serializable {
    }

    /** Pass 1: the first-appearance keys of the partition's connections, and those of its revived attempts. */
    static Pass1 connectionKeys(Iterator<InternalRow> rows, ArchiveNumbering numbering) {
        return connectionKeys(rows, numbering, -1, null);
    }

    /**
     * Pass 1 of shuffle partition {@code partition} in a run that carries open connections ({@code carry}; null:
     * none): connections an earlier run held are numbered already and left out.
     */
    static Pass1 connectionKeys(Iterator<InternalRow> rows, ArchiveNumbering numbering, int partition,
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
        SharedTuples shared = pairing || carry != null ? new SharedTuples(numbering) : null;
        EngineCarry.Hooks hooks = carry == null ? null : new EngineCarry.Resuming(carry, 1, partition, numbering,
                id -> EngineCarry.isCarried(id) ? id
                        : EngineCarry.carried(id, -1, numbering.fileInSource(id.firstFileIndex())));
        feed(shared == null ? rows : shared.watch(rows), numbering,
                source -> TcpEngine.boundariesOnly(EngineConfig.DEFAULTS, sink), hooks);
        long[] out = Arrays.copyOf(keys[0], n[0]);
        Arrays.sort(out);
        long[] revived = Arrays.copyOf(keys[1], n[1]);
        Arrays.sort(revived);
        return new Pass1(out, revived, pairing ? shared.shared() : new long[0], pairing ? shared.lone() : List.of(),
                carry != null ? shared.bySource(numbering.sources()) : null);
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
        return feed(rows, numbering, engines, null);
    }

    /** {@link #feed} with {@code hooks} around each source's engine (null: none). */
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
                    for (int skipped = source + 1; hooks != null && skipped < numbering.source(file); skipped++) {
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
        for (int skipped = source + 1; hooks != null && skipped < numbering.sources(); skipped++) {
            done = finish(start(engines, skipped, hooks), skipped, done, hooks);
        }
        return done;
    }

    private static TcpEngine start(java.util.function.IntFunction<TcpEngine> engines, int source, EngineCarry.Hooks hooks) {
        TcpEngine engine = engines.apply(source);
        if (hooks != null) {
            try {
                hooks.started(source, engine);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return engine;
    }

    /** Finishes {@code engine} (the end of its source), if any, and adds its figures to {@code sum}. */
    private static Fed finish(TcpEngine engine, int source, Fed sum, EngineCarry.Hooks hooks) {
        if (engine == null) {
            return sum;
        }
        if (hooks != null) {
            try {
                hooks.ending(source, engine);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        engine.finish();
        return new Fed(sum.connections() + engine.connections(), sum.segments() + engine.segments(),
                Math.max(sum.peakOpenTuples(), engine.peakOpenTuples()), sum.attemptsEvicted() + engine.attemptsEvicted());
    }

    /**
     * A table file one task attempt wrote.
     *
     * @param dir the partition directory of its rows in the table ({@code source=.../date=...}; {@code ""} flat)
     */
    record Written(String table, String dir, String path, long rows) implements Serializable {
    }

    /** What pass 2 of one partition produced. */
    /**
     * What pass 2 of one partition produced.
     *
     * @param latency         the latency aggregate of the final rows
     * @param findings        the cause aggregate of the final rows
     * @param openLatency     that of the provisional rows (of connections a carrying run held: {@link EngineCarry})
     * @param openFindings    likewise for causes
     */
    record Result(int partition, List<Written> files, long connections, long segments, int peakOpenTuples,
                  long attemptsEvicted, LatencyAggregate latency, FindingsAggregate findings,
                  VantageAggregate vantage, LatencyAggregate openLatency, FindingsAggregate openFindings)
            implements Serializable {
    }

    /**
     * Pass 2: analyses the partition and writes its rows of every engine table under
     * {@code staging/<table>/_temporary/<attempt>/}.
     *
     * @param ranks   sorted first-appearance keys of all connections: a connection's stream number is its index
     * @param revived sorted keys of the revived attempts ({@link Pass1#revived()}): their first record is not
     *                written, so {@code connections} holds one row per stream
     * @param plan    the connections matched between sources and the pairs' clocks; null with a single source
     */
    static Result write(int partition, long attempt, Iterator<InternalRow> rows, long[] ranks, long[] revived,
                        ArchiveNumbering numbering, VantagePlan plan, String stagingRoot, Configuration conf) {
        return write(partition, attempt, rows, ranks, revived, numbering, plan, stagingRoot, conf, null);
    }

    /**
     * Pass 2 in a run that carries open connections ({@code carry}; null: none): each source's held 4-tuples are
     * resumed at its start and held at its end, and the rows its finish gives, and those of its evicted attempts still
     * held, are written as provisional ({@link Writers#provisional}).
     */
    static Result write(int partition, long attempt, Iterator<InternalRow> rows, long[] ranks, long[] revived,
                        ArchiveNumbering numbering, VantagePlan plan, String stagingRoot, Configuration conf,
                        EngineCarry carry) {
        try (Writers w = new Writers(partition, attempt, stagingRoot, conf, ranks, revived, numbering, plan)) {
            PartitionPoints points = plan == null ? null
                    : new PartitionPoints(numbering, (id, first) -> plan.matched(key(id), false));
            Fed fed = feed(rows, numbering, source -> {
                w.points = points == null ? null : points.point(source);
                return new TcpEngine(w);
            }, carry == null ? null : w.carrying(carry));
            if (points != null) {
                VantageRows.write(points, plan, ranks, numbering, w.vantage, w.oneWayDelaysSink());
            }
            w.check();
            return new Result(partition, w.written(), fed.connections(), fed.segments(), fed.peakOpenTuples(),
                    fed.attemptsEvicted(), w.finalLatency.sealed(), w.finalFindings, w.vantage,
                    w.openLatency.sealed(), w.openFindings);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sink of pass 2: one lazily opened writer per table, one reused row per table. */
    private static final class Writers implements AnalysisSink, AutoCloseable {
        private final int partition;
        private final long attempt;
        private final String stagingRoot;
        private final Configuration conf;
        private final long[] ranks;
        private final long[] revived;
        /** Revived attempts whose first (superseded) record has come and was left out. */
        private final java.util.Set<Long> superseded = new java.util.HashSet<>();
        private final ArchiveNumbering numbering;
        private final TaskOutput rttSamples = new TaskOutput(EngineTables.RTT_SAMPLES);
        private final TaskOutput ackDelays = new TaskOutput(EngineTables.ACK_DELAYS);
        private final TaskOutput stalls = new TaskOutput(EngineTables.STALLS);
        private final TaskOutput latencyEvents = new TaskOutput(EngineTables.LATENCY_EVENTS);
        private final TaskOutput exchanges = new TaskOutput(EngineTables.EXCHANGES);
        private final TaskOutput connections = new TaskOutput(EngineTables.CONNECTIONS);
        private final TaskOutput oneWayDelays = new TaskOutput(VantageTables.ONE_WAY_DELAYS);
        private final List<TaskOutput> outputs = List.of(connections, rttSamples, ackDelays, stalls, latencyEvents,
                exchanges, oneWayDelays);
        private final VantagePlan plan;
        /** The current source's segments for the vantage part, when there is a plan. */
        PartitionPoints.Point points;
        final VantageAggregate vantage = new VantageAggregate();
        /** Values of open connections, until their record says which server endpoint they belong to. */
        private final Map<ConnectionId, ValueCounts[]> openValues = new HashMap<>();
        /** The last connection {@link #value} was called for, and its values (records come in runs). */
        private ConnectionId lastValuesId;
        private ValueCounts[] lastValues;
        final LatencyAggregate finalLatency = new LatencyAggregate();
        final FindingsAggregate finalFindings = new FindingsAggregate();
        /** The aggregates of provisional rows ({@link #provisional}). */
        final LatencyAggregate openLatency = new LatencyAggregate();
        final FindingsAggregate openFindings = new FindingsAggregate();
        /** Where rows go now: the final aggregates, or from a carrying run's hold on, the provisional ones. */
        private LatencyAggregate latency = finalLatency;
        private FindingsAggregate findings = finalFindings;
        private ConnectionId lastId;
        private long lastStream;
        private String lastSource;
        private String lastUid;
        /** The partition directory of the last connection, and the source and UTC day it was made for. */
        private String lastDir;
        private String lastDirSource;
        private long lastDay;
        /** Uids of open connections, each computed once (a SHA-256), until the connection's record. */
        private final Map<ConnectionId, String> uids = new HashMap<>();
        private IOException failure;
        /**
         * The rows written now are provisional: the next run of a carrying run retires and replaces them (true from
         * the hold at a source's end, through its finish). The row writer routes them ({@code open-*} files).
         */
        boolean provisional;
        /** Carrying open connections (null: not): then evicted attempts' records wait in {@link #pending}. */
        private EngineCarry carry;
        /** The source whose engine runs, in a carrying run. */
        private int current = -1;
        /** The attempt the sweep is evicting (its record comes next), in a carrying run. */
        private ConnectionId evicting;
        /** Records of evicted attempts not yet settled ({@link AnalysisSink#onAttemptSettled}) or revived. */
        private final Map<ConnectionId, ConnectionRecord> pending = new java.util.LinkedHashMap<>();

        Writers(int partition, long attempt, String stagingRoot, Configuration conf, long[] ranks, long[] revived,
                ArchiveNumbering numbering, VantagePlan plan) {
            this.revived = revived;
            this.plan = plan;
            this.partition = partition;
            this.attempt = attempt;
            this.stagingRoot = stagingRoot;
            this.conf = conf;
            this.ranks = ranks;
            this.numbering = numbering;
        }

        private long stream(ConnectionId id) {
            if (id == lastId) {
                return lastStream;
            }
            if (EngineCarry.isCarried(id)) {
                lastStream = id.stream();   // numbered by an earlier run, in the source running now
                lastSource = numbering.sourceName(current);
            } else {
                int r = Arrays.binarySearch(ranks, key(id));
                if (r < 0) {
                    throw new IllegalStateException("connection " + id + " was not seen in pass 1");
                }
                lastStream = numbering.stream(r, id.firstFileIndex());
                lastSource = numbering.sourceName(numbering.source(id.firstFileIndex()));
            }
            lastId = id;
            lastUid = uids.computeIfAbsent(id, k -> k.uid(lastSource));
            long day = Math.floorDiv(id.firstNanos(), DAY_NANOS);
            if (lastDir == null || day != lastDay || !lastSource.equals(lastDirSource)) {
                lastDir = HivePath.sourceDateDir(lastSource, id.firstNanos());
                lastDay = day;
                lastDirSource = lastSource;
            }
            return lastStream;
        }

        /** The uid of the connection {@link #stream} was last called for. */
        private String uid() {
            return lastUid;
        }

        /** The source of the connection {@link #stream} was last called for. */
        private String source() {
            return lastSource;
        }

        /** The partition directory of the connection {@link #stream} was last called for. */
        private String dir() {
            return lastDir;
        }

        private void write(TaskOutput o) {
            write(o, "");
        }

        private void write(TaskOutput o, String dir) {
            if (failure != null) {
                return;
            }
            try {
                o.write(dir, provisional, stagingRoot, attempt, partition, conf);
            } catch (IOException e) {
                failure = e;
            }
        }

        void check() throws IOException {
            if (failure != null) {
                throw failure;
            }
        }

        VantageRows.Sink oneWayDelaysSink() {
            return new VantageRows.Sink() {
                @Override
                public RowBuffer row() {
                    return oneWayDelays.row;
                }

                @Override
                public void written() {
                    write(oneWayDelays);
                }
            };
        }

        @Override
        public void onFrame(Segment s, FrameAnalysis fa) {
            if (points != null) {
                points.onFrame(s, fa);
            }
        }

        private void value(ConnectionId id, int metric, long nanos) {
            if (id != lastValuesId) {
                lastValues = openValues.computeIfAbsent(id, k -> new ValueCounts[LatencyAggregate.METRICS]);
                lastValuesId = id;
            }
            ValueCounts[] v = lastValues;
            if (v[metric] == null) {
                v[metric] = new ValueCounts();
            }
            v[metric].add(nanos / 1000);
        }

        @Override
        public void onRttSample(RttSample s) {
            if (s.kind() == RttSample.Kind.DATA_ACK) {
                value(s.connection(), LatencyAggregate.DATA_RTT, s.valueNanos());
            }
            EngineRows.rttSample(rttSamples.row, s, stream(s.connection()), source(), uid());
            write(rttSamples, dir());
        }

        @Override
        public void onAckDelay(AckDelay a) {
            value(a.connection(), LatencyAggregate.ACK_DELAY, a.valueNanos());
            EngineRows.ackDelay(ackDelays.row, a, stream(a.connection()), source(), uid());
            write(ackDelays, dir());
        }

        @Override
        public void onStall(Stall s) {
            findings.stall(s);
            EngineRows.stall(stalls.row, s, stream(s.connection()), source(), uid());
            if (plan != null) {
                plan.stallRow(stalls.row, numbering.source(s.connection().firstFileIndex()), s.ackFrame());
            }
            write(stalls, dir());
        }

        @Override
        public void onLatencyEvent(LatencyEvent e) {
            EngineRows.latencyEvent(latencyEvents.row, e, stream(e.connection()), source(), uid());
            write(latencyEvents, dir());
        }

        @Override
        public void onCause(CauseEvent e) {
            ConnectionId id = e.connection();
            if (!EngineCarry.isCarried(id) && Arrays.binarySearch(revived, key(id)) >= 0
                    && !superseded.contains(key(id))) {
                return;    // a revived attempt's first causes: they come again with its complete record
            }
            findings.cause(e);
        }

        @Override
        public void onExchange(Exchange e) {
            findings.exchange(e);
            if (e.ttfbNanos() >= 0) {
                value(e.connection(), LatencyAggregate.TTFB, e.ttfbNanos());
            }
            EngineRows.exchange(exchanges.row, e, stream(e.connection()), source(), uid());
            if (plan != null) {
                plan.exchangeRow(exchanges.row, key(e.connection()), e.index());
            }
            write(exchanges, dir());
        }

        /** The hooks of a carrying run's pass 2 (see {@link #write(int, long, Iterator, long[], long[], ArchiveNumbering, VantagePlan, String, Configuration, EngineCarry)}). */
        EngineCarry.Hooks carrying(EngineCarry carry) {
            this.carry = carry;
            return new EngineCarry.Resuming(carry, 2, partition, numbering,
                    id -> EngineCarry.isCarried(id) ? id
                            : EngineCarry.carried(id, stream(id), numbering.fileInSource(id.firstFileIndex()))) {
                @Override
                public void started(int source, TcpEngine engine) throws IOException {
                    current = source;
                    provisional = false;
                    super.started(source, engine);
                    String name = numbering.sourceName(source);
                    latency = finalLatency;
                    findings = finalFindings;
                    for (io.ackscope.tcp.HeldTuple t : carry.resumed(EngineCarry.VALUES, partition, name)) {
                        try {
                            OpenValues.Open o = OpenValues.read(t.state());
                            openValues.put(o.id(), o.values());
                            if (o.findings() != null) {
                                finalFindings.resume(o.id(), o.findings());
                            }
                        } catch (IOException e) {
                            throw new IOException("held values of source " + name + ": " + e.getMessage(), e);
                        }
                    }
                }

                @Override
                public void ending(int source, TcpEngine engine) throws IOException {
                    List<io.ackscope.tcp.HeldTuple> held = hold(source, engine);
                    carry.held(EngineCarry.VALUES, partition, numbering.sourceName(source),
                            OpenValues.of(held, openValues, finalFindings, ids()));
                    provisional = true;           // what the finish gives, and the attempts still pending
                    openFindings.resumeAll(finalFindings);    // what the open connections noted so far
                    latency = openLatency;
                    findings = openFindings;
                    List<ConnectionRecord> kept = List.copyOf(pending.values());
                    pending.clear();
                    kept.forEach(Writers.this::onConnection);
                }
            };
        }

        @Override
        public void onAttemptEvicted(ConnectionId id) {
            evicting = carry == null ? null : id;
        }

        @Override
        public void onAttemptSettled(ConnectionId id) {
            ConnectionRecord c = pending.remove(id);
            if (c != null) {
                onConnection(c);
            }
        }

        @Override
        public void onAttemptRevived(ConnectionId id) {
            pending.remove(id);    // superseded: the complete record comes when the revived connection ends
        }

        @Override
        public void onConnection(ConnectionRecord c) {
            boolean carried = EngineCarry.isCarried(c.id());
            long key = carried ? -1 : key(c.id());
            if (!carried && Arrays.binarySearch(revived, key) >= 0 && superseded.add(key)) {
                return;      // the attempt's early record: the complete one comes when the revived connection ends
            }
            if (c.id().equals(evicting)) {
                evicting = null;
                pending.put(c.id(), c);     // final once settled; provisional if still held at the end
                return;
            }
            long stream = stream(c.id());
            int source = carried ? current : numbering.source(c.id().firstFileIndex());
            latency.connection(c, openValues.remove(c.id()), source());
            findings.connection(c, source());
            uids.remove(c.id());
            if (c.id() == lastValuesId) {
                lastValuesId = null;
                lastValues = null;
            }
            EngineRows.connection(connections.row, c, stream, carried ? EngineCarry.fileInSource(c.id())
                            : numbering.fileInSource(c.id().firstFileIndex()), source(),
                    FileGap.crossesAny(numbering.gaps(source), c.firstNanos(), c.lastNanos()),
                    plan == null ? null : plan.peer(key));
            write(connections, dir());
        }

        List<Written> written() {
            return outputs.stream().flatMap(o -> o.written().stream()).toList();
        }

        @Override
        public void close() throws IOException {
            IOException first = failure;
            for (TaskOutput o : outputs) {
                try {
                    o.close();
                } catch (IOException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }
}
