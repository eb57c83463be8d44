package io.ackscope.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compressed captures cut short yield every record that decompresses whole, then the damage with the compressed and
 * decompressed offsets; compressed captures read from FIFOs as from files. What "decompresses" means is taken from
 * other decoders run as processes on the same cut file: Python's zlib and bz2 modules (zlib and libbz2; gzip(1) keeps
 * back the last byte or so zlib delivers, and bzip2(1) writes in 5,000-byte pieces and drops the last partial one),
 * and zstd(1).
 */
class CutShortCompressedCaptureTest {

    /** The bundled sample captures (classic little-endian pcap inside gzip). */
    private static List<Path> samples() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("sample-pcaps"))) {
            List<Path> out = s.filter(p -> p.getFileName().toString().endsWith(".pcap.gz")).sorted().toList();
            assertTrue(out.size() >= 2, "sample-pcaps/*.pcap.gz missing");
            return out;
        }
    }

    /** Records wholly inside a classic little-endian pcap prefix, and the offset where the first partial one starts. */
    private record Complete(long records, long end) {
    }

    private static Complete complete(byte[] prefix) {
        if (prefix.length < 24) {
            return new Complete(0, 0);   // not even the file header
        }
        ByteBuffer b = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        assertTrue(magic == 0xa1b2c3d4 || magic == 0xa1b23c4d, "not little-endian pcap: " + Integer.toHexString(magic));
        long pos = 24;
        long n = 0;
        while (pos + 16 <= prefix.length) {
            long incl = Integer.toUnsignedLong(b.getInt((int) pos + 8));    // record header: incl_len at +8
            if (pos + 16 + incl > prefix.length) {
                break;
            }
            pos += 16 + incl;
            n++;
        }
        return new Complete(n, pos);
    }

    /** Runs a decoder process on {@code input} and returns what it wrote before it stopped (its exit code ignored). */
    static byte[] run(byte[] input, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread writer = new Thread(() -> {
            try (OutputStream o = p.getOutputStream()) {
                o.write(input);
            } catch (IOException e) {
                // the decoder stopped reading at the damage
            }
        });
        writer.start();
        byte[] out;
        try (InputStream in = p.getInputStream()) {
            out = in.readAllBytes();
        }
        writer.join();
        p.waitFor();
        return out;
    }

    /** Python decompressing standard input with {@code decompressor} as far as it goes. */
    private static String[] python(String decompressor) {
        return new String[] {"python3", "-c", "import bz2,sys,zlib\nd=" + decompressor + "\n"
                + "sys.stdout.buffer.write(d.decompress(sys.stdin.buffer.read()))\n"};
    }

    /** zlib reading one gzip member (wbits 16 + 15). */
    private static final String[] ZLIB_GZIP = python("zlib.decompressobj(31)");
    private static final String[] LIBBZ2 = python("bz2.BZ2Decompressor()");

    /** What decompresses of a compressed file cut short. */
    private interface Prefix {
        byte[] of(byte[] cut) throws Exception;
    }

    /**
     * Cuts {@code compressed} at each point, reads it, and checks the records against what {@code decompressed} says
     * the cut file decompresses to; returns the record counts.
     */
    private static List<Long> assertCutsReadToTheDamage(String name, byte[] compressed, String label, long[] cuts,
                                                         Prefix decompressed) throws Exception {
        List<Long> counts = new ArrayList<>();
        for (long at : cuts) {
            byte[] cut = Arrays.copyOf(compressed, (int) at);
            byte[] prefix = decompressed.of(cut);
            Complete want = complete(prefix);
            Records.Outcome got = Records.readStream(new ByteArrayInputStream(cut), name);
            String where = name + " cut at " + at;
            assertEquals(want.records(), got.records.size(), where);
            assertNotNull(got.error, where + ": the cut must be reported");
            assertEquals(name, got.error.file());
            assertEquals(want.end(), got.error.offset(), where + ": damage at the first record not read whole");
            assertEquals(label + " data cut short at compressed byte " + at + " (decompressed byte " + prefix.length
                    + ")", got.error.reason(), where);
            assertNull(got.tail);
            counts.add((long) got.records.size());
        }
        return counts;
    }

    @Test
    void cutShortGzipSamplesYieldEveryRecordGzipDecompresses() throws Exception {
        for (Path sample : samples()) {
            byte[] z = Files.readAllBytes(sample);
            // in the first deflate block, mid-file, and inside the 8-byte trailer (every record decompresses)
            List<Long> counts = assertCutsReadToTheDamage(sample.toString(), z, "gzip",
                    new long[] {553, z.length * 2L / 5, z.length - 5}, cut -> run(cut, ZLIB_GZIP));
            assertEquals(complete(run(z, "gzip", "-dc")).records(), counts.get(2), sample + ": trailer cut");
            assertTrue(counts.get(0) > 0 && counts.get(0) < counts.get(1), sample + ": " + counts);
        }
    }

    @Test
    void cutShortGzipYieldsTheFramesTsharkReads(@TempDir Path tmp) throws Exception {
        byte[] z = Files.readAllBytes(Path.of("sample-pcaps/nginx-nodelay-on.pcap.gz"));
        for (int at : new int[] {553, 200_000, 500_000}) {
            Path cut = tmp.resolve("cut-" + at + ".pcap.gz");
            Files.write(cut, Arrays.copyOf(z, at));
            Process p = new ProcessBuilder("tshark", "-n", "-r", cut.toString(), "-T", "fields", "-e", "frame.number")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            long tshark;
            try (InputStream in = p.getInputStream()) {
                tshark = new String(in.readAllBytes()).lines().count();
            }
            p.waitFor();
            Records.Outcome got = Records.readAll(Captures.open(cut));
            assertEquals(tshark, got.records.size(), "cut at " + at);
            assertTrue(got.error.getMessage().startsWith(cut + ": byte "), got.error.getMessage());
        }
    }

    /**
     * zstd(1) writes what it decoded in large pieces and keeps back the last one when its input ends early, so it
     * cannot say what decompresses. Instead the capture is compressed as frames of one 128 KiB block each (zstd's
     * largest block): a frame cut inside its block decompresses to nothing, so the prefix that decompresses is the
     * whole frames before the cut, known from the uncompressed file.
     */
    @Test
    void cutShortZstdYieldsEveryWholeBlockOfTheUncompressedPrefix() throws Exception {
        byte[] plain = run(Files.readAllBytes(Path.of("sample-pcaps/nginx-nodelay-on.pcap.gz")), "gzip", "-dc");
        int block = 128 * 1024;
        java.io.ByteArrayOutputStream z = new java.io.ByteArrayOutputStream();
        List<Long> frameEnds = new ArrayList<>();
        for (int off = 0; off < plain.length; off += block) {
            z.write(run(Arrays.copyOfRange(plain, off, Math.min(plain.length, off + block)), "zstd", "-q", "-c"));
            frameEnds.add((long) z.size());
        }
        byte[] frames = z.toByteArray();
        int n = frameEnds.size();
        assertTrue(n > 20, "frames: " + n);
        long[] cuts = {frameEnds.get(0) / 2, (frameEnds.get(9) + frameEnds.get(10)) / 2, frameEnds.get(19) + 3,
            (frameEnds.get(n - 2) + frameEnds.get(n - 1)) / 2};
        List<Long> counts = assertCutsReadToTheDamage("capture.pcap.zst", frames, "zstd", cuts, cut -> {
            int whole = 0;
            while (frameEnds.get(whole) <= cut.length) {
                whole++;
            }
            return Arrays.copyOf(plain, whole * block);
        });
        assertEquals(0, counts.get(0));
        assertTrue(counts.get(1) > 0 && counts.get(1) < counts.get(2) && counts.get(2) < counts.get(3),
                counts.toString());
        // cut where a frame ends, the stream is whole as far as zstd can tell: the records up to there, no damage
        Records.Outcome atFrameEnd = Records.readStream(new ByteArrayInputStream(
                Arrays.copyOf(frames, frameEnds.get(9).intValue())), "ten frames");
        assertEquals(complete(Arrays.copyOf(plain, 10 * block)).records(), atFrameEnd.records.size());
        assertNull(atFrameEnd.error);
        assertNotNull(atFrameEnd.tail, "the last record is cut by the frame end, as in a plain file cut there");
    }

    @Test
    void cutShortBzip2YieldsEveryWholeBlock() throws Exception {
        byte[] plain = run(Files.readAllBytes(Path.of("sample-pcaps/nginx-nodelay-off.pcap.gz")), "gzip", "-dc");
        byte[] z = run(plain, "bzip2", "-c", "-1");   // 100 kB blocks
        List<Long> counts = assertCutsReadToTheDamage("capture.pcap.bz2", z, "bzip2",
                new long[] {z.length / 3, z.length * 4L / 5, z.length - 1}, cut -> run(cut, LIBBZ2));
        assertTrue(counts.get(0) > 0 && counts.get(0) < counts.get(1), counts.toString());
    }

    @Test
    void compressedCapturesReadFromAFifo(@TempDir Path tmp) throws Exception {
        byte[] gz = Files.readAllBytes(Path.of("sample-pcaps/nginx-nodelay-on.pcap.gz"));
        byte[] plain = run(gz, "gzip", "-dc");
        Records.Outcome want = Records.readStream(new ByteArrayInputStream(plain), "plain");
        assertNull(want.error);
        byte[][] inputs = {gz, run(plain, "zstd", "-q", "-c"), run(plain, "bzip2", "-c")};
        for (int i = 0; i < inputs.length; i++) {
            Path fifo = Fifos.make(tmp.resolve("fifo" + i));
            Thread writer = Fifos.feed(fifo, inputs[i]);
            Records.Outcome got = Records.readAll(Captures.open(fifo));
            writer.join();
            assertNull(got.error, fifo + ": " + got.error);
            assertNull(got.tail);
            assertEquals(want.records, got.records);
        }
        // a cut-short gzip stream through a FIFO ends as the same cut file does
        Path fifo = Fifos.make(tmp.resolve("cut-fifo"));
        byte[] cut = Arrays.copyOf(gz, 300_000);
        Thread writer = Fifos.feed(fifo, cut);
        Records.Outcome got = Records.readAll(Captures.open(fifo));
        writer.join();
        Records.Outcome fromBytes = Records.readStream(new ByteArrayInputStream(cut), fifo.toString());
        assertEquals(fromBytes.records, got.records);
        assertEquals(fromBytes.error.getMessage(), got.error.getMessage());
    }
}
