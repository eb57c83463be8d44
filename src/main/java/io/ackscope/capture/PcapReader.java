package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * Reads classic pcap files (pcap-savefile(5)): microsecond and nanosecond magics in both byte orders, and the
 * "modified" format with 24-byte record headers.
 *
 * <p>Per record: the captured length is checked against {@link PcapFileHeader#recordLengthBound(int)} before anything
 * is read or allocated (beyond it: {@link CaptureException} at the record's offset). A captured length above the
 * original length is kept as it is. Versions before 2.3 have the two length fields in the other order and are
 * swapped back, as libpcap does (in 2.3 only when the captured length exceeds the original one). A stream that ends
 * inside a record header or its data ends reading with {@link #tailProblem()} set.
 */
public final class PcapReader extends StreamCaptureReader {
    private final PcapFileHeader header;
    private final boolean bigEndian;
    private final int recordHeaderLength;
    private final int recordBound;
    private final long fractionToNanos;
    private final boolean alwaysSwapped;
    private final boolean maybeSwapped;

    private PcapReader(String name, StreamInput in, Compression compression, PcapFileHeader header,
                       int maxRecordLength, long end) {
        super(name, in, compression, maxRecordLength, end);
        this.header = header;
        this.bigEndian = header.bigEndian();
        this.recordHeaderLength = header.recordHeaderLength();
        this.recordBound = header.recordLengthBound(maxRecordLength);
        this.fractionToNanos = header.nanosecondResolution() ? 1 : 1000;
        this.alwaysSwapped = header.lengthsAlwaysSwapped();
        this.maybeSwapped = header.lengthsMaybeSwapped();
        this.linkType = header.linkType();
    }

    /** Reads the file header from {@code in} (positioned at offset 0) and returns a reader for the records. */
    static PcapReader open(StreamInput in, String name, Compression compression, int maxRecordLength)
            throws IOException, CaptureException {
        int got = in.ensure(PcapFileHeader.LENGTH);
        PcapFileHeader header = PcapFileHeader.parse(in.array(), in.offset(), got, name);
        in.consume(PcapFileHeader.LENGTH);
        return new PcapReader(name, in, compression, header, maxRecordLength, Long.MAX_VALUE);
    }

    /**
     * Reads records from a stream positioned at a known record boundary, for split reading.
     *
     * <p>The reader returns the records that start before {@code end} (reading past {@code end} to finish the last
     * one). {@link #frameNumber()} counts from 1 within this reader, because the number of earlier records is
     * unknown; {@link #recordOffset()} is absolute.
     *
     * @param in          stream positioned at byte {@code start} of the (uncompressed) file; the reader closes it
     * @param header      the file's header, parsed from its first 24 bytes
     * @param start       absolute offset of a record header
     * @param end         records starting at or after this offset are not returned
     */
    public static PcapReader resume(InputStream in, String name, PcapFileHeader header, long start, long end,
                                    int maxRecordLength) {
        return new PcapReader(name, new StreamInput(in, name, start), Compression.NONE, header, maxRecordLength, end);
    }

    /** The file header. */
    public PcapFileHeader header() {
        return header;
    }

    @Override
    boolean readRecord() throws IOException, CaptureException {
        long offset = in.position();
        int hl = recordHeaderLength;
        int got = in.ensure(hl);
        if (got < hl) {
            return got == 0 ? false : endInside(offset, got,
                    "file ends " + got + " bytes into a " + hl + "-byte record header");
        }
        byte[] b = in.array();
        int o = in.offset();
        long seconds = Endian.u32(b, o, bigEndian);
        long fraction = Endian.u32(b, o + 4, bigEndian);
        long included = Endian.u32(b, o + 8, bigEndian);
        long original = Endian.u32(b, o + 12, bigEndian);
        if (alwaysSwapped || (maybeSwapped && included > original)) {
            long t = included;
            included = original;
            original = t;
        }
        if (included > recordBound) {
            throw damage(offset, "record captured length " + included + " exceeds the bound of " + recordBound
                    + " (snap length " + header.snapLength() + ")");
        }
        int n = (int) included;
        // header + data as one unit, so damage found while reading the data is reported at the record's offset
        int got2 = in.ensure(hl + n);
        if (got2 < hl + n) {
            return endInside(offset, got2, "file ends " + (got2 - hl) + " bytes into the " + n
                    + "-byte data of the record whose header starts here");
        }
        data = in.array();
        dataOffset = in.offset() + hl;
        in.consume(hl + n);
        // seconds < 2^32 and fraction < 2^32: seconds * 1e9 + fraction * 1000 < 2^63, no overflow.
        timestampNanos = seconds * 1_000_000_000L + fraction * fractionToNanos;
        capturedLength = n;
        originalLength = original;
        recordOffset = offset;
        frameNumber++;
        return true;
    }

    @Override
    public CaptureFormat format() {
        return CaptureFormat.PCAP;
    }

    @Override
    public CaptureInfo info() {
        CaptureInfo.Section section = new CaptureInfo.Section(0, 0, header.bigEndian(), header.versionMajor(),
                header.versionMinor(), -1, null, null, null);
        CaptureInfo.Interface iface = new CaptureInfo.Interface(0, 0, 0, header.linkType(), header.snapLength(),
                header.resolution(), 0, null, null, header.fcsLength());
        return new CaptureInfo(CaptureFormat.PCAP, compression, List.of(section), 1, List.of(iface), 1, header, 0,
                List.of(), Map.of(), 0);
    }
}
