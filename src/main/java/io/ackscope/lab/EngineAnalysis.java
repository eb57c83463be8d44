package io.ackscope.lab;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.tcp.CaptureFeeder;
import io.ackscope.tcp.Diagnosis;
import io.ackscope.tcp.TcpEngine;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;

/** The analysis of one capture with the single-JVM engine, as {@code ackscope diagnose -r FILE} does it. */
final class EngineAnalysis {

    private EngineAnalysis() {
    }

    /**
     * Analyses {@code capture} and returns what was found at {@code server} ({@code 127.0.0.1:PORT}); all zero when
     * the capture holds no connection to it.
     */
    static StallFigures analyze(Path capture, String server) throws IOException {
        Diagnosis diagnosis = new Diagnosis();
        TcpEngine engine = new TcpEngine(diagnosis);
        try (CaptureReader r = CaptureReader.open(capture)) {
            new CaptureFeeder().feed(r, 0, engine);
        } catch (CaptureException e) {
            throw new IOException("the lab's own capture is damaged: " + e.getMessage(), e);
        }
        engine.finish();
        for (Diagnosis.Endpoint e : diagnosis.endpoints()) {
            if (e.server.equals(server)) {
                Histogram held = new Histogram(2);
                held.add(e.serverStallAckDelay);
                held.add(e.clientStallAckDelay);
                boolean stalls = held.getTotalCount() > 0;
                boolean acks = e.clientAckDelay.getTotalCount() > 0;
                return new StallFigures(e.connections, e.exchanges, e.laterExchanges, e.laterExchangesStalled,
                        e.firstExchangesStalled, e.serverHeldStalls, e.clientHeldStalls,
                        stalls ? held.getMinValue() : -1, stalls ? held.getValueAtPercentile(50) : -1,
                        stalls ? held.getMaxValue() : -1,
                        acks ? e.clientAckDelay.getValueAtPercentile(50) : -1,
                        acks ? e.clientAckDelay.getValueAtPercentile(99) : -1);
            }
        }
        return new StallFigures(0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1);
    }
}
