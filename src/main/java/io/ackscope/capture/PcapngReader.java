package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.ackscope.capture.PcapngBlocks.BYTE_ORDER_MAGIC;
import static io.ackscope.capture.PcapngBlocks.CB_COPY;
import static io.ackscope.capture.PcapngBlocks.CB_NOCOPY;
import static io.ackscope.capture.PcapngBlocks.EPB;
import static io.ackscope.capture.PcapngBlocks.IDB;
import static io.ackscope.capture.PcapngBlocks.ISB;
import static io.ackscope.capture.PcapngBlocks.JOURNAL;
import static io.ackscope.capture.PcapngBlocks.KIND_NAMES;
import static io.ackscope.capture.PcapngBlocks.K_EPB;
import static io.ackscope.capture.PcapngBlocks.K_IDB;
import static io.ackscope.capture.PcapngBlocks.K_ISB;
import static io.ackscope.capture.PcapngBlocks.K_PB;
import static io.ackscope.capture.PcapngBlocks.K_SHB;
import static io.ackscope.capture.PcapngBlocks.K_SPB;
import static io.ackscope.capture.PcapngBlocks.PB;
import static io.ackscope.capture.PcapngBlocks.SHB;
import static io.ackscope.capture.PcapngBlocks.SPB;
import static io.ackscope.capture.PcapngBlocks.kind;
import static io.ackscope.capture.PcapngBlocks.kindName;
import static io.ackscope.capture.PcapngBlocks.minimumLength;

/**
 * Reads pcapng files (draft-ietf-opsawg-pcapng): any number of sections, each with its own byte order and its own
 * interfaces; Enhanced, Simple and obsolete Packet Blocks are returned as records; Name Resolution, Interface
 * Statistics, Decryption Secrets, custom and unknown blocks are counted and skipped by their length.
 *
 * <p><b>Checks.</b> Every block length must be a multiple of 4, at least the block type's minimum, at most
 * {@link #maxBlockLength(int)}, and equal to the trailing length; a packet block's captured length must fit in the
 * block; an option must fit in its block; a packet block must name an interface its section has declared (tshark
 * rejects the file there too). Any violation is {@link CaptureException} at the block's (or option's) offset. A
 * stream that ends inside a block ends reading with {@link #tailProblem()} set.
 *
 * <p><b>Numbering.</b> {@link #interfaceId()} is the IDB index within the record's section, like tshark's
 * {@code frame.interface_id}; {@link #sectionNumber()} says which section. Custom blocks and systemd journal export
 * blocks are frames for tshark: they take a frame number without being returned.
 *
 * <p><b>Simple Packet Blocks</b> belong to interface 0, have no timestamp ({@link #NO_TIMESTAMP}), and their captured
 * length is the smallest of the original length, the interface's snap length (when not 0) and the block's room.
 */
public final class PcapngReader extends StreamCaptureReader {
    /** Most interfaces one section may declare. */
    public static final int MAX_INTERFACES = 65_536;
    /** Room allowed in a block beyond the largest record, for options. */
    static final int OPTION_ROOM = 64 * 1024;

    private static final int OPT_ENDOFOPT = 0;
    private static final int OPT_COMMENT = 1;
    /** What {@link #parseOptions} keeps besides counting comments. */
    private static final int OPTS_COMMENTS = 0;
    private static final int OPTS_SHB = 1;
    private static final int OPTS_IDB = 2;

    private final int maxBlockLength;
    private final boolean resumed;

    // current section
    private boolean bigEndian;
    private int section = -1;
    private long sectionOffset;
    private CaptureInfo.Interface[] interfaces = new CaptureInfo.Interface[4];
    private long[] interfaceOffsetNanos = new long[4];
    private int interfaceCount;

    // file-level description
    private final List<CaptureInfo.Section> sections = new ArrayList<>();
    private final List<CaptureInfo.Interface> allInterfaces = new ArrayList<>();
    private long totalInterfaces;
    private final List<String> comments = new ArrayList<>();
    private long commentCount;
    private final long[] blockCounts = new long[KIND_NAMES.length];
    private long nonPacketRecords;

