package io.ackscope.capture;

/**
 * The 24-byte file header of a classic pcap file, parsed and checked.
 *
 * <p>Layout (pcap-savefile(5), draft-ietf-opsawg-pcap): magic (4), version major (2), version minor (2),
 * reserved/thiszone (4), reserved/sigfigs (4), snap length (4), link-type field (4), all in the byte order the magic
 * reveals. The link-type field carries the LINKTYPE_ value in bits 0-15, reserved bits 16-25 (must be zero), the
 * FCS-present flag in bit 26, and the FCS length in 16-bit units in bits 28-31.
 *
 * <p>Immutable; also what a split reader needs to resume reading at a record boundary
 * ({@link PcapReader#resume}).
 */
public final class PcapFileHeader {
    /** Length of the file header. */
    public static final int LENGTH = 24;
    /** Microsecond-resolution magic, as read in the file's own byte order. */
    public static final int MAGIC_MICROS = 0xa1b2c3d4;
    /** Nanosecond-resolution magic. */
    public static final int MAGIC_NANOS = 0xa1b23c4d;
    /** "Modified" pcap (Alexey Kuznetzov's patch): 24-byte record headers, microsecond resolution. */
    public static final int MAGIC_MODIFIED = 0xa1b2cd34;
    /**
     * Largest captured length accepted regardless of a smaller snap length: libpcap's MAXIMUM_SNAPLEN (and
     * Wireshark's WTAP_MAX_PACKET_SIZE_STANDARD). Records above both this and the file's snap length are damage.
     */
    public static final int SANE_RECORD_LENGTH = 262_144;
    /** Bits 16-25 of the link-type field: reserved, must be zero. */
    public static final int LINKTYPE_RESERVED_MASK = 0x03FF_0000;
    /** Bit 26 of the link-type field: the FCS length in bits 28-31 is valid. */
    public static final int LINKTYPE_FCS_PRESENT = 0x0400_0000;

    private final int magic;
    private final boolean bigEndian;
    private final int versionMajor;
    private final int versionMinor;
    private final int thisZone;
    private final long sigFigs;
    private final long snapLength;
    private final int linkTypeField;

    private PcapFileHeader(int magic, boolean bigEndian, int versionMajor, int versionMinor, int thisZone,
                           long sigFigs, long snapLength, int linkTypeField) {
        this.magic = magic;
        this.bigEndian = bigEndian;
        this.versionMajor = versionMajor;
        this.versionMinor = versionMinor;
        this.thisZone = thisZone;
        this.sigFigs = sigFigs;
        this.snapLength = snapLength;
        this.linkTypeField = linkTypeField;
    }

    /** True if the first four bytes are a classic pcap magic in either byte order. */
    static boolean isMagic(byte[] b, int off) {
        int le = Endian.i32(b, off, false);
        int be = Endian.i32(b, off, true);
        return isMagic(le) || isMagic(be);
    }

    private static boolean isMagic(int m) {
        return m == MAGIC_MICROS || m == MAGIC_NANOS || m == MAGIC_MODIFIED;
    }

