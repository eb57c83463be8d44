package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;

/**
 * Test fixture: one capture cut into the files a rotating capture leaves behind ({@code tcpdump -G}, {@code -C},
 * {@code -C -W}), with what real archives add: names that do not sort in time, a missing file, frames repeated
 * across a cut, an exact copy, the same traffic under several host directories.
 *
 * <p>Every file is the capture's preamble (the pcap file header; for pcapng the section header and interface blocks
 * before the first packet) followed by a run of its records copied byte for byte (for pcapng a packet block with
 * the non-packet blocks that follow it up to the next packet). So the records of the files, preambles left out,
 * concatenate back to the capture, and each file reads with the frames, timestamps and interfaces it had there.
 *
 * <pre>{@code
 * RotatedArchive.of(capture).byFrames(100).named(Naming.sizeRotated("cap")).overlap(5).write(dir);
 * }</pre>
 */
public final class RotatedArchive {
    private static final int PCAPNG_SHB = 0x0A0D0D0A;
    private static final int PCAPNG_IDB = 1;

    private final byte[] capture;
    /** Start offset of each record in {@link #capture}, then the capture's length. */
    private final int[] offsets;
    /** Each frame's timestamp; a frame without one (pcapng SPB) has its predecessor's. */
    private final long[] timestamps;

    private RotatedArchive(byte[] capture, int[] offsets, long[] timestamps) {
        this.capture = capture;
        this.offsets = offsets;
        this.timestamps = timestamps;
    }