    // option values of the block being parsed
    private String optString2;
    private String optString3;
    private String optString4;
    private int optTsresol;
    private long optTsoffset;
    private int optFcslen;

    private PcapngReader(String name, StreamInput in, Compression compression, int maxRecordLength, long end,
                         boolean resumed) {
        super(name, in, compression, maxRecordLength, end);
        this.maxBlockLength = maxBlockLength(maxRecordLength);
        this.resumed = resumed;
    }

    /** Largest block accepted: the largest record plus room for its header and options. */
    public static int maxBlockLength(int maxRecordLength) {
        return (int) Math.min(Integer.MAX_VALUE - 64, (long) maxRecordLength + OPTION_ROOM);
    }

    /** True if the first four bytes are the SHB block type. */
    static boolean isMagic(byte[] b, int off) {
        return Endian.i32(b, off, true) == SHB;
    }

    /** Reads the first Section Header Block from {@code in} (positioned at offset 0). */
    static PcapngReader open(StreamInput in, String name, Compression compression, int maxRecordLength)
            throws IOException, CaptureException {
        PcapngReader r = new PcapngReader(name, in, compression, maxRecordLength, Long.MAX_VALUE, false);
        r.readFirstSectionHeader();
        return r;
    }

    /**
     * Reads blocks from a stream positioned at a known block boundary inside {@code section}, for split reading.
     *
     * <p>The reader returns the packets of blocks that start before {@code end} (reading past {@code end} to finish
     * the last one). {@link #frameNumber()} counts from 1 within this reader. A Section Header Block or Interface
     * Description Block met on the way cannot be interpreted consistently by the other splits: the reader then throws
     * {@link CaptureException} and {@link SplitLocator#needsWholeFileRead(CaptureReader)} returns true.
     *
     * @param in      stream positioned at byte {@code start} of the (uncompressed) file; the reader closes it
     * @param section byte order and interfaces in force at {@code start}
     */
    public static PcapngReader resume(InputStream in, String name, PcapngSection section, long start, long end,
                                      int maxRecordLength) {
        PcapngReader r = new PcapngReader(name, new StreamInput(in, name, start), Compression.NONE,
                maxRecordLength, end, true);
        r.section = section.index();
        r.sectionOffset = section.offset();
        r.bigEndian = section.bigEndian();
        for (CaptureInfo.Interface i : section.interfaces()) {
            r.addInterface(i);
        }
        return r;
    }

    /** The current section's byte order and interfaces (a snapshot). */
    public PcapngSection currentSection() {
        List<CaptureInfo.Interface> list = new ArrayList<>(interfaceCount);
        for (int i = 0; i < interfaceCount; i++) {
            list.add(interfaces[i]);
        }
        return new PcapngSection(section, sectionOffset, bigEndian, list);
    }

    private void readFirstSectionHeader() throws IOException, CaptureException {
        int got = in.ensure(12);
        if (got < 12) {
            throw damage(0, "file ends after " + got + " bytes, inside the first section header block");
        }
        long length = sectionHeaderLength(0);
        int need = (int) length;
        int full = in.ensure(need);
        if (full < need) {
            throw damage(0, "file ends " + full + " bytes into the " + need + "-byte first section header block");
        }
        checkTrailer(0, need, "SHB");
        parseSectionHeader(0, need);
        in.consume(need);
    }

    /** With at least 12 bytes of an SHB available: sets the byte order and returns the checked block length. */
    private long sectionHeaderLength(long offset) throws CaptureException {
        byte[] b = in.array();
        int o = in.offset();
        int bom = Endian.i32(b, o + 8, true);
        boolean be;
        if (bom == BYTE_ORDER_MAGIC) {
            be = true;
        } else if (Integer.reverseBytes(bom) == BYTE_ORDER_MAGIC) {
            be = false;
        } else {
            throw damage(offset + 8, String.format("section header byte-order magic 0x%08x is neither 1a2b3c4d nor "
                    + "4d3c2b1a", bom));
        }
        long length = Endian.u32(b, o + 4, be);
        checkLength(offset, length, 28, "SHB");
        bigEndian = be;
        return length;
    }

