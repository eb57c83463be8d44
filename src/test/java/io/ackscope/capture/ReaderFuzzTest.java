package io.ackscope.capture;

import com.github.luben.zstd.ZstdOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Mutates corpus captures (bit flips, byte and length-field smashing, truncation, chunk deletion and duplication,
 * compressed variants) and feeds random bytes behind valid magics through {@link Captures#open} and a full read.
 * The only acceptable outcomes are records followed by a clean end, a tail problem, or {@link CaptureException};
 * an unchecked exception, another IOException or a hang fails the test (the input is saved under target/).
 *
 * <p>Runs for {@code ackscope.fuzz.seconds} (default 20); seed from {@code ackscope.fuzz.seed} (default: time).
 */
class ReaderFuzzTest {
    private static final int[] SMASH_VALUES = {0, 1, 3, 4, 7, 8, 11, 12, 15, 16, 27, 28, 31, 32, 0x7fff_ffff,
        0x8000_0000, 0xffff_ffff, 0xffff_fff0, 0x0001_0000, 0x0004_0000, 0x0004_0001, 0x0100_0000, 0x0101_0000,
        0x0A0D_0D0A, 0x1A2B_3C4D, 0x4D3C_2B1A, 0xa1b2_c3d4, 0xd4c3_b2a1};

    @Test
    void mutatedAndRandomInputsEndInRecordsTailOrCaptureExceptionOnly() throws Exception {
        double seconds = Double.parseDouble(System.getProperty("ackscope.fuzz.seconds", "20"));
        long seed = Long.getLong("ackscope.fuzz.seed", System.nanoTime());
        List<byte[]> seeds = seeds();
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long[] stats = new long[4];   // inputs, clean, tail, damaged
        System.out.println("reader fuzz: seed " + seed + ", " + seconds + " s, " + seeds.size() + " seed inputs");
        assertTimeoutPreemptively(Duration.ofSeconds((long) seconds + 120), () -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            while (System.nanoTime() < deadline) {
                byte[] input = mutate(seeds.get(rnd.nextInt(seeds.size())), rnd);
                stats[0]++;
                stats[1 + readOnce(input, seed, stats[0])]++;
            }
        }, "reading a mutated input hung");
        System.out.printf("reader fuzz: %d inputs: %d clean ends, %d tail problems, %d CaptureExceptions%n",
                stats[0], stats[1], stats[2], stats[3]);
        assertTrue(stats[0] > 100, "fuzzed only " + stats[0] + " inputs");
    }

    /** Returns 0 clean end, 1 tail problem, 2 CaptureException; fails on anything else. */
    private static int readOnce(byte[] input, long seed, long index) throws IOException {
        try (CaptureReader r = Captures.open(new ByteArrayInputStream(input), "fuzz")) {
            long records = 0;
            while (r.next()) {
                records++;
                if (r.capturedLength() < 0 || r.dataOffset() < 0
                        || r.dataOffset() + r.capturedLength() > r.data().length) {
                    save(input, seed, index);
                    fail("record " + records + " points outside its array");
                }
            }
            r.info();
            return r.tailProblem() == null ? 0 : 1;
        } catch (CaptureException e) {
            if (e.offset() < 0 || e.reason() == null) {
                save(input, seed, index);
                fail("malformed CaptureException " + e);
            }
            return 2;
        } catch (IOException | RuntimeException | Error e) {
            Path saved = save(input, seed, index);
            throw new AssertionError("input " + index + " (seed " + seed + ", saved to " + saved + ") raised " + e, e);
        }
    }

    private static Path save(byte[] input, long seed, long index) throws IOException {
        Path dir = Paths.get("target", "fuzz-failures");
        Files.createDirectories(dir);
        Path p = dir.resolve("seed" + seed + "-input" + index + ".bin");
        Files.write(p, input);
        return p;
    }

    private static List<byte[]> seeds() throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (String file : Corpus.captures()) {
            byte[] b = Corpus.bytes(file);
            if (b.length <= 600_000) {
                out.add(b);
            }
        }
        byte[] small = Corpus.bytes("zeek__vlan-collisions.pcap");
        byte[] ng = Corpus.bytes("gopacket__be_test202.pcapng");
        out.add(compress(small, GZIPOutputStream::new));
        out.add(compress(ng, ZstdOutputStream::new));
        out.add(compress(small, o -> new BZip2CompressorOutputStream(o, 1)));
        // random tails behind valid headers
        SplittableRandom r = new SplittableRandom(1);
        byte[] junk = new byte[4096];
        for (int i = 0; i < junk.length; i++) {
            junk[i] = (byte) r.nextInt(256);
        }
        out.add(Bytes.concat(Pcap.header().build(), junk));
        out.add(Bytes.concat(Pcapng.shb(false), Pcapng.idb(false, 1, 0), junk));
        out.add(junk);
        return out;
    }

    private interface Compressor {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    private static byte[] compress(byte[] plain, Compressor c) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream out = c.wrap(bos)) {
            out.write(plain);
        }
        return bos.toByteArray();
    }

    private static byte[] mutate(byte[] seed, SplittableRandom rnd) {
        byte[] b = seed.clone();
        int rounds = 1 + rnd.nextInt(8);
        for (int k = 0; k < rounds && b.length > 0; k++) {
            switch (rnd.nextInt(7)) {
                case 0: // bit flips
                    for (int i = 0, n = 1 + rnd.nextInt(16); i < n; i++) {
                        b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
                    }
                    break;
                case 1: // random bytes
                    for (int i = 0, n = 1 + rnd.nextInt(8); i < n; i++) {
                        b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                    }
                    break;
                case 2: // smash an aligned 32-bit field near the start (headers live there) or anywhere
                    if (b.length >= 4) {
                        int at = (rnd.nextBoolean() ? rnd.nextInt(Math.min(b.length, 256)) : rnd.nextInt(b.length))
                                & ~3;
                        at = Math.min(at, b.length - 4);
                        int v = SMASH_VALUES[rnd.nextInt(SMASH_VALUES.length)];
                        if (rnd.nextBoolean()) {
                            v = Integer.reverseBytes(v);
                        }
                        b[at] = (byte) v;
                        b[at + 1] = (byte) (v >>> 8);
                        b[at + 2] = (byte) (v >>> 16);
                        b[at + 3] = (byte) (v >>> 24);
                    }
                    break;
                case 3: // truncate
                    b = Arrays.copyOf(b, rnd.nextInt(b.length + 1));
                    break;
                case 4: { // delete a chunk
                    int from = rnd.nextInt(b.length);
                    int len = Math.min(b.length - from, 1 + rnd.nextInt(64));
                    byte[] c = new byte[b.length - len];
                    System.arraycopy(b, 0, c, 0, from);
                    System.arraycopy(b, from + len, c, from, b.length - from - len);
                    b = c;
                    break;
                }
                case 5: { // duplicate a chunk
                    int from = rnd.nextInt(b.length);
                    int len = Math.min(b.length - from, 1 + rnd.nextInt(256));
                    byte[] c = new byte[b.length + len];
                    System.arraycopy(b, 0, c, 0, from + len);
                    System.arraycopy(b, from, c, from + len, b.length - from);
                    b = c;
                    break;
                }
                default: // random bytes only
                    for (int i = 0; i < b.length; i++) {
                        if (rnd.nextInt(64) == 0) {
                            b[i] = (byte) rnd.nextInt(256);
                        }
                    }
                    break;
            }
        }
        return b;
    }
}
