import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.decode.PacketDecoder;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Throughput harness for bench/read-bench.sh (not a test). Modes:
 * <pre>
 *   generate SRC.pcap DST.pcap MB [distinct]
 *                                    replicate SRC's records (timestamps shifted) into a classic pcap of about MB MiB;
 *                                    with "distinct", each replica's TCP ports from 32768 up (the clients' ephemeral
 *                                    ports) are moved, so that every replica's connections are new ones that end
 *                                    (without it a replica continues the connections of the one before)
 *   read FILE [ROUNDS]               iterate records without decoding
 *   decode FILE [ROUNDS]             iterate records and run PacketDecoder on each
 * </pre>
 * Each round reads the whole file; the first two are warm-up. Prints the median MB/s, packets/s and the bytes
 * allocated per packet (from the thread's allocation counter). Add a mode by adding a case to {@link #consume}.
 */
public final class ReadBench {

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "generate" -> generate(Paths.get(args[1]), Paths.get(args[2]), Long.parseLong(args[3]),
                    args.length > 4 && args[4].equals("distinct"));
            case "read", "decode" -> run(args[0], Paths.get(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 7);
            default -> throw new IllegalArgumentException("mode: generate | read | decode");
        }
    }

    private static void run(String mode, Path file, int rounds) throws Exception {
        long size = Files.size(file);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        List<Double> mbps = new ArrayList<>();
        long packets = 0;
        double bytesPerPacket = 0;
        for (int r = 0; r < rounds; r++) {
            long alloc0 = mx.getThreadAllocatedBytes(tid);
            long t0 = System.nanoTime();
            packets = consume(mode, file);
            long t1 = System.nanoTime();
            long alloc = mx.getThreadAllocatedBytes(tid) - alloc0;
            if (r >= 2) {
                mbps.add(size / 1e6 / ((t1 - t0) / 1e9));
                bytesPerPacket = (double) alloc / packets;
            }
        }
        double[] sorted = mbps.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = sorted[sorted.length / 2];
        System.out.printf("ackscope %s: %d packets, %.1f MB in %.3f s (median of %d): %.0f MB/s, %.2f Mpkt/s, "
                        + "%.2f bytes allocated/packet (whole run incl. open)%n",
                mode, packets, size / 1e6, size / 1e6 / median, sorted.length, median,
                packets / (size / 1e6 / median) / 1e6, bytesPerPacket);
        System.out.printf("RESULT %s %.3f%n", mode, median);
    }

    /** One pass over the file; returns the number of packets. */
    private static long consume(String mode, Path file) throws IOException, CaptureException {
        long n = 0;
        long sink = 0;
        PacketDecoder decoder = mode.equals("decode") ? new PacketDecoder() : null;
        try (CaptureReader r = Captures.open(file)) {
            while (r.next()) {
                n++;
                if (decoder != null) {
                    decoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                    sink += decoder.status().ordinal();
                } else {
                    sink += r.data()[r.dataOffset()] + r.capturedLength();
                }
            }
        }
        if (sink == 42) {
            System.out.print("");   // keep the loop's work observable
        }
        return n;
    }

    /**
     * A copy of an Ethernet (1) or raw IPv4 (101, 228) frame with each TCP port at or above 32768 moved by
     * {@code round} (within 32768-65535), so the round's connections are other 4-tuples; checksums are left as they
     * are (ackscope, like tshark by default, does not check them). Other frames are returned as they are.
     */
    private static byte[] movePorts(byte[] frame, int link, long round) {
        int ip = link == 1 ? 14 : link == 101 || link == 228 ? 0 : -1;
        if (ip < 0 || frame.length < ip + 20) {
            return frame;
        }
        if (link == 1 && ((frame[12] & 0xff) << 8 | (frame[13] & 0xff)) != 0x0800) {
            return frame;
        }
        if ((frame[ip] & 0xf0) != 0x40 || frame[ip + 9] != 6) {
            return frame;
        }
        int tcp = ip + (frame[ip] & 0x0f) * 4;
        if (frame.length < tcp + 4) {
            return frame;
        }
        byte[] out = frame.clone();
        for (int at = tcp; at <= tcp + 2; at += 2) {
            int port = (out[at] & 0xff) << 8 | (out[at + 1] & 0xff);
            if (port >= 32768) {
                port = 32768 + (int) ((port - 32768 + round * 113) % 32768);
                out[at] = (byte) (port >> 8);
                out[at + 1] = (byte) port;
            }
        }
        return out;
    }

    /** Writes a classic pcap of about {@code mb} MiB by repeating the records of a classic pcap, shifting time. */
    private static void generate(Path src, Path dst, long mb, boolean distinct) throws IOException, CaptureException {
        List<byte[]> records = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        byte[] header;
        try (CaptureReader r = Captures.open(src)) {
            var info = r.info();
            int link = info.linkTypes().get(0);
            ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(0xa1b23c4d).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262144)
                    .putInt(link);
            header = h.array();
            while (r.next()) {
                records.add(Arrays.copyOfRange(r.data(), r.dataOffset(), r.dataOffset() + r.capturedLength()));
                times.add(r.timestampNanos());
            }
        }
        long span = times.get(times.size() - 1) - times.get(0) + 1_000_000;
        int link = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(20);
        long target = mb * 1024 * 1024;
        long written = 24;
        ByteBuffer rh = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(dst), 1 << 20)) {
            out.write(header);
            for (long round = 0; written < target; round++) {
                for (int i = 0; i < records.size() && written < target; i++) {
                    long ts = times.get(i) + round * span;
                    byte[] d = distinct && round > 0 ? movePorts(records.get(i), link, round) : records.get(i);
                    rh.clear();
                    rh.putInt((int) (ts / 1_000_000_000L)).putInt((int) (ts % 1_000_000_000L)).putInt(d.length)
                            .putInt(d.length);
                    out.write(rh.array());
                    out.write(d);
                    written += 16 + d.length;
                }
            }
        }
        System.out.printf("generated %s: %d bytes from %d records of %s%n", dst, written, records.size(), src);
    }
}