    private void checkLength(long offset, long length, int min, String kind) throws CaptureException {
        if ((length & 3) != 0) {
            throw damage(offset, kind + " block length " + length + " is not a multiple of 4");
        }
        if (length < min) {
            throw damage(offset, kind + " block length " + length + " is below the minimum of " + min);
        }
        if (length > maxBlockLength) {
            throw damage(offset, kind + " block length " + length + " exceeds the bound of " + maxBlockLength);
        }
    }

    private void checkTrailer(long offset, int length, String kind) throws CaptureException {
        long trailer = Endian.u32(in.array(), in.offset() + length - 4, bigEndian);
        if (trailer != length) {
            throw damage(offset, kind + " block trailing length " + trailer + " differs from its leading length "
                    + length);
        }
    }

    private void parseSectionHeader(long offset, int length) throws CaptureException {
        byte[] b = in.array();
        int o = in.offset();
        int major = Endian.u16(b, o + 12, bigEndian);
        int minor = Endian.u16(b, o + 14, bigEndian);
        if (major != 1 || (minor != 0 && minor != 2)) {
            throw damage(offset + 12, "pcapng version " + major + "." + minor + " unsupported (only 1.0 and 1.2)");
        }
        long sectionLength = Endian.i64(b, o + 16, bigEndian);
        optString2 = null;
        optString3 = null;
        optString4 = null;
        parseOptions(offset, o, 24, length, OPTS_SHB);
        section++;
        sectionOffset = offset;
        interfaceCount = 0;
        blockCounts[K_SHB]++;
        if (sections.size() < CaptureInfo.MAX_KEPT) {
            sections.add(new CaptureInfo.Section(section, offset, bigEndian, major, minor, sectionLength,
                    optString2, optString3, optString4));
        }
    }

    @Override
    boolean readRecord() throws IOException, CaptureException {
        while (true) {
            long offset = in.position();
            if (offset >= end) {
                return false;
            }
            int got = in.ensure(8);
            if (got < 8) {
                return got == 0 ? false : endInside(offset, got, "file ends " + got + " bytes into a block header");
            }
            byte[] b = in.array();
            int o = in.offset();
            int type = Endian.i32(b, o, bigEndian);
            long length;
            if (type == SHB) {
                if (resumed) {
                    throw splitUnsafe(offset, "a new section starts here");
                }
                got = in.ensure(12);
                if (got < 12) {
                    return endInside(offset, got, "file ends " + got + " bytes into a section header block");
                }
                length = sectionHeaderLength(offset);
            } else {
                length = Endian.u32(b, o + 4, bigEndian);
                checkLength(offset, length, minimumLength(type), kindName(type));
            }
            int n = (int) length;
            got = in.ensure(n);
            if (got < n) {
                return endInside(offset, got, "file ends " + got + " bytes into a " + n + "-byte "
                        + kindName(type) + " block");
            }
            checkTrailer(offset, n, kindName(type));
            if (handleBlock(type, offset, n)) {
                in.consume(n);
                return true;
            }
            in.consume(n);
        }
    }

    /** Interprets one whole, checked block; returns true if it set the current record. */
    private boolean handleBlock(int type, long offset, int length) throws CaptureException {
        switch (type) {
            case EPB:
                blockCounts[K_EPB]++;
                return packetBlock(offset, length, false);
            case PB:
                blockCounts[K_PB]++;
                return packetBlock(offset, length, true);
            case SPB:
                blockCounts[K_SPB]++;
                return simplePacketBlock(offset, length);
            case SHB:
                parseSectionHeader(offset, length);
                return false;
            case IDB:
                if (resumed) {
                    throw splitUnsafe(offset, "an interface description block follows packet blocks");
                }
                interfaceDescription(offset, length);
                return false;
            case ISB:
                blockCounts[K_ISB]++;
                parseOptions(offset, in.offset(), 20, length, OPTS_COMMENTS);
                return false;
            case CB_COPY:
            case CB_NOCOPY:
            case JOURNAL:
                blockCounts[kind(type)]++;
                nonPacketRecords++;
                frameNumber++;
                return false;
            default:
                blockCounts[kind(type)]++;
                return false;
        }
    }

