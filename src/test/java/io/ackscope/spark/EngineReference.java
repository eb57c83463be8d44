package io.ackscope.spark;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.CaptureFeeder;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.LatencyEvent;
import io.ackscope.tcp.RttSample;
import io.ackscope.tcp.Stall;
import io.ackscope.tcp.TcpEngine;

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
    long frames;

    static EngineReference run(List<Path> files) throws IOException {
        EngineReference ref = new EngineReference();
        TcpEngine engine = new TcpEngine(ref);
        CaptureFeeder feeder = new CaptureFeeder();
        for (int i = 0; i < files.size(); i++) {
            try (CaptureReader r = CaptureReader.open(files.get(i))) {
                feeder.feed(r, i, engine);
            } catch (CaptureException e) {
                // Damaged: the frames before the damage were fed, as analyze does.
            }
        }
        engine.finish();
        ref.frames = feeder.frames();
        return ref;
    }

    private void add(TableSchema t, RowBuffer r) {
        rows.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(SparkTests.comparable(r));
    }

    @Override
    public void onRttSample(RttSample s) {
        rtts.add(s);
        RowBuffer r = new RowBuffer(EngineTables.RTT_SAMPLES);
        EngineTables.rttSample(r, s, s.connection().stream());
        add(EngineTables.RTT_SAMPLES, r);
    }

    @Override
    public void onAckDelay(AckDelay a) {
        ackDelays.add(a);
        RowBuffer r = new RowBuffer(EngineTables.ACK_DELAYS);
        EngineTables.ackDelay(r, a, a.connection().stream());
        add(EngineTables.ACK_DELAYS, r);
    }

    @Override
    public void onStall(Stall s) {
        RowBuffer r = new RowBuffer(EngineTables.STALLS);
        EngineTables.stall(r, s, s.connection().stream());
        add(EngineTables.STALLS, r);
    }

    @Override
    public void onLatencyEvent(LatencyEvent e) {
        RowBuffer r = new RowBuffer(EngineTables.LATENCY_EVENTS);
        EngineTables.latencyEvent(r, e, e.connection().stream());
        add(EngineTables.LATENCY_EVENTS, r);
    }

    @Override
    public void onExchange(Exchange e) {
        exchanges.add(e);
        RowBuffer r = new RowBuffer(EngineTables.EXCHANGES);
        EngineTables.exchange(r, e, e.connection().stream());
        add(EngineTables.EXCHANGES, r);
    }

    @Override
    public void onConnection(ConnectionRecord c) {
        connections.add(c);
        RowBuffer r = new RowBuffer(EngineTables.CONNECTIONS);
        EngineTables.connection(r, c, c.id().stream());
        add(EngineTables.CONNECTIONS, r);
    }
}
