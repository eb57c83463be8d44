package io.ackscope.capture;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * The readers' buffered view of a (decompressed) capture stream, with an absolute byte position.
 *
 * <p>{@link #ensure(int)} makes the next {@code n} bytes available contiguously at {@link #array()}[{@link #offset()}]
 * without consuming them; {@link #consume(int)} then moves past them. A unit that fits in the read buffer is served
 * from it directly (no copy); a larger one is assembled in a second, reused array. Bytes returned stay valid until the
 * next call to {@code ensure}. Nothing is allocated per call once both arrays have grown to their working size.
 */
final class StreamInput implements Closeable {
    /** Size of the read buffer; records up to this size are handed out without copying. */
    static final int BUFFER_SIZE = 128 * 1024;

    private final InputStream in;
    private final String name;
    private final byte[] buf;
    private int pos;
    private int lim;
    /** Absolute stream offset of {@code buf[0]}. */
    private long bufStart;
    private boolean eof;

    private byte[] big = new byte[0];
    /** Bytes assembled in {@code big} and not yet consumed (they are already taken out of {@code buf}). */
    private int pendingBig;

    private byte[] viewArray;
    private int viewOffset;
    /** Absolute offset of the unit being assembled by {@link #ensure(int)}, for error messages. */
    private long unitStart;

    StreamInput(InputStream in, String name, long startOffset) {
        this(in, name, startOffset, BUFFER_SIZE);
    }

    StreamInput(InputStream in, String name, long startOffset, int bufferSize) {
        this.in = in;
        this.name = name;
        this.buf = new byte[bufferSize];
        this.bufStart = startOffset;
        this.viewArray = buf;
    }

    /** Absolute offset of the next unconsumed byte. */
    long position() {
        return bufStart + pos - pendingBig;
    }

    /** Array holding the bytes made available by the last {@link #ensure(int)}. */
    byte[] array() {
        return viewArray;
    }

    /** Offset in {@link #array()} of the first byte made available by the last {@link #ensure(int)}. */
    int offset() {
        return viewOffset;
    }

    /**
     * Makes the next {@code n} bytes available contiguously, without consuming them.
     *
     * @param n bytes wanted; the caller has already bounded it
     * @return {@code n}, or fewer if the stream ends first (0 at a clean end)
     * @throws CaptureException the decompressor found the compressed data damaged
     */
    int ensure(int n) throws IOException, CaptureException {
        if (pendingBig != 0) {
            throw new IllegalStateException("previous unit of " + pendingBig + " bytes was not consumed");
        }
        unitStart = bufStart + pos;
        int avail = lim - pos;
        if (avail >= n) {
            viewArray = buf;
            viewOffset = pos;
            return n;
        }
        if (n <= buf.length) {
            if (pos + n > buf.length) {
                compact();
            }
            while (lim - pos < n && !eof) {
                fill(buf, lim, buf.length - lim, true);
            }
            viewArray = buf;
            viewOffset = pos;
            return Math.min(n, lim - pos);
        }
        if (big.length < n) {
            big = new byte[n];
        }
        System.arraycopy(buf, pos, big, 0, avail);
        bufStart += lim;
        pos = 0;
        lim = 0;
        int got = avail;
        while (got < n && !eof) {
            int r = fill(big, got, n - got, false);
            got += r;
            bufStart += r;
        }
        pendingBig = got;
        viewArray = big;
        viewOffset = 0;
        return got;
    }

    /** Moves past {@code n} bytes made available by the last {@link #ensure(int)}. */
    void consume(int n) {
        if (pendingBig != 0) {
            if (n != pendingBig) {
                throw new IllegalStateException("must consume the whole assembled unit of " + pendingBig + " bytes");
            }
            pendingBig = 0;
            viewArray = buf;
            viewOffset = pos;
            return;
        }
        if (n > lim - pos) {
            throw new IllegalStateException("consume(" + n + ") beyond the " + (lim - pos) + " available bytes");
        }
        pos += n;
    }

    private void compact() {
        int avail = lim - pos;
        System.arraycopy(buf, pos, buf, 0, avail);
        bufStart += pos;
        pos = 0;
        lim = avail;
    }

    /** One read from the stream into {@code dst}; returns bytes read (0 at end of stream, setting {@link #eof}). */
    private int fill(byte[] dst, int off, int len, boolean intoBuffer) throws IOException, CaptureException {
        int r;
        try {
            r = in.read(dst, off, len);
        } catch (CompressedDataException e) {
            throw new CaptureException(name, unitStart, e.getMessage(), e);
        }
        if (r < 0) {
            eof = true;
            return 0;
        }
        if (intoBuffer) {
            lim += r;
        }
        return r;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
