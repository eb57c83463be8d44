package io.ackscope.capture;

import java.io.IOException;

/**
 * Finds record boundaries in an uncompressed capture so that one large file can be read as independent byte-range
 * splits (the Spark data source), and opens readers for those splits.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * SplitLocator loc = SplitLocator.open(input, name);          // reads the file header(s)
 * if (!loc.splittable()) { ... read the whole file with Captures.open(input.streamFrom(0), name) ... }
 * try (CaptureReader r = loc.openSplit(start, end)) { while (r.next()) { ... } }
 * }</pre>
 * Splits are contiguous ranges {@code [start, end)} covering the file; split readers are independent (one per task).
 * A locator is not thread-safe: open one per task (it only reads the header).
 *
 * <h2>Boundaries</h2>
 * {@link #boundaryAtOrAfter(long)} is a pure function of the file bytes and the position: the first position at or
 * after it where a chain of record headers validates (classic pcap: captured length within the reader's bound,
 * original length plausible, sub-second field in range, timestamps within a day of their neighbour; pcapng: block
 * length sane and equal to the trailing length, 4-byte alignment, packet blocks naming declared interfaces). The
 * chain must reach a validated header at least the largest record length away (so a fake header inside one packet's
 * payload has to cross that packet's real end and land exactly on the next real record), or end exactly at the end of
 * the file.
 *
 * <h2>Exactness</h2>
 * A split reader starts at {@code boundaryAtOrAfter(start)} (the first split at the data start) and returns the
 * records that start before {@code end}, reading past {@code end} to finish the last one. It then asks where the next
 * split will start ({@code boundaryAtOrAfter(end)}) and keeps reading until it stands exactly there: records the
 * locator skipped are still returned, by this split. If its true record chain steps over that position, the locator
 * was fooled (a crafted payload can always imitate a record chain); the reader then throws
 * {@link CaptureException} and {@link #needsWholeFileRead(CaptureReader)} is true. By induction from the first
 * split, when no split reports that, the union of the splits' records is exactly the whole-file read: same records,
 * same order, none lost or doubled.
 *
 * <h2>What callers handle</h2>
 * <ul>
 * <li><b>Whole-file fallback.</b> Not {@link #splittable()} (compressed files; pcapng without a packet block), or a
 * split reader for which {@link #needsWholeFileRead(CaptureReader)} is true (a pcapng Section Header Block or
 * Interface Description Block after the first packet block, which the other splits cannot know; a boundary the
 * locator got wrong): read the file whole and discard its split results.</li>
 * <li><b>Frame numbers.</b> A split reader numbers its records from 1 ({@link CaptureReader#frameNumber()}).
 * {@link CaptureReader#recordOffset()} is absolute and increases through the file, so file-wide numbers are the
 * split-local numbers plus the count of records in all earlier splits (a prefix sum over splits ordered by start),
 * starting from {@link #framesBeforeDataStart()}. pcapng custom blocks also take a number, as in tshark, so count a
 * split with its last {@code frameNumber()}, not with the number of records returned.</li>
 * <li><b>Damage.</b> A split that meets damage throws {@link CaptureException} at the same offset as a whole-file
 * read. Later splits may still return records beyond the damage, which a whole-file read never reaches: to match it,
 * drop records whose offset exceeds the smallest damage offset reported for the file.</li>
 * </ul>
 */
public final class SplitLocator {
    /** Largest step between the timestamps of neighbouring records in a chain. */
    static final long MAX_TIME_STEP_NANOS = 86_400L * 1_000_000_000L;
    /** Largest distance of a chain's timestamps from the file's first record (classic pcap). */
    static final long MAX_DISTANCE_FROM_FIRST_NANOS = 10L * 366 * 86_400L * 1_000_000_000L;
    /**
     * Fewest validated headers in a chain.
     *
     * <p><b>End of file.</b> A chain that runs into the end of the file is believed only if it ends exactly there,
     * after at least this many records. A chain cut by the end of the file proves nothing (any fake chain near the
     * end would pass), so the last records of a cut file belong to the split that reaches them by reading on, which
     * then reports the tail problem as a whole-file read does.
     */
    static final int MIN_CHAIN_RECORDS = 3;
    /** Largest original length believed in a chain (bigger than any link's frames, jumbo or TSO). */
    static final long MAX_PLAUSIBLE_ORIGINAL_LENGTH = 16L * 1024 * 1024;

