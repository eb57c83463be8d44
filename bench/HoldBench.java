import io.ackscope.capture.CaptureReader;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.CaptureFeeder;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.HeldTuple;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.TcpEngine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Cost of {@link TcpEngine#hold} and {@link TcpEngine#resume} on a real capture (not a test):
 *   java -cp target/classes:$(cat cp.txt) bench/HoldBench.java FILE [FRACTION] [ROUNDS]
 * Feeds the first FRACTION (default 0.5) of FILE's TCP segments to an engine, then holds its 4-tuples ROUNDS times
 * (default 20; the first rounds warm the JIT, the best round is reported) and resumes them into fresh engines as many
 * times. Prints the 4-tuples held, bytes per held 4-tuple (mean, largest) and microseconds per 4-tuple to hold and
 * to resume.
 */
public class HoldBench {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        double fraction = args.length > 1 ? Double.parseDouble(args[1]) : 0.5;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        List<Segment> segs = new ArrayList<>();
        TcpEngine reader = new TcpEngine(new AnalysisSink() {
            @Override
            public void onFrame(Segment s, FrameAnalysis a) {
                segs.add(new Segment().copyFrom(s));
            }
        });
        try (CaptureReader r = CaptureReader.open(file)) {
            new CaptureFeeder().feed(r, 0, reader);
        }
        TcpEngine a = new TcpEngine(new AnalysisSink() {
        });
        int cut = (int) (segs.size() * fraction);
        segs.subList(0, cut).forEach(a::accept);
        long bestHold = Long.MAX_VALUE;
        long bestResume = Long.MAX_VALUE;
        List<HeldTuple> held = null;
        for (int i = 0; i < rounds; i++) {
            long t0 = System.nanoTime();
            held = a.hold(UnaryOperator.identity());
            long t1 = System.nanoTime();
            TcpEngine b = new TcpEngine(new AnalysisSink() {
            });
            held.forEach(b::resume);
            long t2 = System.nanoTime();
            bestHold = Math.min(bestHold, t1 - t0);
            bestResume = Math.min(bestResume, t2 - t1);
        }
        long bytes = 0;
        int largest = 0;
        for (HeldTuple h : held) {
            bytes += h.state().length;
            largest = Math.max(largest, h.state().length);
        }
        int n = Math.max(1, held.size());
        System.out.printf("%s: %d of %d segments fed, %d 4-tuples held; %.0f bytes/tuple (largest %d);"
                        + " hold %.1f us/tuple, resume %.1f us/tuple (best of %d)%n", file.getFileName(), cut,
                segs.size(), held.size(), (double) bytes / n, largest, bestHold / 1e3 / n, bestResume / 1e3 / n,
                rounds);
    }
}
