package io.ackscope.capture;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Zstandard, several frames read as one stream, through zstd's streaming decompressor: it goes on as long as input
 * comes, hands out every byte it decodes, and tells when a frame is complete, so the end of the input is clean only
 * between frames. Reads the source forwards only and never asks it for {@code available()} (zstd-jni's
 * {@code ZstdInputStream} does, and a pipe that reports 0 makes it stop early).
 */
final class ZstdInput extends DecompressingInput {
    private static final int BUFFER = 128 * 1024;

    private final InputStream source;
    private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    private final byte[] chunk = new byte[BUFFER];
    /** Compressed bytes not yet consumed, in read mode (position to limit). */
    private final ByteBuffer src = ByteBuffer.allocateDirect(BUFFER).limit(0);
    /** Decompressed bytes not yet handed out, in read mode. */
    private final ByteBuffer dst = ByteBuffer.allocateDirect(BUFFER).limit(0);
    /** Compressed bytes read from the source. */
    private long read;
    /** The last frame is complete and flushed: the input may end here. */
    private boolean betweenFrames = true;
    private boolean sourceEnded;
    private boolean ended;

    ZstdInput(InputStream source) {
        super(Compression.ZSTD);
        this.source = source;
    }

    @Override
    long compressedPosition() {
        return read - src.remaining();
    }

    @Override
    int produce(byte[] b, int off, int len) throws IOException {
        while (!dst.hasRemaining()) {
            if (ended) {
                return -1;
            }
            decompress();
        }
        int n = Math.min(len, dst.remaining());
        dst.get(b, off, n);
        produced += n;
        return n;
    }

    /** One step: decodes what the buffered input allows, or reads more input; sets {@link #ended} at the end. */
    private void decompress() throws IOException {
        if (src.hasRemaining() || !betweenFrames) {
            int before = src.position();
            dst.clear();
            try {
                betweenFrames = ctx.decompressDirectByteBufferStream(dst, src);
            } catch (ZstdException e) {
                dst.limit(0);
                throw damaged(e.getMessage(), e);
            }
            dst.flip();
            if (dst.hasRemaining() || src.position() != before) {
                return;
            }
        }
        if (sourceEnded) {
            ended = true;
            if (!betweenFrames || src.hasRemaining()) {
                throw cutShort();
            }
            return;
        }
        src.compact();
        if (!src.hasRemaining()) {
            throw damaged("the decoder takes no more input", null);
        }
        int r;
        do {
            r = source.read(chunk, 0, src.remaining());
        } while (r == 0);
        if (r > 0) {
            src.put(chunk, 0, r);
            read += r;
        } else {
            sourceEnded = true;
        }
        src.flip();
    }

    @Override
    void release() {
        ctx.close();
    }

    @Override
    public void close() throws IOException {
        release();
        source.close();
    }
}
