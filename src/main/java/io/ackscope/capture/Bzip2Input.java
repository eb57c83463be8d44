package io.ackscope.capture;

import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * bzip2, concatenated streams read as one, through commons-compress block by block. A bzip2 block (up to 900 kB
 * before compression) decodes only whole, so a file cut short yields the blocks before the cut. The decompressor is
 * read one byte at a time: its bulk read would drop the bytes it had already copied from the last whole block when
 * the next one turns out cut short. bzip2's own cost per byte dwarfs the call.
 */
final class Bzip2Input extends DecompressingInput {
    private final CountingSource source;
    private final BZip2CompressorInputStream decompressor;
    /** Damage found after some bytes of the last read; thrown by the next one. */
    private IOException pending;

    private Bzip2Input(CountingSource source, BZip2CompressorInputStream decompressor) {
        super(Compression.BZIP2);
        this.source = source;
        this.decompressor = decompressor;
    }

    /** Reads the stream header; damage in it is a {@link CompressedDataException} at compressed byte 0. */
    static Bzip2Input open(InputStream raw) throws IOException {
        CountingSource source = new CountingSource(new BufferedInputStream(raw, 64 * 1024));
        try {
            return new Bzip2Input(source, new BZip2CompressorInputStream(source, true));
        } catch (IOException | RuntimeException e) {
            if (source.failure == e) {
                throw (IOException) e;
            }
            throw new CompressedDataException("bzip2 data damaged near compressed byte " + source.count
                    + ": " + e.getMessage(), e);
        }
    }

    @Override
    long compressedPosition() {
        return source.count;
    }

    @Override
    int produce(byte[] b, int off, int len) throws IOException {
        if (pending != null) {
            throw pending;
        }
        int n = 0;
        try {
            while (n < len) {
                int c = decompressor.read();
                if (c < 0) {
                    break;
                }
                b[off + n++] = (byte) c;
            }
        } catch (IOException | RuntimeException e) {
            produced += n;
            IOException f = source.failure != null ? source.failure
                    : e instanceof EOFException || "unexpected end of stream".equalsIgnoreCase(e.getMessage())
                    ? cutShort() : damaged(String.valueOf(e.getMessage()), e);
            if (n == 0) {
                throw f;
            }
            pending = f;   // after the bytes of the blocks before it
            return n;
        }
        produced += n;
        return n == 0 ? -1 : n;
    }

    @Override
    public void close() throws IOException {
        decompressor.close();
    }

    /** Counts compressed bytes and remembers an I/O error of the underlying source. */
    private static final class CountingSource extends FilterInputStream {
        long count;
        IOException failure;

        CountingSource(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                int r = super.read();
                if (r >= 0) {
                    count++;
                }
                return r;
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int r = super.read(b, off, len);
                if (r > 0) {
                    count += r;
                }
                return r;
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
    }
}