    private final SeekableInput in;
    private final String name;
    private final long length;
    private final int maxRecordLength;
    private final CaptureFormat format;
    private final PcapFileHeader pcapHeader;
    private final PcapngSection section;
    private final long dataStart;
    private final String notSplittable;
    /** Bytes a chain must cover (or reach the end of the file) to be believed. */
    private final long span;
    /**
     * Longest scan for a boundary: every position is within one record of the next true boundary, so finding none
     * means the region is damaged or no record starts there.
     */
    private final long scanLimit;
    private final Window window;
    /**
     * Headers visited by the last chain that failed. A chain from any of them follows the same headers, fails at
     * the same place, and reaches no further (its span requirement is further away), so the scan skips them:
     * without this, a file cut short or damaged would cost a walk to the bad record from every record before it.
     */
    private long[] deadChain = new long[64];
    private int deadCount;
    /** Headers of the chain being checked. */
    private long[] chain = new long[64];
    private int chainCount;
    /** Timestamp of the first record (classic pcap), the anchor for chain timestamps. */
    private long firstTimestamp;
    private long framesBeforeDataStart;

    private SplitLocator(SeekableInput in, String name, long length, int maxRecordLength, CaptureFormat format,
                         PcapFileHeader pcapHeader, PcapngSection section, long dataStart, String notSplittable) {
        this.in = in;
        this.name = name;
        this.length = length;
        this.maxRecordLength = maxRecordLength;
        this.format = format;
        this.pcapHeader = pcapHeader;
        this.section = section;
        this.dataStart = dataStart;
        this.notSplittable = notSplittable;
        if (pcapHeader != null) {
            this.span = (long) pcapHeader.recordHeaderLength() + pcapHeader.recordLengthBound(maxRecordLength);
        } else if (section != null) {
            long snap = 0;
            for (CaptureInfo.Interface i : section.interfaces()) {
                snap = Math.max(snap, i.snapLength() == 0 ? PcapFileHeader.SANE_RECORD_LENGTH : i.snapLength());
            }
            this.span = Math.min(PcapngReader.maxBlockLength(maxRecordLength),
                    Math.min(snap, maxRecordLength) + PcapngReader.OPTION_ROOM);
        } else {
            this.span = 0;
        }
        this.scanLimit = pcapHeader != null ? span + 16 : PcapngReader.maxBlockLength(maxRecordLength) + 16L;
        this.window = new Window(in, length, span);
    }

    /** Reads the file's header (pcapng: up to its first packet block); see {@link #open(SeekableInput, String, int)}. */
    public static SplitLocator open(SeekableInput in, String name) throws IOException, CaptureException {
        return open(in, name, CaptureReader.DEFAULT_MAX_RECORD_LENGTH);
    }

