package io.ackscope.spark;

import io.ackscope.spark.engine.EngineRows;
import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.FileGap;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.ConnectionCauses;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ArchiveFeeder;
import io.ackscope.tcp.CauseEvent;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.LatencyEvent;
import io.ackscope.tcp.RttSample;
import io.ackscope.tcp.Stall;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The single-JVM engine over the same files in the same order, its records turned into rows by the same mappers:
 * what {@code analyze}'s tables must equal.
 */
final class EngineReference implements AnalysisSink {
    final Map<String, List<List<Object>>> rows = new HashMap<>();
    final List<ConnectionRecord> connections = new ArrayList<>();
    final List<RttSample> rtts = new ArrayList<>();
    final List<AckDelay> ackDelays = new ArrayList<>();
    final List<Exchange> exchanges = new ArrayList<>();
    /** The causes of each connection until its record (connection_causes), by the same rules as analyze's. */
    private final EndpointAggregate causes = new EndpointAggregate();
    long frames;

    /** The inputs (files or directories) listed and read as analyze reads them ({@link ArchiveFeeder}). */
    static EngineReference run(List<Path> inputs) throws IOException {
        return run(inputs, Archive.SourceRule.DIRECTORY);
    }

    static EngineReference run(List<Path> inputs, Archive.SourceRule rule) throws IOException {
        EngineReference ref = new EngineReference();
        Archive archive = Archive.list(inputs.stream().map(Path::toString).toList(), ArchiveStore.local(), rule);
        ArchiveFeeder feeder = new ArchiveFeeder(archive, ArchiveStore.local());
        ref.feeder = feeder;
        feeder.run(source -> {
            ref.source = source;
            return ref;
        });
        ref.frames = feeder.frames();
        return ref;
    }

    ArchiveFeeder feeder;
    /** The source being read (one engine per source, one after the other). */
    int source;

    private String sourceName() {
        return feeder.archive().sources().get(source);
    }

    private void add(TableSchema t, RowBuffer r) {
        rows.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(SparkTests.comparable(r));
    }

    @Override
    public void onRttSample(RttSample s) {
        rtts.add(s);
        RowBuffer r = new RowBuffer(EngineTables.RTT_SAMPLES);
        EngineRows.rttSample(r, s, s.connection().stream(), sourceName(), s.connection().uid(sourceName()));
        add(EngineTables.RTT_SAMPLES, r);
    }

    @Override
    public void onAckDelay(AckDelay a) {
        ackDelays.add(a);
        RowBuffer r = new RowBuffer(EngineTables.ACK_DELAYS);
        EngineRows.ackDelay(r, a, a.connection().stream(), sourceName(), a.connection().uid(sourceName()));
        add(EngineTables.ACK_DELAYS, r);
    }

    @Override
    public void onStall(Stall s) {
        causes.stall(s);
        RowBuffer r = new RowBuffer(EngineTables.STALLS);
        EngineRows.stall(r, s, s.connection().stream(), sourceName(), s.connection().uid(sourceName()));
        add(EngineTables.STALLS, r);
    }

    @Override
    public void onLatencyEvent(LatencyEvent e) {
        RowBuffer r = new RowBuffer(EngineTables.LATENCY_EVENTS);
        EngineRows.latencyEvent(r, e, e.connection().stream(), sourceName(), e.connection().uid(sourceName()));
        add(EngineTables.LATENCY_EVENTS, r);
    }

    @Override
    public void onCause(CauseEvent e) {
        causes.cause(e);
    }

    @Override
    public void onExchange(Exchange e) {
        exchanges.add(e);
        causes.exchange(e);
        RowBuffer r = new RowBuffer(EngineTables.EXCHANGES);
        EngineRows.exchange(r, e, e.connection().stream(), sourceName(), e.connection().uid(sourceName()));
        add(EngineTables.EXCHANGES, r);
    }

    @Override
    public void onConnection(ConnectionRecord c) {
        connections.add(c);
        RowBuffer r = new RowBuffer(EngineTables.CONNECTIONS);
        int first = feeder.archive().files().stream().filter(m -> m.source() == source).findFirst().orElseThrow()
                .index();
        EngineRows.connection(r, c, c.id().stream(), c.id().firstFileIndex() - first, sourceName(),
                c.id().uid(sourceName()), FileGap.crossesAny(feeder.gaps(source), c.firstNanos(), c.lastNanos()), null);
        add(EngineTables.CONNECTIONS, r);
        ConnectionCauses o = causes.connection(c, null, sourceName());
        if (o != null) {
            RowBuffer cr = new RowBuffer(EngineTables.CONNECTION_CAUSES);
            EngineRows.connectionCauses(cr, o, c.id(), c.id().stream(), sourceName(), c.id().uid(sourceName()),
                    () -> add(EngineTables.CONNECTION_CAUSES, cr));
        }
    }
}
