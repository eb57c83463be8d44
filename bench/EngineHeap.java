import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.EngineConfig;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.TcpEngine;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * Retained heap per open connection of the TCP engine (not a test). Run by bench/syn-flood-bench.sh:
 *   java -cp CLASSPATH bench/EngineHeap.java FILE [FRAMES] [open|default]
 * Feeds the first FRAMES frames of FILE (all by default) to a {@link TcpEngine} whose sink drops every record, then,
 * before finishing, collects garbage and prints the retained heap against the 4-tuples held, and the top of the
 * heap's class histogram (what {@code jcmd PID GC.class_histogram} prints). "open" runs with timeouts long enough that
 * nothing is evicted, so every connection of the prefix is held and the figure is the cost of one held connection.
 */
public class EngineHeap {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long limit = args.length > 1 ? Long.parseLong(args[1]) : Long.MAX_VALUE;
        boolean open = args.length > 2 && args[2].equals("open");
        long day = 86_400_000_000_000L;
        EngineConfig config = open ? new EngineConfig(day, day, day) : EngineConfig.DEFAULTS;
        Runtime rt = Runtime.getRuntime();
        long[] connections = new long[1];
        TcpEngine engine = new TcpEngine(config, new AnalysisSink() {
            @Override
            public void onConnection(ConnectionRecord c) {
                connections[0]++;
            }
        });
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        System.gc();
        long baseline = rt.totalMemory() - rt.freeMemory();
        long n = 0;
        try (CaptureReader r = CaptureReader.open(file)) {
            while (n < limit && r.next()) {
                n++;
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                if (s.fill(d, r.data(), 0, r.frameNumber(), r.timestampNanos(), r.originalLength())) {
                    engine.accept(s);
                }
            }
            System.gc();
            System.gc();
            long used = rt.totalMemory() - rt.freeMemory();
            int held = engine.openTuples();
            String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            String[] lines = histogram.split("\n");
            for (int i = 0; i < Math.min(lines.length, 25); i++) {
                System.out.println(lines[i]);
            }
            System.out.printf("RESULT frames=%d held_tuples=%d emitted=%d retained_mb=%.1f bytes_per_held=%.0f%n",
                    n, held, connections[0], (used - baseline) / 1e6,
                    held == 0 ? 0.0 : (double) (used - baseline) / held);
            engine.finish();
        }
    }
}