    /**
     * Reads the file's header and decides whether it can be read in splits.
     *
     * @throws CaptureException the header is damaged (the same error a whole-file read reports)
     */
    public static SplitLocator open(SeekableInput in, String name, int maxRecordLength)
            throws IOException, CaptureException {
        long length = in.length();
        byte[] head = new byte[4];
        int n = (int) Math.min(4, length);
        in.readFully(0, head, 0, n);
        Compression compression = Compression.detect(head, n);
        if (compression != Compression.NONE) {
            return new SplitLocator(in, name, length, maxRecordLength, null, null, null, 0,
                    compression.label() + "-compressed files are read whole");
        }
        try (CaptureReader r = Captures.open(in.streamFrom(0), name, maxRecordLength)) {
            if (r instanceof PcapReader p) {
                SplitLocator loc = new SplitLocator(in, name, length, maxRecordLength, CaptureFormat.PCAP,
                        p.header(), null, PcapFileHeader.LENGTH, null);
                if (p.next()) {
                    loc.firstTimestamp = p.timestampNanos();
                }
                return loc;
            }
            PcapngReader ng = (PcapngReader) r;
            if (!ng.next()) {
                return new SplitLocator(in, name, length, maxRecordLength, CaptureFormat.PCAPNG, null, null, length,
                        "no packet block before the end of the file");
            }
            SplitLocator loc = new SplitLocator(in, name, length, maxRecordLength, CaptureFormat.PCAPNG, null,
                    ng.currentSection(), ng.recordOffset(), null);
            loc.framesBeforeDataStart = ng.frameNumber() - 1;
            return loc;
        }
    }

    /** True if the file can be read in splits (see the class comment for what can still require a whole read). */
    public boolean splittable() {
        return notSplittable == null;
    }

    /** Why the file must be read whole, or null. */
    public String whyNotSplittable() {
        return notSplittable;
    }

    /**
     * Frame numbers taken before {@link #dataStart()} by blocks tshark numbers (pcapng custom blocks between the
     * interface descriptions and the first packet): the first split's numbers start after them.
     */
    public long framesBeforeDataStart() {
        return framesBeforeDataStart;
    }

    /** Offset of the first record (pcapng: the first packet block). */
    public long dataStart() {
        return dataStart;
    }

    public long length() {
        return length;
    }

    /** Format of the file; null for a compressed one. */
    public CaptureFormat format() {
        return format;
    }

    /** The classic pcap header, or null. */
    public PcapFileHeader pcapHeader() {
        return pcapHeader;
    }

    /** The pcapng section in force at the data start, or null. */
    public PcapngSection section() {
        return section;
    }

    /**
     * The first record boundary at or after {@code pos}: {@link #dataStart()} for positions up to it,
     * {@link #length()} when no record starts between {@code pos} and the end of the file.
     */
    public long boundaryAtOrAfter(long pos) throws IOException {
        requireSplittable();
        if (pos <= dataStart) {
            return dataStart;
        }
        if (pos >= length) {
            return length;
        }
        long step = 1;
        long p = pos;
        if (section != null) {
            step = 4;
            p = section.offset() + ((pos - section.offset() + 3) & ~3L);
        }
        long limit = Math.min(length, pos + scanLimit);
        deadCount = 0;
        int dead = 0;   // next entry of the last failed chain not yet passed
        for (; p < limit; p += step) {
            while (dead < deadCount && deadChain[dead] < p) {
                dead++;
            }
            if (dead < deadCount && deadChain[dead] == p) {
                continue;   // on a chain already seen to fail: it would fail the same way
            }
            int before = deadCount;
            long[] deadBefore = deadChain;
            if (pcapHeader != null ? pcapChainAt(p) : pcapngChainAt(p)) {
                return p;
            }
            if (deadChain != deadBefore || deadCount != before) {
                dead = 0;   // a new dead chain, starting at p
            }
        }
        return length;
    }

    /**
     * A reader for the split {@code [start, end)}: the records that start in it, per the class comment. Reads
     * {@code in} through positioned reads; closing the reader does not close {@code in}.
     */
    public CaptureReader openSplit(long start, long end) throws IOException {
        requireSplittable();
        long from = boundaryAtOrAfter(start);
        StreamCaptureReader r;
        if (pcapHeader != null) {
            r = PcapReader.resume(in.streamFrom(from), name, pcapHeader, from, end, maxRecordLength);
        } else {
            r = PcapngReader.resume(in.streamFrom(from), name, section, from, end, maxRecordLength);
        }
        r.setSplitTarget(this::boundaryAtOrAfter);
        return r;
    }

