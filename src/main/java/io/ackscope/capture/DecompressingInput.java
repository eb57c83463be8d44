package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;

/**
 * A decompressor over a stream that never seeks, reports damage with both offsets, and loses nothing before it: every
 * byte that decompresses is delivered before the damage is reported (on the next read after them).
 *
 * <p>Subclasses return from {@code read} as soon as they have produced any bytes, and report a cut-short or corrupt
 * stream only from a call that has produced none, so no decompressed byte is held back by the exception.
 */
abstract class DecompressingInput extends InputStream {
    private final Compression compression;
    /** Decompressed bytes delivered so far. */
    long produced;
    private IOException failure;
    private final byte[] one = new byte[1];

    DecompressingInput(Compression compression) {
        this.compression = compression;
    }

    /** Compressed bytes consumed so far: where damage found now lies in the compressed file. */
    abstract long compressedPosition();

    /** Frees the decompressor's own state (native memory) without closing the source; idempotent. */
    void release() {
    }

    /** The compressed stream ends before its end marker (a file cut short). */
    final CompressedDataException cutShort() {
        return new CompressedDataException(compression.label() + " data cut short at compressed byte "
                + compressedPosition() + " (decompressed byte " + produced + ")", null);
    }

    /** The compressed data is not valid {@code why}. */
    final CompressedDataException damaged(String why, Throwable cause) {
        return new CompressedDataException(compression.label() + " data damaged near compressed byte "
                + compressedPosition() + " (decompressed byte " + produced + "): " + why, cause);
    }

    /**
     * Decompresses into {@code b}: returns as soon as some bytes are there, -1 at the clean end of the stream; throws
     * {@link CompressedDataException} (or the source's own {@link IOException}) only when it has produced nothing.
     *
     * @param len at least 1
     */
    abstract int produce(byte[] b, int off, int len) throws IOException;

    /** Reads; after a failure, every further read throws it again. */
    @Override
    public final int read(byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (len == 0) {
            return 0;
        }
        try {
            return produce(b, off, len);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public final int read() throws IOException {
        int r;
        do {
            r = read(one, 0, 1);
        } while (r == 0);
        return r < 0 ? -1 : one[0] & 0xff;
    }
}
