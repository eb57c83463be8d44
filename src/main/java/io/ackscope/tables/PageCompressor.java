package io.ackscope.tables;

import java.io.IOException;
import java.util.Arrays;

/**
 * Parquet's SNAPPY: one raw Snappy block per page (no framing), as parquet-mr's codec writes it, with one reused
 * output buffer (parquet-mr's codec stream allocates its buffers for every page).
 */
final class PageCompressor {
    private byte[] out = new byte[64 * 1024];

    byte[] compress(byte[] raw) throws IOException {
        int max = org.xerial.snappy.Snappy.maxCompressedLength(raw.length);
        if (out.length < max) {
            out = new byte[max];
        }
        int n = org.xerial.snappy.Snappy.compress(raw, 0, raw.length, out, 0);
        return Arrays.copyOf(out, n);
    }
}