    /**
     * True if {@code reader} is a split reader that stopped with a {@link CaptureException} because only a whole-file
     * read can continue (see the class comment).
     */
    public static boolean needsWholeFileRead(CaptureReader reader) {
        return reader instanceof StreamCaptureReader s && s.needsWholeFileRead();
    }

    private void requireSplittable() {
        if (notSplittable != null) {
            throw new IllegalStateException(name + ": not splittable: " + notSplittable);
        }
    }

    /** Records a header of the chain being checked; {@link #chainFailed()} keeps them for the scan. */
    private void visit(long p) {
        if (chainCount == chain.length) {
            chain = java.util.Arrays.copyOf(chain, chainCount * 2);
        }
        chain[chainCount++] = p;
    }

    /** The chain being checked failed: if it got past its first header, it becomes the dead chain. */
    private boolean chainFailed() {
        if (chainCount > 0) {
            long[] t = deadChain;
            deadChain = chain;
            chain = t;
            deadCount = chainCount;
            chainCount = 0;
        }
        return false;
    }

    // ---- classic pcap chains ----------------------------------------------------------------------------------

    private boolean pcapChainAt(long start) throws IOException {
        PcapFileHeader h = pcapHeader;
        boolean be = h.bigEndian();
        int hl = h.recordHeaderLength();
        int bound = h.recordLengthBound(maxRecordLength);
        long fracLimit = h.nanosecondResolution() ? 1_000_000_000L : 1_000_000L;
        long fracToNanos = h.nanosecondResolution() ? 1 : 1000;
        window.anchor(start);
        chainCount = 0;
        long p = start;
        long previousTs = 0;
        boolean first = true;
        int records = 0;
        while (true) {
            if (p == length) {
                return records >= MIN_CHAIN_RECORDS || chainFailed();   // ends exactly at the end of the file
            }
            if (p + hl > length) {
                return chainFailed();                          // see MIN_CHAIN_RECORDS
            }
            byte[] b = window.at(p, hl);
            int o = window.offset(p);
            long seconds = Endian.u32(b, o, be);
            long frac = Endian.u32(b, o + 4, be);
            long incl = Endian.u32(b, o + 8, be);
            long orig = Endian.u32(b, o + 12, be);
            if (h.lengthsAlwaysSwapped() || (h.lengthsMaybeSwapped() && incl > orig)) {
                long t = incl;
                incl = orig;
                orig = t;
            }
            // Strict on purpose: rejecting a true boundary only makes the previous split read on past its end.
            if (incl == 0 || incl > bound || incl > orig || orig > MAX_PLAUSIBLE_ORIGINAL_LENGTH
                    || frac >= fracLimit) {
                return chainFailed();
            }
            long ts = seconds * 1_000_000_000L + frac * fracToNanos;
            if (Math.abs(ts - firstTimestamp) > MAX_DISTANCE_FROM_FIRST_NANOS
                    || (!first && Math.abs(ts - previousTs) > MAX_TIME_STEP_NANOS)) {
                return chainFailed();
            }
            long next = p + hl + incl;
            if (next > length) {
                return chainFailed();                          // see MIN_CHAIN_RECORDS
            }
            if (++records >= MIN_CHAIN_RECORDS && p - start >= span) {
                return true;                       // a validated header beyond the longest record
            }
            first = false;
            previousTs = ts;
            visit(p);
            p = next;
        }
    }

    // ---- pcapng chains ------------------------------------------------------------------------------------------

