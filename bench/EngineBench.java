import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.TcpEngine;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Benchmark of the TCP engine on one core (not a test). Run by bench/engine-bench.sh:
 *   java -cp CLASSPATH bench/EngineBench.java FILE
 * Pass 1: read + decode only. Pass 2: read + decode + engine (the time the engine adds is the difference).
 * Pass 3: the engine again, forcing a GC every 250,000 packets to sample retained heap against open connections.
 */
public class EngineBench {

    static final class Counting implements AnalysisSink {
        long frames, connections, ackDelays, rttShown;

        @Override
        public void onFrame(Segment s, FrameAnalysis a) {
            frames++;
            if (a.ackRttNanos >= 0) {
                rttShown++;
            }
        }

        @Override
        public void onAckDelay(AckDelay d) {
            ackDelays++;
        }

        @Override
        public void onConnection(ConnectionRecord c) {
            connections++;
        }
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long bytes = Files.size(file);
        run(file, true, -1);       // warm-up of the whole path
        // wall clock (the process is pinned to one core, so this is one core's time); best of three
        long packets = 0, readWall = Long.MAX_VALUE, allWall = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long w0 = System.nanoTime();
            packets = run(file, false, -1);
            readWall = Math.min(readWall, System.nanoTime() - w0);
            w0 = System.nanoTime();
            run(file, true, -1);
            allWall = Math.min(allWall, System.nanoTime() - w0);
        }
        System.out.printf("capture: %s, %.1f MB, %d packets%n", file, bytes / 1e6, packets);
        System.out.printf("read+decode:        %.3f s, %.0f packets/s%n", readWall / 1e9, packets / (readWall / 1e9));
        System.out.printf("read+decode+engine: %.3f s, %.0f packets/s, %.1f MB/s%n", allWall / 1e9,
                packets / (allWall / 1e9), bytes / 1e6 / (allWall / 1e9));
        System.out.printf("engine alone (difference): %.3f s, %.0f packets/s%n", (allWall - readWall) / 1e9,
                packets / ((allWall - readWall) / 1e9));
        System.out.printf("RESULT packets_per_s=%.0f mb_per_s=%.2f wall_s=%.3f%n", packets / (allWall / 1e9),
                bytes / 1e6 / (allWall / 1e9), allWall / 1e9);
        run(file, true, 250_000);
    }

    static long peakHeap, peakOpen;

    /** Returns packets read; when sampleEvery > 0, prints retained heap against open connections. */
    static long run(Path file, boolean engineOn, long sampleEvery) throws Exception {
        Counting sink = new Counting();
        Runtime rt0 = Runtime.getRuntime();
        long baseline = 0;
        if (sampleEvery > 0) {
            System.gc();
            baseline = rt0.totalMemory() - rt0.freeMemory();
            System.out.printf("memory: baseline retained heap %.1f MB before the run%n", baseline / 1e6);
        }
        TcpEngine engine = new TcpEngine(sink);
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        long n = 0;
        Runtime rt = Runtime.getRuntime();
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                n++;
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                if (engineOn && s.fill(d, r.data(), 0, r.frameNumber(), r.timestampNanos(), r.originalLength())) {
                    engine.accept(s);
                }
                if (sampleEvery > 0 && n % sampleEvery == 0) {
                    System.gc();
                    long used = rt.totalMemory() - rt.freeMemory();
                    peakHeap = Math.max(peakHeap, used);
                    peakOpen = Math.max(peakOpen, engine.openTuples());
                    System.out.printf("memory: after %,d packets: retained heap %.1f MB, open 4-tuples %d%n", n,
                            used / 1e6, engine.openTuples());
                }
            }
        }
        engine.finish();
        if (sampleEvery > 0) {
            System.out.printf("RESULT peak_retained_heap_mb=%.1f baseline_mb=%.1f peak_open_tuples=%d "
                            + "engine_peak_open_tuples=%d connections=%d frames=%d%n",
                    peakHeap / 1e6, baseline / 1e6, peakOpen, engine.peakOpenTuples(), sink.connections,
                    sink.frames);
        }
        return n;
    }
}
