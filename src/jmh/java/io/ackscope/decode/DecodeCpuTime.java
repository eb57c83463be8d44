package io.ackscope.decode;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The passes of {@link DecodeBenchmark} timed in this thread's CPU time instead of wall-clock time, for a machine
 * shared with other work: other load stretches the wall clock far more than the CPU time a pass needs.
 *
 * <p>{@code java ... io.ackscope.decode.DecodeCpuTime CAPTURE [PASSES]} prints, for read-only and read + decode,
 * the best CPU seconds per pass and the MB per CPU-second over the capture.
 */
public final class DecodeCpuTime {
    private DecodeCpuTime() {
    }

    public static void main(String[] args) throws IOException, CaptureException {
        Path capture = Path.of(args[0]);
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        double mb = Files.size(capture) / 1e6;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        PacketDecoder d = new PacketDecoder();
        long sink = 0;
        for (int warm = 0; warm < 3; warm++) {
            sink += pass(capture, d, true) + pass(capture, d, false);
        }
        long bestDecode = Long.MAX_VALUE;
        long bestRead = Long.MAX_VALUE;
        for (int i = 0; i < passes; i++) {
            long t0 = threads.getCurrentThreadCpuTime();
            sink += pass(capture, d, true);
            long t1 = threads.getCurrentThreadCpuTime();
            sink += pass(capture, d, false);
            long t2 = threads.getCurrentThreadCpuTime();
            bestDecode = Math.min(bestDecode, t1 - t0);
            bestRead = Math.min(bestRead, t2 - t1);
        }
        System.out.printf(Locale.ROOT, "cpu readAndDecode %.4f s %.0f MB/cpu-s%n", bestDecode / 1e9,
                mb / (bestDecode / 1e9));
        System.out.printf(Locale.ROOT, "cpu readOnly %.4f s %.0f MB/cpu-s%n", bestRead / 1e9, mb / (bestRead / 1e9));
        // the decoder alone, over packets held in memory (the first ones of the capture)
        DecodeBenchmark memory = new DecodeBenchmark();
        memory.capture = capture.toString();
        memory.load();
        long bestMemory = Long.MAX_VALUE;
        for (int i = 0; i < passes + 3; i++) {
            long t0 = threads.getCurrentThreadCpuTime();
            for (int k = 0; k < 250; k++) {
                sink += memory.decodeOnly();
            }
            bestMemory = Math.min(bestMemory, threads.getCurrentThreadCpuTime() - t0);
        }
        System.out.printf(Locale.ROOT, "cpu decodeOnly %.1f ns/packet%n",
                bestMemory / (250.0 * DecodeBenchmark.DECODE_BATCH));
        System.out.println("checksum " + sink);
    }

    private static long pass(Path capture, PacketDecoder d, boolean decode) throws IOException, CaptureException {
        long sum = 0;
        try (CaptureReader r = CaptureReader.open(capture)) {
            while (r.next()) {
                if (decode) {
                    d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                    sum += d.payloadLength() + d.srcPort() + (d.hasTcp() ? d.seq() : 0);
                } else {
                    sum += r.capturedLength();
                }
            }
        }
        return sum;
    }
}