    private boolean pcapngChainAt(long start) throws IOException {
        boolean be = section.bigEndian();
        int interfaces = section.interfaces().size();
        int maxBlock = PcapngReader.maxBlockLength(maxRecordLength);
        window.anchor(start);
        chainCount = 0;
        long p = start;
        boolean first = true;
        int records = 0;
        while (true) {
            if (p == length) {
                return records >= MIN_CHAIN_RECORDS || chainFailed();
            }
            if (p + 12 > length) {
                return chainFailed();                          // see MIN_CHAIN_RECORDS
            }
            byte[] b = window.at(p, 12);
            int o = window.offset(p);
            int type = Endian.i32(b, o, be);
            long len = Endian.u32(b, o + 4, be);
            if (type == PcapngBlocks.SHB) {
                // A new section, in its own byte order: believed if its length checks out in that order. A split
                // reader reaching it asks for a whole-file read.
                int bom = Endian.i32(b, o + 8, true);
                boolean sbe = bom == PcapngBlocks.BYTE_ORDER_MAGIC;
                if (!sbe && Integer.reverseBytes(bom) != PcapngBlocks.BYTE_ORDER_MAGIC) {
                    return chainFailed();
                }
                long slen = Endian.u32(b, o + 4, sbe);
                if ((slen & 3) != 0 || slen < 28 || slen > maxBlock || p + slen > length) {
                    return chainFailed();
                }
                return Endian.u32(window.at(p + slen - 4, 4), window.offset(p + slen - 4), sbe) == slen
                        || chainFailed();
            }
            if ((len & 3) != 0 || len < 12 || len > maxBlock) {
                return chainFailed();
            }
            if (p + len > length) {
                return chainFailed();                          // see MIN_CHAIN_RECORDS
            }
            long trailer = Endian.u32(window.at(p + len - 4, 4), window.offset(p + len - 4), be);
            if (trailer != len) {
                return chainFailed();
            }
            if (type == PcapngBlocks.EPB || type == PcapngBlocks.PB) {
                if (len < 32) {
                    return chainFailed();
                }
                b = window.at(p, 28);
                o = window.offset(p);
                long id = type == PcapngBlocks.PB ? Endian.u16(b, o + 8, be) : Endian.u32(b, o + 8, be);
                long captured = Endian.u32(b, o + 20, be);
                long orig = Endian.u32(b, o + 24, be);
                if (id >= interfaces || captured > len - 32 || orig > MAX_PLAUSIBLE_ORIGINAL_LENGTH) {
                    return chainFailed();
                }
            } else if (type == PcapngBlocks.SPB && (len < 16 || interfaces == 0)) {
                return chainFailed();
            }
            if (++records >= MIN_CHAIN_RECORDS && p - start >= span) {
                return true;
            }
            first = false;
            visit(p);
            p += len;
        }
    }

    /**
     * A window over the input holding a whole chain's span, so a chain check (and the checks of the candidates
     * after it) read the input once instead of 16 bytes at a time.
     */
    private static final class Window {
        private static final int MARGIN = 128 * 1024;
        private final SeekableInput in;
        private final long length;
        private final long span;
        private byte[] buf = new byte[0];
        private long start = -1;
        private int filled;

        Window(SeekableInput in, long length, long span) {
            this.in = in;
            this.length = length;
            this.span = span;
        }

        /** Before checking a chain from {@code pos}: load from there unless the window already covers its span. */
        void anchor(long pos) throws IOException {
            if (start < 0 || pos < start || (pos + span > start + filled && start + filled < length)) {
                load(pos, 0);
            }
        }

        /** Makes {@code [pos, pos + n)} available (the caller checked it lies within the file). */
        byte[] at(long pos, int n) throws IOException {
            if (start < 0 || pos < start || pos + n > start + filled) {
                load(pos, n);
            }
            return buf;
        }

        private void load(long pos, int n) throws IOException {
            int want = (int) Math.min(Math.max(span + MARGIN, n), length - pos);
            if (buf.length < want) {
                buf = new byte[want];
            }
            in.readFully(pos, buf, 0, want);
            start = pos;
            filled = want;
        }

        int offset(long pos) {
            return (int) (pos - start);
        }
    }
}