    private boolean packetBlock(long offset, int length, boolean obsolete) throws CaptureException {
        byte[] b = in.array();
        int o = in.offset();
        long id = obsolete ? Endian.u16(b, o + 8, bigEndian) : Endian.u32(b, o + 8, bigEndian);
        if (id >= interfaceCount) {
            throw damage(offset, (obsolete ? "PB" : "EPB") + " refers to interface " + id + " but section " + section
                    + " has declared " + interfaceCount);
        }
        long units = Endian.u64Halves(b, o + 12, bigEndian);
        long captured = Endian.u32(b, o + 20, bigEndian);
        long room = length - 32L;
        if (captured > room) {
            throw damage(offset, (obsolete ? "PB" : "EPB") + " captured length " + captured
                    + " exceeds the block's room of " + room);
        }
        int iface = (int) id;
        int n = (int) captured;
        parseOptions(offset, o, 28 + pad4(n), length, OPTS_COMMENTS);
        timestampNanos = saturatingAdd(interfaces[iface].resolution().toNanos(units), interfaceOffsetNanos[iface]);
        setRecord(offset, iface, n, Endian.u32(b, o + 24, bigEndian), o + 28);
        return true;
    }

    private boolean simplePacketBlock(long offset, int length) throws CaptureException {
        if (interfaceCount == 0) {
            throw damage(offset, "SPB but section " + section + " has declared no interface");
        }
        byte[] b = in.array();
        int o = in.offset();
        long original = Endian.u32(b, o + 8, bigEndian);
        long captured = Math.min(original, length - 16L);
        long snap = interfaces[0].snapLength();
        if (snap != 0) {
            captured = Math.min(captured, snap);
        }
        timestampNanos = NO_TIMESTAMP;
        setRecord(offset, 0, (int) captured, original, o + 12);
        return true;
    }

    private void setRecord(long offset, int iface, int captured, long original, int at) {
        data = in.array();
        dataOffset = at;
        capturedLength = captured;
        originalLength = original;
        interfaceId = iface;
        sectionNumber = section;
        linkType = interfaces[iface].linkType();
        recordOffset = offset;
        frameNumber++;
    }

    private void interfaceDescription(long offset, int length) throws CaptureException {
        if (interfaceCount >= MAX_INTERFACES) {
            throw damage(offset, "section " + section + " declares more than " + MAX_INTERFACES + " interfaces");
        }
        byte[] b = in.array();
        int o = in.offset();
        int linkType = Endian.u16(b, o + 8, bigEndian);
        long snap = Endian.u32(b, o + 12, bigEndian);
        optString2 = null;
        optString3 = null;
        optTsresol = 6;
        optTsoffset = 0;
        optFcslen = -1;
        parseOptions(offset, o, 16, length, OPTS_IDB);
        TimestampResolution res = TimestampResolution.fromTsresol(optTsresol);
        if (res == null) {
            throw damage(offset, String.format("IDB if_tsresol 0x%02x is finer than a 64-bit timestamp can count",
                    optTsresol));
        }
        CaptureInfo.Interface iface = new CaptureInfo.Interface(section, interfaceCount, offset, linkType, snap, res,
                optTsoffset, optString2, optString3, optFcslen);
        blockCounts[K_IDB]++;
        addInterface(iface);
        totalInterfaces++;
        if (allInterfaces.size() < CaptureInfo.MAX_KEPT) {
            allInterfaces.add(iface);
        }
    }

