package io.ackscope.decode;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Read + decode throughput of a warm capture (in the page cache after the warm-up iterations), and the decoder
 * alone per packet. Run through {@code bench/decode-bench.sh}, which generates the capture and compares with
 * {@code cat} and {@code tcpdump} on the same file.
 *
 * <p>{@code readAndDecode} and {@code readOnly} make one pass over the whole file per operation: MB/s is the file
 * size over the time per operation. {@code decodeOnly} decodes the first {@link #DECODE_BATCH} packets of the
 * capture, held in memory, per operation and reports per packet, so {@code -prof gc}'s {@code gc.alloc.rate.norm} is
 * bytes per packet. The batch is small enough to stay in the CPU caches, as packet bytes are in the read path (the
 * reader has just copied them): it measures the decoder, not memory latency.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class DecodeBenchmark {

    /** Packets decoded per {@code decodeOnly} operation. */
    public static final int DECODE_BATCH = 4096;

    @Param("target/bench/mix.pcap")
    public String capture;

    private final PacketDecoder decoder = new PacketDecoder();

    // decodeOnly: the first DECODE_BATCH packets of the capture, back to back in one array
    private byte[] packets;
    private int[] linkTypes;
    private int[] offsets;
    private int[] lengths;
    private long[] originals;

    @Setup
    public void load() throws IOException, CaptureException {
        if (!Files.isRegularFile(Path.of(capture))) {
            throw new IllegalStateException("no capture at " + capture + " (bench/decode-bench.sh makes one)");
        }
        linkTypes = new int[DECODE_BATCH];
        offsets = new int[DECODE_BATCH];
        lengths = new int[DECODE_BATCH];
        originals = new long[DECODE_BATCH];
        byte[] all = new byte[DECODE_BATCH * 2048];
        int at = 0;
        int n = 0;
        try (CaptureReader r = CaptureReader.open(Path.of(capture))) {
            while (n < DECODE_BATCH && r.next()) {
                if (at + r.capturedLength() > all.length) {
                    break;
                }
                System.arraycopy(r.data(), r.dataOffset(), all, at, r.capturedLength());
                linkTypes[n] = r.linkType();
                offsets[n] = at;
                lengths[n] = r.capturedLength();
                originals[n] = r.originalLength();
                at += r.capturedLength();
                n++;
            }
        }
        if (n < DECODE_BATCH) {
            throw new IllegalStateException(capture + " has fewer than " + DECODE_BATCH + " packets");
        }
        packets = all;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long readOnly() throws IOException, CaptureException {
        long sum = 0;
        try (CaptureReader r = CaptureReader.open(Path.of(capture))) {
            while (r.next()) {
                sum += r.capturedLength();
            }
        }
        return sum;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long readAndDecode() throws IOException, CaptureException {
        PacketDecoder d = decoder;
        long sum = 0;
        try (CaptureReader r = CaptureReader.open(Path.of(capture))) {
            while (r.next()) {
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                sum += d.payloadLength() + d.srcPort() + (d.hasTcp() ? d.seq() : 0);
            }
        }
        return sum;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(DECODE_BATCH)
    public long decodeOnly() {
        PacketDecoder d = decoder;
        long sum = 0;
        for (int i = 0; i < DECODE_BATCH; i++) {
            d.decode(linkTypes[i], packets, offsets[i], lengths[i], originals[i]);
            sum += d.payloadLength() + d.srcPort() + (d.hasTcp() ? d.seq() : 0);
        }
        return sum;
    }
}
