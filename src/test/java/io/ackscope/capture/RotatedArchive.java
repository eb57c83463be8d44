package io.ackscope.capture;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Test fixture: a capture (pcap, or pcapng with one section whose interfaces are all declared before its first
 * packet; plain or gzip) cut into rotated files the way capture tools write them, to build archives whose analysis
 * must equal the uncut capture's. Pieces are frame ranges: {@link #pieces(int)} cuts into n pieces at frames whose
 * timestamp is later than every earlier frame's, so each piece's first timestamp is later than the previous piece's
 * (the order {@link Archive} reads them in), whatever the capture's own timestamp order; {@link #piecesOf(int)} cuts
 * every n frames and {@link #piecesByTime(Duration)} as {@code tcpdump -G} does. Names: {@link #reversed},
 * {@link #tcpdumpC}, {@link #wrappedRing}, {@link #strftime} ({@code tcpdump -G}). A missing file, an exact copy or
 * another host's directory are a delete, a copy or a second {@code write} away.
 *
 * <p>Every file is the capture's preamble (the pcap file header; for pcapng the section header and interface blocks
 * before the first packet) followed by a run of its records copied byte for byte (for pcapng a packet block with the
 * non-packet blocks that follow it up to the next packet), so the files' records, preambles left out, concatenate
 * back to the capture, and each file reads with the frames, timestamps and interfaces it had there.
 *
 * <pre>{@code
 * RotatedArchive cap = RotatedArchive.read(sample);
 * List<int[]> pieces = cap.pieces(8);                       // [from, to) frame ranges, 0-based
 * cap.write(dir, pieces, RotatedArchive.reversed(8, "cap-", ".pcap"));   // names in reverse time order
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

    /** Reads a pcap or one-section pcapng file (gzip-compressed or not); refuses one it could not cut cleanly. */
    public static RotatedArchive read(Path capture) throws IOException {
        byte[] all;
        try (InputStream raw = Files.newInputStream(capture)) {
            byte[] head = raw.readNBytes(2);
            InputStream joined = new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(head), raw);
            InputStream in = head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b
                    ? new GZIPInputStream(joined) : joined;
            all = in.readAllBytes();
        }
        List<Integer> starts = new ArrayList<>();
        List<Long> ts = new ArrayList<>();
        long last = 0;
        try (CaptureReader r = Captures.open(new java.io.ByteArrayInputStream(all), capture.toString())) {
            while (r.next()) {
                if (r.sectionNumber() != 0) {
                    throw new IOException(capture + ": more than one pcapng section");
                }
                starts.add(Math.toIntExact(r.recordOffset()));
                last = r.hasTimestamp() ? r.timestampNanos() : last; // a pcapng SPB has its predecessor's time
                ts.add(last);
            }
            if (r.tailProblem() != null || r.position() != all.length) {
                throw new IOException(capture + ": ends inside a record at byte " + r.position());
            }
        } catch (CaptureException e) {
            throw new IOException(capture + ": damaged: " + e.getMessage(), e);
        }
        if (starts.isEmpty()) {
            throw new IOException(capture + ": no frames");
        }
        starts.add(all.length);
        checkNoInterfacesAfterFirstPacket(capture, all, starts.get(0));
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i + 1 < starts.size(); i++) {
            records.add(java.util.Arrays.copyOfRange(all, starts.get(i), starts.get(i + 1)));
        }
        return new RotatedArchive(java.util.Arrays.copyOf(all, starts.get(0)), records,
                ts.stream().mapToLong(Long::longValue).toArray());
    }

    private static final int PCAPNG_SHB = 0x0A0D0D0A;
    private static final int PCAPNG_IDB = 1;

    /** A pcapng block between packets that declares a section or interface would be lost to the later files. */
    private static void checkNoInterfacesAfterFirstPacket(Path name, byte[] all, int firstRecord) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != PCAPNG_SHB) {
            return;
        }
        if (b.getInt(8) != 0x1A2B3C4D) {
            b.order(ByteOrder.BIG_ENDIAN);
        }
        for (int pos = firstRecord; pos < all.length; pos += b.getInt(pos + 4)) {
            int type = b.getInt(pos);
            if (type == PCAPNG_SHB || type == PCAPNG_IDB) {
                throw new IOException(name + ": block type " + type + " at byte " + pos
                        + " after the first packet; cutting would orphan it");
            }
        }
    }

    /** Frames in the capture. */
    public int frames() {
        return records.size();
    }

    /** Timestamp of frame {@code frame} (0-based), in nanoseconds since the epoch. */
    public long timestampNanos(int frame) {
        return nanos[frame];
    }

    /** The bytes before the first record, which every file starts with (24 for classic pcap). */
    public byte[] preamble() {
        return header.clone();
    }

    /** Frame ranges of {@code perFile} frames each (the last fewer), as a count-bounded rotation cuts. */
    public List<int[]> piecesOf(int perFile) {
        if (perFile < 1) {
            throw new IllegalArgumentException("perFile < 1");
        }
        List<int[]> out = new ArrayList<>();
        for (int from = 0; from < records.size(); from += perFile) {
            out.add(new int[]{from, Math.min(records.size(), from + perFile)});
        }
        return out;
    }

    /**
     * Frame ranges as {@code tcpdump -G} rotates: a piece starts at a frame and holds every frame whose timestamp is
     * less than {@code interval} after its start, which for whole seconds is the first frame's second (tcpdump
     * counts whole seconds of the clock), else the first frame's timestamp; the next frame starts the next piece, so
     * a quiet gap longer than the interval makes no empty files.
     */
    public List<int[]> piecesByTime(Duration interval) {
        long step = interval.toNanos();
        if (step < 1) {
            throw new IllegalArgumentException("interval < 1 ns");
        }
        boolean wholeSeconds = step % 1_000_000_000L == 0;
        List<int[]> out = new ArrayList<>();
        int from = 0;
        long start = wholeSeconds ? Math.floorDiv(nanos[0], 1_000_000_000L) * 1_000_000_000L : nanos[0];
        for (int i = 1; i < records.size(); i++) {
            if (nanos[i] - start >= step) {
                out.add(new int[]{from, i});
                from = i;
                start = wholeSeconds ? Math.floorDiv(nanos[i], 1_000_000_000L) * 1_000_000_000L : nanos[i];
            }
        }
        out.add(new int[]{from, records.size()});
        return out;
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
            Path file = dir.resolve(name.apply(i));
            if (out.contains(file)) {
                throw new IllegalArgumentException("two pieces named " + file.getFileName());
            }
            out.add(write(file, pieces.get(i)[0], pieces.get(i)[1]));
        }
        return out;
    }

    /** Names in reverse time order: the last piece gets {@code prefix + "00"}. */
    public static IntFunction<String> reversed(int pieces, String prefix, String suffix) {
        return i -> prefix + String.format("%02d", pieces - 1 - i) + suffix;
    }

    /** tcpdump {@code -C}: {@code cap}, {@code cap1}, {@code cap2}, ... (name order puts {@code cap10} before {@code cap2}). */
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

    /**
     * tcpdump {@code -G} names: {@code pattern} through strftime at the second of each piece's first frame, in UTC
     * ({@code %Y %m %d %H %M %S %s %%}). Pieces shorter than a second can repeat a name: {@link #write} refuses that.
     */
    public IntFunction<String> strftime(String pattern, List<int[]> pieces) {
        return i -> strftimeUtc(pattern, Math.floorDiv(nanos[pieces.get(i)[0]], 1_000_000_000L));
    }

    static String strftimeUtc(String pattern, long epochSecond) {
        ZonedDateTime t = Instant.ofEpochSecond(epochSecond).atZone(ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 == pattern.length()) {
                sb.append(c);
                continue;
            }
            char f = pattern.charAt(++i);
            switch (f) {
                case 'Y' -> sb.append(t.getYear());
                case 'm' -> sb.append(String.format("%02d", t.getMonthValue()));
                case 'd' -> sb.append(String.format("%02d", t.getDayOfMonth()));
                case 'H' -> sb.append(String.format("%02d", t.getHour()));
                case 'M' -> sb.append(String.format("%02d", t.getMinute()));
                case 'S' -> sb.append(String.format("%02d", t.getSecond()));
                case 's' -> sb.append(epochSecond);
                case '%' -> sb.append('%');
                default -> throw new IllegalArgumentException("strftime: %" + f + " not supported");
            }
        }
        return sb.toString();
    }
}
