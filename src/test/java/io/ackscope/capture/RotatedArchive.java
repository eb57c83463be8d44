package io.ackscope.capture;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Test fixture: a classic pcap capture (plain or gzip) cut into rotated files the way capture tools write them, to
 * build archives whose analysis must equal the uncut capture's. Pieces are cut by frame count at frames whose
 * timestamp is later than every earlier frame's, so each piece's first timestamp is later than the previous piece's
 * (the order {@link Archive} reads them in), whatever the capture's own timestamp order.
 *
 * <pre>{@code
 * RotatedArchive cap = RotatedArchive.read(sample);
 * List<int[]> pieces = cap.pieces(8);                       // [from, to) frame ranges, 0-based
 * cap.write(dir, pieces, RotatedArchive.reversed("cap-", ".pcap"));   // names in reverse time order
 * }</pre>
 */
public final class RotatedArchive {
    private final byte[] header;
    private final List<byte[]> records;
    private final long[] nanos;

    private RotatedArchive(byte[] header, List<byte[]> records, long[] nanos) {
        this.header = header;
        this.records = records;
        this.nanos = nanos;
    }

    /** Reads a classic pcap file (gzip-compressed or not). */
    public static RotatedArchive read(Path capture) throws IOException {
        byte[] all;
        try (InputStream raw = Files.newInputStream(capture)) {
            byte[] head = raw.readNBytes(2);
            InputStream joined = new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(head), raw);
            InputStream in = head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b
                    ? new GZIPInputStream(joined) : joined;
            all = in.readAllBytes();
        }
        ByteBuffer b = ByteBuffer.wrap(all);
        int magic = b.getInt(0);
        if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            b.order(ByteOrder.LITTLE_ENDIAN);
        } else if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d) {
            throw new IOException(capture + ": not a classic pcap file");
        }
        boolean nano = (b.order() == ByteOrder.LITTLE_ENDIAN ? Integer.reverseBytes(magic) : magic) == 0xa1b23c4d;
        byte[] header = java.util.Arrays.copyOf(all, 24);
        List<byte[]> records = new ArrayList<>();
        List<Long> ts = new ArrayList<>();
        int at = 24;
        while (at + 16 <= all.length) {
            long sec = b.getInt(at) & 0xffffffffL;
            long frac = b.getInt(at + 4) & 0xffffffffL;
            int caplen = b.getInt(at + 8);
            records.add(java.util.Arrays.copyOfRange(all, at, at + 16 + caplen));
            ts.add(sec * 1_000_000_000L + (nano ? frac : frac * 1000));
            at += 16 + caplen;
        }
        return new RotatedArchive(header, records, ts.stream().mapToLong(Long::longValue).toArray());
    }

    /** Frames in the capture. */
    public int frames() {
        return records.size();
    }

    /**
     * Frame ranges {@code [from, to)} (0-based) of {@code n} pieces of about equal frame counts, each starting at
     * a frame later than every frame before it.
     */
    public List<int[]> pieces(int n) {
        List<int[]> out = new ArrayList<>();
        int from = 0;
        for (int i = 1; i < n; i++) {
            int cut = Math.max(from + 1, (int) ((long) records.size() * i / n));
            while (cut < records.size() && !laterThanAllBefore(cut)) {
                cut++;
            }
            out.add(new int[]{from, cut});
            from = cut;
        }
        out.add(new int[]{from, records.size()});
        return out;
    }

    private boolean laterThanAllBefore(int frame) {
        long max = Long.MIN_VALUE;
        for (int i = 0; i < frame; i++) {
            max = Math.max(max, nanos[i]);
        }
        return nanos[frame] > max;
    }

    /** The pieces with the next one's first {@code frames} frames also at the end of each (overlapping files). */
    public static List<int[]> overlapping(List<int[]> pieces, int frames) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            int[] p = pieces.get(i);
            int end = i + 1 < pieces.size() ? Math.min(pieces.get(i + 1)[1], p[1] + frames) : p[1];
            out.add(new int[]{p[0], end});
        }
        return out;
    }

    /** The bytes of a pcap file holding frames {@code [from, to)}. */
    public byte[] file(int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header);
        for (int i = from; i < to; i++) {
            out.writeBytes(records.get(i));
        }
        return out.toByteArray();
    }

    /** Writes frames {@code [from, to)} to {@code file} (gzip-compressed when its name ends in {@code .gz}). */
    public Path write(Path file, int from, int to) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream raw = Files.newOutputStream(file);
             OutputStream out = file.toString().endsWith(".gz") ? new GZIPOutputStream(raw) : raw) {
            out.write(file(from, to));
        }
        return file;
    }

    /** Writes each piece {@code i} to {@code dir/name(i)}; returns the files in piece (time) order. */
    public List<Path> write(Path dir, List<int[]> pieces, IntFunction<String> name) throws IOException {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            out.add(write(dir.resolve(name.apply(i)), pieces.get(i)[0], pieces.get(i)[1]));
        }
        return out;
    }

    /** Names in reverse time order: the last piece gets {@code prefix + "00"}. */
    public static IntFunction<String> reversed(int pieces, String prefix, String suffix) {
        return i -> prefix + String.format("%02d", pieces - 1 - i) + suffix;
    }

    /** tcpdump {@code -C}: {@code cap}, {@code cap1}, {@code cap2}, ... (by name {@code cap10} sorts before {@code cap2}). */
    public static IntFunction<String> tcpdumpC(String base) {
        return i -> i == 0 ? base : base + i;
    }

    /**
     * A tcpdump {@code -W n} ring that has wrapped: the oldest piece is file {@code start}, the files after it in
     * name order are newer, and the ring goes on from {@code base + "0"}.
     */
    public static IntFunction<String> wrappedRing(String base, int pieces, int start) {
        return i -> base + ((start + i) % pieces);
    }
}
