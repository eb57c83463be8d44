package io.ackscope.tcp;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.PriorityQueue;

/**
 * Writes a scan / SYN-flood capture (classic pcap, Ethernet, microsecond timestamps) of {@code n} connection attempts,
 * each on its own 4-tuple: a scanner's SYNs from distinct source addresses and ports to one target, one every
 * {@code 1/rate} seconds. Attempt {@code i} is answered by its index: {@code i % 10 == 1} with a SYN/ACK 1 ms later and
 * the scanner's RST 1 ms after that (conn_state RSTO), {@code i % 10 == 2} with a RST/ACK 1 ms later (REJ), and every
 * other attempt not at all (S0); {@code i % 20 == 5} also retransmits its SYN (same ISN) one second later. Nothing
 * is random, so counts are exact: see {@link #states}.
 *
 * <p>Used by {@code SynFloodMemoryTest} and {@code bench/syn-flood-bench.sh}:
 * {@code java -cp target/test-classes io.ackscope.tcp.SynScanCapture N FILE [RATE]}.
 */
public final class SynScanCapture {
    /** SYNs a second when not given: a fast scan (nmap -T4 runs at a few hundred, masscan's default is 100). */
    public static final int DEFAULT_RATE = 2_000;
    /** Capture time of the first SYN (epoch seconds). */
    static final long START_SECONDS = 1_700_000_000L;
    static final int TARGET = 0xC000020A;   // 192.0.2.10
    static final int TARGET_PORT = 80;
    private static final int FRAME = 14 + 20 + 20;

    private SynScanCapture() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: SynScanCapture N FILE [RATE]");
            System.exit(2);
        }
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_RATE;
        write(Path.of(args[1]), Integer.parseInt(args[0]), rate);
    }

    /** Source address of attempt {@code i}: 10.0.0.0/8, a new address every 50,000 attempts. */
    static int source(int i) {
        return 0x0A000000 + 1 + i / 50_000;
    }

    static int sourcePort(int i) {
        return 10_000 + i % 50_000;
    }

    /** Time of attempt {@code i}'s first SYN, microseconds after {@link #START_SECONDS}. */
    public static long synMicros(int i, int rate) {
        return (long) i * 1_000_000L / rate;
    }

    /** Number of attempts of each answer kind among {@code n}: {S0, RSTO, REJ}. */
    static long[] states(int n) {
        long rsto = 0, rej = 0;
        for (int i = 0; i < n; i++) {
            if (i % 10 == 1) {
                rsto++;
            } else if (i % 10 == 2) {
                rej++;
            }
        }
        return new long[] {n - rsto - rej, rsto, rej};
    }

    /** Writes the capture; returns the number of frames. */
    public static long write(Path file, int n, int rate) throws IOException {
        // pending answers and retransmissions, by time then attempt: at most ~rate entries
        PriorityQueue<long[]> later = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0])
                : x[1] != y[1] ? Long.compare(x[1], y[1]) : Long.compare(x[2], y[2]));
        long frames = 0;
        ByteBuffer rec = ByteBuffer.allocate(16 + FRAME).order(ByteOrder.LITTLE_ENDIAN);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            SyntheticFrames.pcapHeader(out);
            for (int i = 0; i <= n; i++) {
                long t = i < n ? synMicros(i, rate) : Long.MAX_VALUE;
                while (!later.isEmpty() && later.peek()[0] <= t) {
                    long[] e = later.poll();
                    frame(out, rec, e[0], (int) e[1], (int) e[2]);
                    frames++;
                }
                if (i == n) {
                    break;
                }
                frame(out, rec, t, i, 0);
                frames++;
                if (i % 10 == 1) {
                    later.add(new long[] {t + 1_000, i, 1});
                    later.add(new long[] {t + 2_000, i, 2});
                } else if (i % 10 == 2) {
                    later.add(new long[] {t + 1_000, i, 3});
                }
                if (i % 20 == 5) {
                    later.add(new long[] {t + 1_000_000, i, 0});
                }
            }
        }
        return frames;
    }

    /** kind 0: scanner SYN, 1: target SYN/ACK, 2: scanner RST, 3: target RST/ACK. */
    private static void frame(OutputStream out, ByteBuffer rec, long micros, int i, int kind) throws IOException {
        boolean fromScanner = kind == 0 || kind == 2;
        int src = fromScanner ? source(i) : TARGET, dst = fromScanner ? TARGET : source(i);
        int sport = fromScanner ? sourcePort(i) : TARGET_PORT, dport = fromScanner ? TARGET_PORT : sourcePort(i);
        long isn = (i * 2_654_435_761L) & 0xFFFFFFFFL;
        long targetIsn = (isn ^ 0x5A5A5A5AL) & 0xFFFFFFFFL;
        long seq, ack;
        int flags;
        switch (kind) {
            case 0 -> { seq = isn; ack = 0; flags = 0x02; }
            case 1 -> { seq = targetIsn; ack = isn + 1; flags = 0x12; }
            case 2 -> { seq = isn + 1; ack = 0; flags = 0x04; }
            default -> { seq = 0; ack = isn + 1; flags = 0x14; }
        }
        long sec = START_SECONDS + micros / 1_000_000;
        rec.clear();
        rec.order(ByteOrder.LITTLE_ENDIAN);
        rec.putInt((int) sec).putInt((int) (micros % 1_000_000)).putInt(FRAME).putInt(FRAME);
        rec.order(ByteOrder.BIG_ENDIAN);
        // Ethernet: destination, source, type IPv4
        rec.putInt(0x02000000).putShort((short) (fromScanner ? 2 : 1));
        rec.putInt(0x02000000).putShort((short) (fromScanner ? 1 : 2));
        rec.putShort((short) 0x0800);
        int ip = rec.position();
        rec.put((byte) 0x45).put((byte) 0).putShort((short) 40)        // version/IHL, DSCP, total length
                .putShort((short) i).putShort((short) 0x4000)           // identification, DF
                .put((byte) 64).put((byte) 6).putShort((short) 0)       // TTL, TCP, checksum (below)
                .putInt(src).putInt(dst);
        SyntheticFrames.ipv4Checksum(rec, ip);
        rec.putShort((short) sport).putShort((short) dport).putInt((int) seq).putInt((int) ack)
                .put((byte) 0x50).put((byte) flags).putShort((short) (kind == 2 || kind == 3 ? 0 : 64240))
                .putShort((short) 0).putShort((short) 0);               // checksum (not computed), urgent
        out.write(rec.array(), 0, rec.position());
    }
}
