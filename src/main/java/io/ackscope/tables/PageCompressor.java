package io.ackscope.tables;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Parquet's SNAPPY: one raw Snappy block per page (no framing), as parquet-mr's codec writes it, with one reused
 * output buffer (parquet-mr's codec stream allocates its buffers for every page), and one reused buffer in which a
 * page's raw bytes are put together before they are compressed ({@link #page}).
 */
final class PageCompressor {
    private byte[] out = new byte[64 * 1024];
    private ByteBuffer page = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);

    byte[] compress(byte[] raw) throws IOException {
        return compress(raw, raw.length);
    }

    /** The Snappy block of {@code raw[0, len)}. */
    byte[] compress(byte[] raw, int len) throws IOException {
        int max = org.xerial.snappy.Snappy.maxCompressedLength(len);
        if (out.length < max) {
            out = new byte[max];
        }
        int n = org.xerial.snappy.Snappy.compress(raw, 0, len, out, 0);
        return Arrays.copyOf(out, n);
    }

    /**
     * The raw page buffer, emptied, little-endian, with room for at least {@code bytes} bytes: valid until the next
     * call; {@link #compressPage} compresses what was put in it.
     */
    ByteBuffer page(int bytes) {
        if (page.capacity() < bytes) {
            page = ByteBuffer.allocate(Math.max(bytes, page.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
        }
        page.clear();
        return page;
    }

    /** The Snappy block of what was put in the {@link #page} buffer since it was taken. */
    byte[] compressPage() throws IOException {
        return compress(page.array(), page.position());
    }
}