    private void addInterface(CaptureInfo.Interface iface) {
        if (interfaceCount == interfaces.length) {
            interfaces = java.util.Arrays.copyOf(interfaces, interfaceCount * 2);
            interfaceOffsetNanos = java.util.Arrays.copyOf(interfaceOffsetNanos, interfaceCount * 2);
        }
        long offsetNanos;
        long s = iface.timestampOffsetSeconds();
        if (s > Long.MAX_VALUE / 1_000_000_000L) {
            offsetNanos = Long.MAX_VALUE;
        } else if (s < Long.MIN_VALUE / 1_000_000_000L) {
            offsetNanos = Long.MIN_VALUE + 1;
        } else {
            offsetNanos = s * 1_000_000_000L;
        }
        interfaces[interfaceCount] = iface;
        interfaceOffsetNanos[interfaceCount] = offsetNanos;
        interfaceCount++;
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return a > 0 ? Long.MAX_VALUE : Long.MIN_VALUE + 1;
        }
        return r == NO_TIMESTAMP ? NO_TIMESTAMP + 1 : r;
    }

    private static int pad4(int n) {
        return (n + 3) & ~3;
    }

    /**
     * Walks the options between {@code from} (relative to the block start) and the trailing length, counting
     * comments and keeping the values {@code mode} asks for (packet blocks keep nothing, so nothing is allocated for
     * them beyond the first few comments).
     */
    private void parseOptions(long blockOffset, int o, int from, int length, int mode) throws CaptureException {
        byte[] b = in.array();
        int p = from;
        int limit = length - 4;
        while (p + 4 <= limit) {
            int code = Endian.u16(b, o + p, bigEndian);
            int len = Endian.u16(b, o + p + 2, bigEndian);
            if (code == OPT_ENDOFOPT) {
                return;
            }
            if (p + 4 + len > limit) {
                throw damage(blockOffset + p, "option " + code + " of length " + len + " overruns its block by "
                        + (p + 4 + len - limit) + " bytes");
            }
            int v = o + p + 4;
            if (code == OPT_COMMENT) {
                commentCount++;
                if (comments.size() < CaptureInfo.MAX_COMMENTS) {
                    comments.add(CaptureText.of(b, v, len));
                }
            } else if (mode != OPTS_COMMENTS) {
                keepOption(mode, code, b, v, len);
            }
            p += 4 + pad4(len);
        }
    }

    /** SHB: 2 shb_hardware, 3 shb_os, 4 shb_userappl. IDB: 2 if_name, 3 if_description, 9 if_tsresol,
     * 13 if_fcslen, 14 if_tsoffset. */
    private void keepOption(int mode, int code, byte[] b, int v, int len) {
        if (code == 2) {
            optString2 = CaptureText.of(b, v, len);
        } else if (code == 3) {
            optString3 = CaptureText.of(b, v, len);
        } else if (mode == OPTS_SHB && code == 4) {
            optString4 = CaptureText.of(b, v, len);
        } else if (mode == OPTS_IDB && code == 9 && len >= 1) {
            optTsresol = b[v] & 0xff;
        } else if (mode == OPTS_IDB && code == 13 && len >= 1) {
            optFcslen = b[v] & 0xff;
        } else if (mode == OPTS_IDB && code == 14 && len >= 8) {
            optTsoffset = Endian.i64(b, v, bigEndian);
        }
    }

    @Override
    public CaptureFormat format() {
        return CaptureFormat.PCAPNG;
    }

    @Override
    public CaptureInfo info() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int k = 0; k < KIND_NAMES.length; k++) {
            if (blockCounts[k] != 0) {
                counts.put(KIND_NAMES[k], blockCounts[k]);
            }
        }
        return new CaptureInfo(CaptureFormat.PCAPNG, compression, sections, blockCounts[K_SHB], allInterfaces,
                totalInterfaces, null, commentCount, comments, counts, nonPacketRecords);
    }
}