    /**
     * Reads a pcap or pcapng capture (gzip-compressed or not) with one section whose interfaces are all declared
     * before its first packet, as a rotating capture writes them.
     */
    public static RotatedArchive of(Path capture) throws IOException {
        byte[] bytes;
        try (InputStream raw = Files.newInputStream(capture)) {
            byte[] head = raw.readNBytes(2);
            boolean gzip = head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
            InputStream rest = new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(head), raw);
            bytes = (gzip ? new GZIPInputStream(rest) : rest).readAllBytes();
        }
        List<Integer> starts = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        long last = 0;
        try (CaptureReader r = Bytes.open(bytes)) {
            while (r.next()) {
                if (r.sectionNumber() != 0) {
                    throw new IllegalArgumentException(capture + ": more than one pcapng section");
                }
                starts.add(Math.toIntExact(r.recordOffset()));
                last = r.hasTimestamp() ? r.timestampNanos() : last;
                times.add(last);
            }
            if (r.tailProblem() != null || r.position() != bytes.length) {
                throw new IllegalArgumentException(capture + ": ends inside a record at byte " + r.position());
            }
        } catch (CaptureException e) {
            throw new IllegalArgumentException(capture + ": damaged: " + e.getMessage(), e);
        }
        if (starts.isEmpty()) {
            throw new IllegalArgumentException(capture + ": no frames");
        }
        int[] offsets = new int[starts.size() + 1];
        for (int i = 0; i < starts.size(); i++) {
            offsets[i] = starts.get(i);
        }
        offsets[starts.size()] = bytes.length;
        RotatedArchive a = new RotatedArchive(bytes, offsets, times.stream().mapToLong(Long::longValue).toArray());
        a.checkNoInterfacesAfterFirstPacket(capture);
        return a;
    }

    /** A pcapng block between packets that declares a section or interface would be lost to the later files. */
    private void checkNoInterfacesAfterFirstPacket(Path name) {
        if (readU32(0, false) != PCAPNG_SHB) {
            return;
        }
        boolean big = readU32(8, false) != 0x1A2B3C4D;
        for (int pos = offsets[0]; pos < capture.length; ) {
            int type = readU32(pos, big);
            if (type == PCAPNG_SHB || type == PCAPNG_IDB) {
                throw new IllegalArgumentException(name + ": block type " + type + " at byte " + pos
                        + " after the first packet; cutting would orphan it");
            }
            pos += readU32(pos + 4, big);
        }
    }

    private int readU32(int at, boolean big) {
        int b0 = capture[at] & 0xff, b1 = capture[at + 1] & 0xff, b2 = capture[at + 2] & 0xff,
                b3 = capture[at + 3] & 0xff;
        return big ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0;
    }

    /** Frames of the capture. */
    public int frames() {
        return timestamps.length;
    }

    /** Timestamp of frame {@code frame} (0-based), in nanoseconds since the epoch. */
    public long timestampNanos(int frame) {
        return timestamps[frame];
    }

    /** The bytes before the first record, which every file of the archive starts with. */
    public byte[] preamble() {
        return Arrays.copyOfRange(capture, 0, offsets[0]);
    }

    /** The record bytes of frames {@code [from, to)} (0-based), as they are in the capture. */
    public byte[] records(int from, int to) {
        return Arrays.copyOfRange(capture, offsets[from], offsets[to]);
    }

    /** The capture as one file: preamble and every record. */
    public byte[] whole() {
        return capture.clone();
    }

    /** Cuts every {@code perFile} frames, as {@code tcpdump -c}-sized files would be. */
    public Rotation byFrames(int perFile) {
        if (perFile < 1) {
            throw new IllegalArgumentException("perFile < 1");
        }
        List<int[]> cuts = new ArrayList<>();
        for (int s = 0; s < frames(); s += perFile) {
            cuts.add(new int[]{s, Math.min(frames(), s + perFile)});
        }
        return new Rotation(cuts);
    }

    /**
     * Cuts as {@code tcpdump -G} rotates: a file starts at a frame and holds every frame whose timestamp is less than
     * {@code interval} after that first frame's; the next frame starts the next file (so a quiet gap longer than the
     * interval makes no empty files). {@code tcpdump -G} counts whole seconds of the wall clock; give
     * {@code Duration.ofSeconds(n)} for that, shorter intervals to cut short captures finely.
     */
    public Rotation byTime(Duration interval) {
        long step = interval.toNanos();
        if (step < 1) {
            throw new IllegalArgumentException("interval < 1 ns");
        }
        boolean wholeSeconds = step % 1_000_000_000L == 0;
        List<int[]> cuts = new ArrayList<>();
        int start = 0;
        long startTime = floor(timestamps[0], wholeSeconds);
        for (int i = 1; i < frames(); i++) {
            if (timestamps[i] - startTime >= step) {
                cuts.add(new int[]{start, i});
                start = i;
                startTime = floor(timestamps[i], wholeSeconds);
            }
        }
        cuts.add(new int[]{start, frames()});
        return new Rotation(cuts);
    }

    private static long floor(long nanos, boolean toSecond) {
        return toSecond ? Math.floorDiv(nanos, 1_000_000_000L) * 1_000_000_000L : nanos;
    }

    /**
     * One file of an archive.
     *
     * @param cut   which cut of the capture it holds (0-based, in time order)
     * @param name  file name
     * @param first first frame (0-based) of the capture it holds
     * @param end   frame after its last
     * @param copy  an exact copy of another file of the archive
     */
    public record Piece(int cut, String name, int first, int end, boolean copy) {
        public int frames() {
            return end - first;
        }
    }

    /** How a rotating capture names its files. */
    @FunctionalInterface
    public interface Naming {
        /**
         * @param cut        the file's number in time order, from 0
         * @param cuts       how many files the rotation made
         * @param firstNanos timestamp of the file's first frame
         */
        String name(int cut, int cuts, long firstNanos);

        /**
         * {@code tcpdump -G} names: {@code pattern} through strftime at the second of the file's first frame, in UTC;
         * {@code %Y %m %d %H %M %S %s %%} are known.
         */
        static Naming strftime(String pattern) {
            return (cut, cuts, firstNanos) -> strftimeUtc(pattern, Math.floorDiv(firstNanos, 1_000_000_000L));
        }

        /** {@code tcpdump -C} without {@code -W}: {@code base}, {@code base1}, {@code base2}, ... {@code base10}. */
        static Naming sizeRotated(String base) {
            return (cut, cuts, firstNanos) -> cut == 0 ? base : base + cut;
        }

        /** {@code prefix}, a zero-padded number, {@code suffix}: names that sort in time. */
        static Naming numbered(String prefix, String suffix) {
            return (cut, cuts, firstNanos) -> prefix + pad(cut, cuts - 1) + suffix;
        }

        /** As {@link #numbered}, counting down: names that sort in reverse time order. */
        static Naming reversed(String prefix, String suffix) {
            return (cut, cuts, firstNanos) -> prefix + pad(cuts - 1 - cut, cuts - 1) + suffix;
        }
    }

    /** {@code n} zero-padded to the digits of {@code max}. */
    static String pad(int n, int max) {
        String s = Integer.toString(n);
        int width = Integer.toString(Math.max(0, max)).length();
        return "0".repeat(Math.max(0, width - s.length())) + s;
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
                case 'm' -> sb.append(pad(t.getMonthValue(), 10));
                case 'd' -> sb.append(pad(t.getDayOfMonth(), 10));
                case 'H' -> sb.append(pad(t.getHour(), 10));
                case 'M' -> sb.append(pad(t.getMinute(), 10));
                case 'S' -> sb.append(pad(t.getSecond(), 10));
                case 's' -> sb.append(epochSecond);
                case '%' -> sb.append('%');
                default -> throw new IllegalArgumentException("strftime: %" + f + " not supported");
            }
        }
        return sb.toString();
    }

    /** The files of one rotation of the capture; configure, then {@link #pieces()} or {@link #write(Path)}. */
    public final class Rotation {
        private final List<int[]> cuts;
        private Naming naming = Naming.numbered("cap-", ".pcap");
        private int overlap;
        private final Set<Integer> missing = new TreeSet<>();
        private int ring;
        private final List<Object[]> copies = new ArrayList<>();

        private Rotation(List<int[]> cuts) {
            this.cuts = cuts;
        }

        /** How many files the rotation made (before a ring overwrote or a file went missing). */
        public int cuts() {
            return cuts.size();
        }

        /** Names the files with {@code n} (default: {@code cap-00.pcap}, {@code cap-01.pcap}, ...). */
        public Rotation named(Naming n) {
            this.naming = n;
            return this;
        }

        /** Each file after the first also starts with the last {@code frames} frames of the file before it. */
        public Rotation overlap(int frames) {
            if (frames < 0) {
                throw new IllegalArgumentException("overlap < 0");
            }
            this.overlap = frames;
            return this;
        }

        /** Leaves out the files of these cuts (a gap in the archive); the others keep their names. */
        public Rotation missing(int... cutNumbers) {
            for (int c : cutNumbers) {
                missing.add(checkCut(c));
            }
            return this;
        }

        /**
         * {@code tcpdump -C N -W files -w base}: the files are named {@code base0}, {@code base1}, ... (numbers
         * zero-padded to the digits of {@code files - 1}) and wrap around, so only the last {@code files} cuts are
         * left, and the oldest of them need not have the lowest number.
         */
        public Rotation ring(String base, int files) {
            if (files < 1) {
                throw new IllegalArgumentException("ring of " + files + " files");
            }
            this.ring = files;
            this.naming = (cut, cuts, firstNanos) -> base + pad(cut % files, files - 1);
            return this;
        }

        /** Adds an exact copy of cut {@code cutNumber}'s file named {@code name}. */
        public Rotation copy(int cutNumber, String name) {
            copies.add(new Object[]{checkCut(cutNumber), name});
            return this;
        }

        private int checkCut(int c) {
            if (c < 0 || c >= cuts.size()) {
                throw new IllegalArgumentException("cut " + c + " of " + cuts.size());
            }
            return c;
        }

        /** The files, in time order, then the copies; names are distinct. */
        public List<Piece> pieces() {
            List<Piece> out = new ArrayList<>();
            int from = ring > 0 ? Math.max(0, cuts.size() - ring) : 0;
            for (int c = from; c < cuts.size(); c++) {
                if (!missing.contains(c)) {
                    out.add(piece(c, naming.name(c, cuts.size(), timestamps[cuts.get(c)[0]]), false));
                }
            }
            for (Object[] copy : copies) {
                out.add(piece((Integer) copy[0], (String) copy[1], true));
            }
            Set<String> names = new HashSet<>();
            for (Piece p : out) {
                if (!names.add(p.name())) {
                    throw new IllegalStateException("two files named " + p.name()
                            + " (a naming that repeats within this rotation)");
                }
            }
            return out;
        }

        private Piece piece(int c, String name, boolean copy) {
            int first = c == 0 ? 0 : Math.max(0, cuts.get(c)[0] - overlap);
            return new Piece(c, name, first, cuts.get(c)[1], copy);
        }

        /** Writes the files into {@code dir} (created); returns their paths in {@link #pieces()} order. */
        public List<Path> write(Path dir) throws IOException {
            Files.createDirectories(dir);
            List<Path> out = new ArrayList<>();
            for (Piece p : pieces()) {
                Path f = dir.resolve(p.name());
                try (OutputStream o = Files.newOutputStream(f)) {
                    o.write(capture, 0, offsets[0]);
                    o.write(capture, offsets[p.first()], offsets[p.end()] - offsets[p.first()]);
                }
                out.add(f);
            }
            return out;
        }

        /** The same files under {@code dir/host} for each host (identical traffic seen by several hosts). */
        public List<Path> writeHosts(Path dir, String... hosts) throws IOException {
            List<Path> out = new ArrayList<>();
            for (String h : hosts) {
                out.addAll(write(dir.resolve(h)));
            }
            return out;
        }
    }
}
