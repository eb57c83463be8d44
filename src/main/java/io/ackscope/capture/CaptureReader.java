package io.ackscope.capture;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Streams the packet records of one capture, one at a time, without holding the file in memory.
 *
 * <p>Usage:
 * <pre>{@code
 * try (CaptureReader r = CaptureReader.open(path)) {
 *     while (r.next()) {
 *         decoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
 *     }
 *     if (r.tailProblem() != null) { ... the file ended inside a record ... }
 * }
 * }</pre>
 *
 * <p><b>Buffer ownership.</b> The reader owns the array returned by {@link #data()}. The bytes
 * {@code data()[dataOffset() .. dataOffset() + capturedLength())} are valid only until the next call to
 * {@link #next()}; a caller that keeps any of them must copy them. The array itself may be replaced by a larger one
 * on any call to {@code next()}.
 *
 * <p><b>Errors.</b> Damage that makes the rest of the file unreadable (bad magic, impossible block length, a record
 * length beyond the configured bound) raises {@link CaptureException} with the byte offset of the damage; every
 * record before it has already been returned. A file that simply ends inside the last record is not an exception:
 * {@code next()} returns {@code false} and {@link #tailProblem()} says where and why.
 */
public abstract class CaptureReader implements Closeable {

    /** Largest captured length accepted for one record (libpcap's own bound for any link type is 256 KiB). */
    public static final int DEFAULT_MAX_RECORD_LENGTH = 16 * 1024 * 1024;

    /**
     * {@link #timestampNanos()} of a record that has no timestamp: a pcapng Simple Packet Block (tshark leaves
     * {@code frame.time_epoch} empty for it).
     */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    protected final String name;

    // Current record; set by subclasses in next().
    protected long frameNumber;
    protected long timestampNanos;
    protected int capturedLength;
    protected long originalLength;
    protected int linkType;
    protected int interfaceId;
    protected int sectionNumber;
    protected byte[] data = new byte[0];
    protected int dataOffset;
    protected long recordOffset;

    /** Set when the stream ended inside a record; null after a clean end. */
    protected CaptureProblem tailProblem;

    protected CaptureReader(String name) {
        this.name = name;
    }

    /** Opens a local file; see {@link #open(InputStream, String)}. */
    public static CaptureReader open(Path file) throws IOException, CaptureException {
        return Captures.open(file);
    }

    /**
     * Opens a capture from a stream, detecting gzip/zstd/bzip2 compression and then pcap/pcapng by magic bytes.
     * The reader takes ownership of {@code in} and closes it.
     *
     * @param name how the capture is named in errors (a path or URI)
     */
    public static CaptureReader open(InputStream in, String name) throws IOException, CaptureException {
        return Captures.open(in, name);
    }

    /** As {@link #open(InputStream, String)}, with a bound on one record's captured length other than the default. */
    public static CaptureReader open(InputStream in, String name, int maxRecordLength)
            throws IOException, CaptureException {
        return Captures.open(in, name, maxRecordLength);
    }

    /**
     * Advances to the next packet record.
     *
     * @return false at the end of the capture (clean, or inside a truncated final record: see {@link #tailProblem()})
     * @throws CaptureException the file is damaged at {@link CaptureException#offset()}
     */
    public abstract boolean next() throws IOException, CaptureException;

    /** Container format. */
    public abstract CaptureFormat format();

    /** The name given when opening (used in errors). */
    public final String name() {
        return name;
    }

    /**
     * 1-based number of the current record in file order (tshark's {@code frame.number}).
     *
     * <p>tshark also numbers pcapng blocks that carry no packet (custom blocks, systemd journal export blocks); the
     * reader skips them but counts them, so the numbers stay equal to tshark's and have a gap for each such block
     * ({@link CaptureInfo#nonPacketRecords()}). A reader opened at a split boundary
     * ({@link SplitLocator#openSplit}) cannot know how many records precede it: there the number is 1-based within
     * the split; see {@link SplitLocator} for how to compute file-wide numbers.
     */
    public final long frameNumber() {
        return frameNumber;
    }

    /**
     * Timestamp of the current record in nanoseconds since the Unix epoch (interface offsets applied), or
     * {@link #NO_TIMESTAMP} for a record without one (pcapng Simple Packet Block). Sub-second fields out of range in
     * classic pcap are not rejected: the value is computed arithmetically (seconds * 1e9 + fraction * unit).
     */
    public final long timestampNanos() {
        return timestampNanos;
    }

    /** False for a record that carries no timestamp (pcapng Simple Packet Block). */
    public final boolean hasTimestamp() {
        return timestampNanos != NO_TIMESTAMP;
    }

    /** Bytes of the current record present in the file ({@code frame.cap_len}). */
    public final int capturedLength() {
        return capturedLength;
    }

    /**
     * Length of the packet on the wire ({@code frame.len}); at least {@link #capturedLength()} when sane. Records with
     * a captured length above it are kept as they are (tshark does the same); callers may count them.
     */
    public final long originalLength() {
        return originalLength;
    }

    /** Link-layer header type of the current record (LINKTYPE_ value, without FCS bits). */
    public final int linkType() {
        return linkType;
    }

    /** Interface id of the current record: the pcapng IDB index within its section, 0 for classic pcap. */
    public final int interfaceId() {
        return interfaceId;
    }

    /**
     * 0-based pcapng section of the current record (0 for classic pcap). Interface ids are numbered per section, so
     * (section, interface id) identifies an interface within a file.
     */
    public final int sectionNumber() {
        return sectionNumber;
    }

    /** Array holding the current record's bytes; valid until the next call to {@link #next()}. */
    public final byte[] data() {
        return data;
    }

    /** Offset of the current record's first byte within {@link #data()}. */
    public final int dataOffset() {
        return dataOffset;
    }

    /** Byte offset of the current record's header (pcap record header or pcapng block) in the decompressed stream. */
    public final long recordOffset() {
        return recordOffset;
    }

    /** Why the stream ended inside a record, or null if it ended cleanly (or has not ended yet). */
    public final CaptureProblem tailProblem() {
        return tailProblem;
    }

    /** Bytes consumed from the decompressed stream so far. */
    public abstract long position();

    /** A file-level description (format, byte order, resolution, interfaces) as known so far. */
    public abstract CaptureInfo info();
}
