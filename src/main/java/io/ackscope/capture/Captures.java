package io.ackscope.capture;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens captures: detects gzip, zstd or bzip2 compression from the first bytes and decompresses on the fly, then
 * detects pcap or pcapng from the magic number. Never looks at the file name.
 *
 * <p>Damage found by a decompressor (corrupt or cut-short compressed data) is reported as {@link CaptureException} at
 * the decompressed offset of the record being read, after every record that decompressed whole; its reason names
 * the compressed byte offset and how far decompression got. I/O errors of the underlying source stay
 * {@link IOException}. The source is read forwards only, never sought nor asked for {@code available()}, so pipes,
 * FIFOs and standard input read as files do ({@link GzipInput}, {@link ZstdInput}, {@link Bzip2Input}).
 */
public final class Captures {
    private Captures() {
    }

    /** Opens a local file with the default record bound. */
    public static CaptureReader open(Path file) throws IOException, CaptureException {
        InputStream in = Files.newInputStream(file);
        try {
            return open(in, file.toString(), CaptureReader.DEFAULT_MAX_RECORD_LENGTH);
        } catch (IOException | CaptureException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Opens a stream with the default record bound; see {@link #open(InputStream, String, int)}. */
    public static CaptureReader open(InputStream in, String name) throws IOException, CaptureException {
        return open(in, name, CaptureReader.DEFAULT_MAX_RECORD_LENGTH);
    }

    /**
     * Opens a capture from a stream. The reader takes ownership of {@code raw} and closes it; on an exception the
     * caller still owns it.
     *
     * @param name            how the capture is named in errors
     * @param maxRecordLength largest captured length accepted for one record (a bound against hostile lengths)
     */
    public static CaptureReader open(InputStream raw, String name, int maxRecordLength)
            throws IOException, CaptureException {
        Sniffed s = sniff(raw, name, maxRecordLength);
        if (s.reader() == null) {
            throw new CaptureException(name, 0, s.notCapture());
        }
        return s.reader();
    }

    /**
     * What a stream holds: a capture's reader, or, when it is not a capture at all (its magic is neither pcap nor
     * pcapng, directly or inside gzip, zstd or bzip2), why not.
     *
     * @param reader     the reader (it owns the stream), or null
     * @param notCapture why the stream is not a capture ("looks like text", ...), or null
     */
    public record Sniffed(CaptureReader reader, String notCapture) {
    }

    /**
     * As {@link #open(InputStream, String, int)}, but a stream that is not a capture is a value, not damage: a
     * directory listing skips such files and lists them ({@link Archive}). Damage after a capture magic (a cut
     * compressed stream, a bad header) is still thrown. On a {@code notCapture} result the caller still owns
     * {@code raw}.
     */
    public static Sniffed sniff(InputStream raw, String name, int maxRecordLength)
            throws IOException, CaptureException {
        byte[] head = raw.readNBytes(4);
        Compression compression = Compression.detect(head, head.length);
        InputStream joined = new SequenceInputStream(new ByteArrayInputStream(head), raw);
        InputStream plain = compression == Compression.NONE ? joined : decompress(compression, joined, name);
        try {
            StreamInput in = new StreamInput(plain, name, 0);
            int got = in.ensure(4);
            byte[] b = in.array();
            int o = in.offset();
            if (got >= 4 && PcapngReader.isMagic(b, o)) {
                return new Sniffed(PcapngReader.open(in, name, compression, maxRecordLength), null);
            }
            if (got >= 4 && PcapFileHeader.isMagic(b, o)) {
                return new Sniffed(PcapReader.open(in, name, compression, maxRecordLength), null);
            }
            release(plain);
            return new Sniffed(null, unknownMagic(b, o, got, compression));
        } catch (IOException | CaptureException | RuntimeException e) {
            release(plain);
            throw e;
        }
    }

    /**
     * What a file starting with {@code head} holds, as a label, when it is a capture or a compressed stream
     * ("pcap", "pcapng", "gzip", ...): a command that writes text or a page must never replace such a file.
     * Null for anything else (also for fewer than 4 bytes).
     */
    public static String captureKind(byte[] head, int len) {
        if (len < 4) {
            return null;
        }
        if (PcapngReader.isMagic(head, 0)) {
            return CaptureFormat.PCAPNG.label();
        }
        if (PcapFileHeader.isMagic(head, 0)) {
            return CaptureFormat.PCAP.label();
        }
        Compression c = Compression.detect(head, len);
        return c == Compression.NONE ? null : c.label();
    }

    /** Frees a decompressor's native state (zstd's context) when no reader took the stream; the caller closes raw. */
    private static void release(InputStream plain) {
        if (plain instanceof DecompressingInput d) {
            d.release();
        }
    }

    private static String unknownMagic(byte[] b, int o, int got, Compression compression) {
        String inside = compression == Compression.NONE ? "" : " inside the " + compression.label() + " stream";
        if (got == 0) {
            return compression == Compression.NONE ? "empty file" : "empty " + compression.label() + " stream";
        }
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < got; i++) {
            hex.append(String.format("%02x", b[o + i] & 0xff));
        }
        if (got < 4) {
            return "only " + got + " bytes (" + hex + ")" + inside + ": too short for a capture";
        }
        return "unknown magic " + hex + inside + " (" + guess(b, o) + "); expected pcap (a1b2c3d4, a1b23c4d), "
                + "pcapng (0a0d0d0a), gzip, zstd or bzip2";
    }

    /** Names a few formats people mistake for captures. */
    private static String guess(byte[] b, int o) {
        int b0 = b[o] & 0xff;
        int b1 = b[o + 1] & 0xff;
        int b2 = b[o + 2] & 0xff;
        int b3 = b[o + 3] & 0xff;
        if (b0 == 0xfd && b1 == '7' && b2 == 'z' && b3 == 'X') {
            return "xz, not supported";
        }
        if (b0 == 0x04 && b1 == 0x22 && b2 == 0x4d && b3 == 0x18) {
            return "lz4, not supported";
        }
        if (b0 == 'P' && b1 == 'K') {
            return "zip archive, not supported";
        }
        if (b0 == 0x1f && b1 == 0x9d) {
            return "compress (.Z), not supported";
        }
        if (b0 == 'B' && b1 == 'Z') {
            return "bzip2 header with a bad block size";
        }
        boolean text = true;
        for (int i = 0; i < 4; i++) {
            int c = b[o + i] & 0xff;
            text &= c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7f);
        }
        return text ? "looks like text" : "not a known format";
    }

    private static InputStream decompress(Compression compression, InputStream joined, String name)
            throws IOException, CaptureException {
        switch (compression) {
            case GZIP:
                return new GzipInput(joined);
            case ZSTD:
                return new ZstdInput(joined);
            case BZIP2:
                try {
                    return Bzip2Input.open(joined);
                } catch (CompressedDataException e) {
                    throw new CaptureException(name, 0, e.getMessage(), e);
                }
            default:
                throw new IllegalArgumentException(compression.name());
        }
    }
}