    /**
     * Parses and checks a file header.
     *
     * @param b   array holding the header at {@code off}
     * @param len bytes available (a file shorter than the header is damage)
     * @param name capture name for errors
     * @throws CaptureException bad magic, truncated header, unsupported version, reserved link-type bits set
     */
    public static PcapFileHeader parse(byte[] b, int off, int len, String name) throws CaptureException {
        if (len < 4) {
            throw new CaptureException(name, 0, "file ends after " + len + " bytes, inside the pcap magic number");
        }
        boolean bigEndian;
        int magic = Endian.i32(b, off, true);
        if (isMagic(magic)) {
            bigEndian = true;
        } else {
            magic = Endian.i32(b, off, false);
            if (!isMagic(magic)) {
                throw new CaptureException(name, 0, String.format("not a pcap magic number: 0x%08x", magic));
            }
            bigEndian = false;
        }
        if (len < LENGTH) {
            throw new CaptureException(name, 0,
                    "file ends after " + len + " bytes, inside the " + LENGTH + "-byte pcap file header");
        }
        int major = Endian.u16(b, off + 4, bigEndian);
        int minor = Endian.u16(b, off + 6, bigEndian);
        if (major != 2) {
            throw new CaptureException(name, 4, "pcap version " + major + "." + minor + " unsupported (only 2.x)");
        }
        int linkField = Endian.i32(b, off + 20, bigEndian);
        if ((linkField & LINKTYPE_RESERVED_MASK) != 0) {
            throw new CaptureException(name, 20, String.format(
                    "link-type field 0x%08x has reserved bits 16-25 set (0x%08x); tshark and libpcap reject it too",
                    linkField, linkField & LINKTYPE_RESERVED_MASK));
        }
        return new PcapFileHeader(magic, bigEndian, major, minor, Endian.i32(b, off + 8, bigEndian),
                Endian.u32(b, off + 12, bigEndian), Endian.u32(b, off + 16, bigEndian), linkField);
    }

    /** The magic number in the file's byte order ({@link #MAGIC_MICROS}, {@link #MAGIC_NANOS}, ...). */
    public int magic() {
        return magic;
    }

    public boolean bigEndian() {
        return bigEndian;
    }

    /** True for the nanosecond-resolution magic. */
    public boolean nanosecondResolution() {
        return magic == MAGIC_NANOS;
    }

    public TimestampResolution resolution() {
        return nanosecondResolution() ? TimestampResolution.NANOSECONDS : TimestampResolution.MICROSECONDS;
    }

    public int versionMajor() {
        return versionMajor;
    }

    public int versionMinor() {
        return versionMinor;
    }

    /** The historical time-zone field (always 0 in practice; readers, like libpcap, ignore it). */
    public int thisZone() {
        return thisZone;
    }

    public long sigFigs() {
        return sigFigs;
    }

    /** Snap length as stored (unsigned; may be 0 or nonsense in damaged files). */
    public long snapLength() {
        return snapLength;
    }

    /** The whole 32-bit link-type field, including FCS bits. */
    public int linkTypeField() {
        return linkTypeField;
    }

    /** LINKTYPE_ value (bits 0-15). */
    public int linkType() {
        return linkTypeField & 0xffff;
    }

    /** FCS bytes at the end of every packet if the file says (bit 26 set), else -1 (unknown). */
    public int fcsLength() {
        return (linkTypeField & LINKTYPE_FCS_PRESENT) != 0 ? 2 * (linkTypeField >>> 28) : -1;
    }

    /** 16 bytes, or 24 for the "modified" format. */
    public int recordHeaderLength() {
        return magic == MAGIC_MODIFIED ? 24 : 16;
    }

    /**
     * Whether libpcap swaps the record's captured and original lengths: always before version 2.3 (the fields were
     * in the other order), and in 2.3 only when the captured length exceeds the original one (some 2.3 writers kept
     * the old order).
     */
    boolean lengthsAlwaysSwapped() {
        return versionMinor < 3;
    }

    boolean lengthsMaybeSwapped() {
        return versionMinor == 3;
    }

    /**
     * Largest captured length a record may declare: the larger of the snap length and {@link #SANE_RECORD_LENGTH}
     * (tshark accepts records a little above the snap length), never above {@code maxRecordLength}.
     */
    public int recordLengthBound(int maxRecordLength) {
        return (int) Math.min(maxRecordLength, Math.max(snapLength, SANE_RECORD_LENGTH));
    }

    @Override
    public String toString() {
        return "pcap " + versionMajor + "." + versionMinor + (bigEndian ? " big-endian" : " little-endian")
                + (magic == MAGIC_MODIFIED ? " modified" : "") + " " + resolution() + " snaplen " + snapLength
                + " linktype " + linkType();
    }
}
