package io.ackscope.spark.engine;

import io.ackscope.spark.commit.TaskOutput;
import io.ackscope.capture.FileGap;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.HivePath;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.VantageTables;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.CauseEvent;
import io.ackscope.tcp.ConnectionCauses;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.LatencyEvent;
import io.ackscope.tcp.RttSample;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.Stall;
import io.ackscope.tcp.RoleEvidence;
import io.ackscope.tcp.TcpEngine;
import io.ackscope.tcp.ConnectionValues;
import io.ackscope.tcp.ValueCounts;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables of one engine task and what they add up to: one lazily opened writer per table and partition
 * directory, one reused row per table, the latency and cause aggregates (final and provisional apart), the
 * two-source matching's rows and aggregate when there is a plan, and in a carrying run the hooks that resume and
 * hold each source's open connections with their values and causes ({@link #hooks}).
 *
 * <p>Built complete by its constructor; {@link EngineTask} only asks it for each source's engine
 * ({@link #engine}), for the hooks, and at the end for the task's {@link EngineTask.Result} ({@link #result}).
 *
 * <p>Without the global ranking ({@code ranks} null: a run with a single engine pass), every row's {@code stream} is
 * its connection's first-appearance key ({@link EngineTask#key}), the task's keys are part of its result, and the
 * driver maps the keys to stream numbers in the files afterwards ({@link io.ackscope.tables.LongColumnRewrite}).
 * Without the revived attempts ({@code revived} null: the same run), the engine gives an evicted attempt's record
 * only once it is final ({@link #takesFinalRecordsOnly}): when its tombstone is let go or the input ends, never when
 * it is revived.
 */
final class TableSink implements AnalysisSink, AutoCloseable {
    private static final long DAY_NANOS = 86_400_000_000_000L;
    /** Per source, the evidence of who serves ({@link RoleEvidence}); null: roles from frames and ports alone. */
    private final RoleEvidence[] roles;

    private final int partition;
    private final long attempt;
    private final String stagingRoot;
    private final Configuration conf;
    /** All connections' sorted first-appearance keys (a stream number is an index); null: numbered afterwards. */
    private final long[] ranks;
    /** Keys of the attempts pass 1 saw revived, sorted; null: none are given before they are final (a single pass). */
    private final long[] revived;
    /** Without {@link #ranks}: the keys of the connections whose records were written, in the first {@link #keyCount}. */
    private long[] keys = new long[0];
    private int keyCount;
    /** Revived attempts whose first (superseded) record has come and was left out. */
    private final java.util.Set<Long> superseded = new java.util.HashSet<>();
    private final ArchiveNumbering numbering;
    private final TaskOutput rttSamples = new TaskOutput(EngineTables.RTT_SAMPLES);
    private final TaskOutput ackDelays = new TaskOutput(EngineTables.ACK_DELAYS);
    private final TaskOutput stalls = new TaskOutput(EngineTables.STALLS);
    private final TaskOutput latencyEvents = new TaskOutput(EngineTables.LATENCY_EVENTS);
    private final TaskOutput exchanges = new TaskOutput(EngineTables.EXCHANGES);
    private final TaskOutput connections = new TaskOutput(EngineTables.CONNECTIONS);
    private final TaskOutput connectionCauses = new TaskOutput(EngineTables.CONNECTION_CAUSES);
    private final TaskOutput oneWayDelays = new TaskOutput(VantageTables.ONE_WAY_DELAYS);
    private final List<TaskOutput> outputs = List.of(connections, rttSamples, ackDelays, stalls, latencyEvents,
            exchanges, connectionCauses, oneWayDelays);
    private final VantagePlan plan;
    /** This partition's segments of each source for the two-source matching; null without a plan. */
    private final PartitionPoints partitionPoints;
    /** The current source's segments for the two-source matching, when there is a plan. */
    private PartitionPoints.Point points;
    private final VantageAggregate vantage = new VantageAggregate();
    /**
     * What the sink keeps of each open connection until its record: its stream number, source, uid and partition
     * directory, each worked out once, and its latency values until the record says which server endpoint they
     * belong to. One lookup per event (and none while events of one connection come in a run).
     */
    private final Map<ConnectionId, Open> open = new HashMap<>();
    /** The connection {@link #open(ConnectionId)} was last called for, and what is kept of it. */
    private ConnectionId lastId;
    private Open last;
    private final EndpointAggregate finalEndpoints = new EndpointAggregate();
    /** The aggregate of provisional rows ({@link #provisional}). */
    private final EndpointAggregate openEndpoints = new EndpointAggregate();
    /** Where rows go now: the final aggregate, or from a carrying run's hold on, the provisional one. */
    private EndpointAggregate endpoints = finalEndpoints;
    /** The partition directory last made, and the source and UTC day it was made for. */
    private String lastDir;
    private String lastDirSource;
    private long lastDay;
    private IOException failure;
    /**
     * The rows written now are provisional: the next run of a carrying run retires and replaces them (true from
     * the hold at a source's end, through its finish). The row writer routes them ({@code open-*} files).
     */
    private boolean provisional;
    /** Open connections carried to a later run ({@link EngineCarry#NONE}: none). */
    private final EngineCarry carry;
    /** The hooks of a carrying run's pass 2; {@link EngineCarry.Hooks#NONE} when nothing is carried. */
    private final EngineCarry.Hooks hooks;
    /** The source whose engine runs, in a carrying run. */
    private int current = -1;
    /** The attempt the sweep is evicting (its record comes next), in a carrying run. */
    private ConnectionId evicting;
    /** Records of evicted attempts not yet settled ({@link AnalysisSink#onAttemptSettled}) or revived. */
    private final Map<ConnectionId, ConnectionRecord> pending = new java.util.LinkedHashMap<>();

    TableSink(int partition, long attempt, String stagingRoot, Configuration conf, long[] ranks, long[] revived,
            ArchiveNumbering numbering, VantagePlan plan, EngineCarry carry, RoleEvidence[] roles) {
        this.roles = roles;
        this.revived = revived;
        this.plan = plan;
        this.partition = partition;
        this.attempt = attempt;
        this.stagingRoot = stagingRoot;
        this.conf = conf;
        this.ranks = ranks;
        this.numbering = numbering;
        this.partitionPoints = plan == null ? null
                : new PartitionPoints(numbering, (id, first) -> plan.matched(EngineTask.key(id), false));
        this.carry = carry;
        this.hooks = carry.carries() ? carrying() : EngineCarry.Hooks.NONE;
    }

    /** A new engine for source {@code source}, writing here. */
    TcpEngine engine(int source) {
        points = partitionPoints == null ? null : partitionPoints.point(source);
        return new TcpEngine(this).roles(roles == null ? RoleEvidence.NONE : roles[source]);
    }

    /** Without the revived attempts (a run with a single engine pass): see the class comment. */
    @Override
    public boolean takesFinalRecordsOnly() {
        return revived == null;
    }

    /** The hooks that resume and hold each source's open connections; {@link EngineCarry.Hooks#NONE} when the run
     * carries nothing. */
    EngineCarry.Hooks hooks() {
        return hooks;
    }

    /**
     * After the last source: writes the two-source matching's rows (with a plan), then says what the task wrote and
     * found, given what feeding it counted.
     *
     * @throws IOException the first write that failed
     */
    EngineTask.Result result(EngineTask.Fed fed) throws IOException {
        if (partitionPoints != null) {
            VantageRows.write(partitionPoints, plan, ranks, numbering, vantage, oneWayDelaysSink());
        }
        check();
        long[] sorted = new long[0];
        if (ranks == null) {
            // a stream's later records (a reopened closed connection) repeat its key
            Arrays.sort(keys, 0, keyCount);
            int n = 0;
            for (int i = 0; i < keyCount; i++) {
                if (n == 0 || keys[i] != keys[n - 1]) {
                    keys[n++] = keys[i];
                }
            }
            sorted = Arrays.copyOf(keys, n);
            keys = null;
        }
        return new EngineTask.Result(partition, written(), fed.connections(), fed.segments(), fed.peakOpenTuples(),
                fed.attemptsEvicted(), finalEndpoints.sealed(), vantage, openEndpoints.sealed(), sorted);
    }

    /** What is kept of open connection {@code id}: a new entry for a connection not seen yet. */
    private Open open(ConnectionId id) {
        if (id == lastId) {
            return last;
        }
        Open o = open.get(id);
        if (o == null) {
            o = new Open();
            open.put(id, o);
        }
        lastId = id;
        last = o;
        return o;
    }

    /** {@code id}'s entry with its stream number, source, uid and partition directory worked out. */
    private Open named(ConnectionId id) {
        Open o = open(id);
        if (o.source != null) {
            return o;
        }
        if (EngineCarry.isCarried(id)) {
            o.stream = id.stream();   // numbered by an earlier run, in the source running now
            o.source = numbering.sourceName(current);
        } else if (ranks == null) {
            o.stream = EngineTask.key(id);    // mapped to the stream number when all keys are known
            o.source = numbering.sourceName(numbering.source(id.firstFileIndex()));
        } else {
            int r = Arrays.binarySearch(ranks, EngineTask.key(id));
            if (r < 0) {
                throw new IllegalStateException("connection " + id + " was not seen in pass 1");
            }
            o.stream = numbering.stream(r, id.firstFileIndex());
            o.source = numbering.sourceName(numbering.source(id.firstFileIndex()));
        }
        o.uid = id.uid(o.source);
        long day = Math.floorDiv(id.firstNanos(), DAY_NANOS);
        if (lastDir == null || day != lastDay || !o.source.equals(lastDirSource)) {
            lastDir = HivePath.sourceDateDir(o.source, id.firstNanos());
            lastDay = day;
            lastDirSource = o.source;
        }
        o.dir = lastDir;
        return o;
    }

    private long stream(ConnectionId id) {
        return named(id).stream;
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

    private void check() throws IOException {
        if (failure != null) {
            throw failure;
        }
    }

    private VantageRows.Sink oneWayDelaysSink() {
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
        Open o = open(id);
        if (o.values == null) {
            o.values = new ConnectionValues();
        }
        o.values.add(metric, nanos / 1000);
    }

    @Override
    public void onRttSample(RttSample s) {
        if (s.kind() == RttSample.Kind.DATA_ACK) {
            value(s.connection(), EndpointAggregate.DATA_RTT, s.valueNanos());
        }
        Open o = named(s.connection());
        EngineRows.rttSample(rttSamples.row, s, o.stream, o.source, o.uid);
        write(rttSamples, o.dir);
    }

    @Override
    public void onAckDelay(AckDelay a) {
        value(a.connection(), EndpointAggregate.ACK_DELAY, a.valueNanos());
        Open o = named(a.connection());
        EngineRows.ackDelay(ackDelays.row, a, o.stream, o.source, o.uid);
        write(ackDelays, o.dir);
    }

    @Override
    public void onStall(Stall s) {
        endpoints.stall(s);
        Open o = named(s.connection());
        EngineRows.stall(stalls.row, s, o.stream, o.source, o.uid);
        if (plan != null) {
            plan.stallRow(stalls.row, numbering.source(s.connection().firstFileIndex()), s.ackFrame());
        }
        write(stalls, o.dir);
    }

    @Override
    public void onLatencyEvent(LatencyEvent e) {
        Open o = named(e.connection());
        EngineRows.latencyEvent(latencyEvents.row, e, o.stream, o.source, o.uid);
        write(latencyEvents, o.dir);
    }

    @Override
    public void onCause(CauseEvent e) {
        ConnectionId id = e.connection();
        if (revived != null && !EngineCarry.isCarried(id) && Arrays.binarySearch(revived, EngineTask.key(id)) >= 0
                && !superseded.contains(EngineTask.key(id))) {
            return;    // a revived attempt's first causes: they come again with its complete record
        }
        endpoints.cause(e);
    }

    @Override
    public void onExchange(Exchange e) {
        endpoints.exchange(e);
        if (e.ttfbNanos() >= 0) {
            value(e.connection(), EndpointAggregate.TTFB, e.ttfbNanos());
        }
        if (e.completeNanos() >= 0) {
            value(e.connection(), EndpointAggregate.COMPLETE, e.completeNanos());
        }
        Open o = named(e.connection());
        EngineRows.exchange(exchanges.row, e, o.stream, o.source, o.uid);
        if (plan != null) {
            plan.exchangeRow(exchanges.row, EngineTask.key(e.connection()), e.index());
        }
        write(exchanges, o.dir);
    }

    /** The hooks of a carrying run's pass 2 over {@link #carry}. */
    private EngineCarry.Hooks carrying() {
        return new EngineCarry.Resuming(carry, EngineCarry.Kind.ENGINE, partition, numbering,
                id -> EngineCarry.isCarried(id) ? id
                        : EngineCarry.carried(id, stream(id), numbering.fileInSource(id.firstFileIndex()))) {
            @Override
            public void started(int source, TcpEngine engine) throws IOException {
                current = source;
                provisional = false;
                super.started(source, engine);
                String name = numbering.sourceName(source);
                endpoints = finalEndpoints;
                for (io.ackscope.tcp.HeldTuple t : carry.resumed(EngineCarry.Kind.VALUES, partition, name)) {
                    try {
                        OpenValues.Open o = OpenValues.read(t.state());
                        open(o.id()).values = ConnectionValues.carried(o.values());
                        if (o.findings() != null) {
                            finalEndpoints.resume(o.id(), o.findings());
                        }
                    } catch (IOException e) {
                        throw new IOException("held values of source " + name + ": " + e.getMessage(), e);
                    }
                }
            }

            @Override
            public void ending(int source, TcpEngine engine) throws IOException {
                List<io.ackscope.tcp.HeldTuple> held = hold(source, engine);
                carry.held(EngineCarry.Kind.VALUES, partition, numbering.sourceName(source),
                        OpenValues.of(held, openValues(), finalEndpoints, ids()));
                provisional = true;           // what the finish gives, and the attempts still pending
                openEndpoints.resumeAll(finalEndpoints);    // what the open connections noted so far
                endpoints = openEndpoints;
                List<ConnectionRecord> kept = List.copyOf(pending.values());
                pending.clear();
                kept.forEach(TableSink.this::onConnection);
            }
        };
    }

    @Override
    public void onAttemptEvicted(ConnectionId id) {
        evicting = carry.carries() ? id : null;
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
        if (EngineCarry.isCarried(id)) {
            // evicted in an earlier run, whose causes it carried: they come again with the complete record (a
            // revival in this run drops them as they come: onCause)
            endpoints.forget(id);
        }
    }

    @Override
    public void onConnection(ConnectionRecord c) {
        boolean carried = EngineCarry.isCarried(c.id());
        long key = carried ? -1 : EngineTask.key(c.id());
        if (!carried && revived != null && Arrays.binarySearch(revived, key) >= 0 && superseded.add(key)) {
            return;      // the attempt's early record: the complete one comes when the revived connection ends
        }
        if (c.id().equals(evicting)) {
            evicting = null;
            pending.put(c.id(), c);     // final once settled; provisional if still held at the end
            return;
        }
        if (ranks == null && !carried) {
            if (keyCount == keys.length) {
                keys = Arrays.copyOf(keys, Math.max(1024, keyCount * 2));
            }
            keys[keyCount++] = key;
        }
        Open o = named(c.id());
        open.remove(c.id());
        if (c.id() == lastId) {
            lastId = null;
            last = null;
        }
        int source = carried ? current : numbering.source(c.id().firstFileIndex());
        ConnectionCauses causes = endpoints.connection(c, o.values, o.source);
        String dir = o.dir;
        if (causes != null) {
            EngineRows.connectionCauses(connectionCauses.row, causes, c.id(), o.stream, o.source, o.uid,
                    () -> write(connectionCauses, dir));
        }
        EngineRows.connection(connections.row, c, o.stream, carried ? EngineCarry.fileInSource(c.id())
                        : numbering.fileInSource(c.id().firstFileIndex()), o.source, o.uid,
                FileGap.crossesAny(numbering.gaps(source), c.firstNanos(), c.lastNanos()),
                plan == null ? null : plan.peer(key));
        write(connections, dir);
    }

    /** The latency values of the open connections that have some, by connection. */
    private Map<ConnectionId, ValueCounts[]> openValues() {
        Map<ConnectionId, ValueCounts[]> values = new HashMap<>();
        open.forEach((id, o) -> {
            if (o.values != null) {
                values.put(id, o.values.counts());
            }
        });
        return values;
    }

    /** What {@link #open} keeps of one connection; the names are null until {@link #named} works them out. */
    private static final class Open {
        long stream;
        String source;
        String uid;
        String dir;
        /** The connection's values per {@link EndpointAggregate} metric; null before its first value. */
        ConnectionValues values;
    }

    private List<TaskOutput.Written> written() {
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
