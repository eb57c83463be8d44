package io.ackscope.tables;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.api.Binary;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link LeafChunk}'s dictionary of strings (by their UTF-8 bytes) or ints, in first-seen order: the entries its
 * PLAIN_DICTIONARY pages refer to, their indices in the RLE / bit-packing hybrid, and the page statistics worked out
 * from the distinct values of a page (as parquet-mr's dictionary writers do, a page at a time).
 */
final class ChunkDictionary {
    private final boolean binary;
    /** Strings by their own equality, byte arrays by content. */
    private final RefIds refIds = new RefIds();
    private final List<byte[]> strings = new ArrayList<>();
    private final IntIds ints = new IntIds();
    /** PLAIN size of all its entries. */
    private long bytes;
    /**
     * Entries the chunk's dictionary-encoded pages may refer to: the size after the last page that used it, or 0
     * when no page did (the first page that uses it has values, since a dictionary must be smaller than them).
     */
    int used;
    private int[] seen = new int[64];
    /** {@link #add}'s indices of the last page. */
    private int[] pageIds = new int[64];
    private int stamp;

    /** @param binary strings (BINARY) rather than INT32 */
    ChunkDictionary(boolean binary) {
        this.binary = binary;
    }

    /** PLAIN size of all its entries. */
    long bytes() {
        return bytes;
    }

    int size() {
        return binary ? strings.size() : ints.size;
    }

    /**
     * Indices of the page's {@code values} values ({@code refs}' strings or byte arrays, or {@code longs}' ints),
     * adding new ones to the dictionary; null when the dictionary would exceed
     * {@link LeafChunk#MAX_DICTIONARY_BYTES} (the earlier pages use only its first {@link #used} entries). A string
     * is looked up by itself and encoded as UTF-8 only when it is new. The array is reused: valid until the next
     * call.
     */
    int[] add(int values, Object[] refs, long[] longs) {
        if (pageIds.length < values) {
            pageIds = new int[Math.max(values, pageIds.length * 2)];
        }
        for (int i = 0; i < values; i++) {
            int id;
            if (binary) {
                Object v = refs[i];
                if (i > 0 && v == refs[i - 1]) {
                    // rows of one connection follow each other and share its uid and source: no lookup
                    pageIds[i] = pageIds[i - 1];
                    continue;
                }
                id = refIds.get(v);
                if (id < 0) {
                    id = strings.size();
                    refIds.put(v, id);
                    entry(v instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) v);
                }
            } else {
                int before = ints.size;
                id = ints.id((int) longs[i]);
                if (ints.size > before) {
                    bytes += 4;
                }
            }
            if (bytes > LeafChunk.MAX_DICTIONARY_BYTES) {
                return null;
            }
            pageIds[i] = id;
        }
        return pageIds;
    }

    private void entry(byte[] utf8) {
        strings.add(utf8);
        bytes += 4 + utf8.length;
    }

    /** parquet-mr's test: indices plus dictionary smaller than the plain values of the first page. */
    boolean smallerThan(int n, long plainStringBytes) {
        long plain = binary ? plainStringBytes : 4L * n;
        return ((long) n * bitWidth() + 7) / 8 + bytes < plain;
    }

    private int bitWidth() {
        return 32 - Integer.numberOfLeadingZeros(Math.max(size() - 1, 0));
    }

    /** The PLAIN dictionary page of the first {@code n} entries. */
    byte[] page(int n) {
        if (binary) {
            int len = 0;
            for (int i = 0; i < n; i++) {
                len += 4 + strings.get(i).length;
            }
            ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n; i++) {
                b.putInt(strings.get(i).length).put(strings.get(i));
            }
            return b.array();
        }
        ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            b.putInt(ints.values[i]);
        }
        return b.array();
    }

    /** The page's indices: bit width, then the hybrid; adds the page's values to {@code stats}. */
    byte[] indices(int[] ids, int n, Statistics<?> stats) throws IOException {
        if (n > 0) {
            // min and max over the page's distinct values
            if (seen.length < size()) {
                seen = Arrays.copyOf(seen, Math.max(size(), seen.length * 2));
            }
            stamp++;
            int min = -1, max = -1;
            for (int i = 0; i < n; i++) {
                int k = ids[i];
                if (seen[k] != stamp) {
                    seen[k] = stamp;
                    if (min < 0 || less(k, min)) {
                        min = k;
                    }
                    if (max < 0 || less(max, k)) {
                        max = k;
                    }
                }
            }
            if (binary) {
                stats.updateStats(Binary.fromConstantByteArray(strings.get(min)));
                stats.updateStats(Binary.fromConstantByteArray(strings.get(max)));
            } else {
                stats.updateStats(ints.values[min]);
                stats.updateStats(ints.values[max]);
            }
        }
        int bitWidth = bitWidth();
        byte[] rle = n >= LeafChunk.MIN_RUN && same(ids, n) ? LeafChunk.run(ids[0], n, bitWidth)
                : hybrid(ids, n, bitWidth);
        byte[] out = new byte[1 + rle.length];
        out[0] = (byte) bitWidth;
        System.arraycopy(rle, 0, out, 1, rle.length);
        return out;
    }

    private static byte[] hybrid(int[] ids, int n, int bitWidth) throws IOException {
        try (RunLengthBitPackingHybridEncoder e = LeafChunk.encoder(bitWidth)) {
            for (int i = 0; i < n; i++) {
                e.writeInt(ids[i]);
            }
            return e.toBytes().toByteArray();
        }
    }

    private static boolean same(int[] ids, int n) {
        int first = ids[0];
        for (int i = 1; i < n; i++) {
            if (ids[i] != first) {
                return false;
            }
        }
        return true;
    }

    private boolean less(int a, int b) {
        if (binary) {
            return Arrays.compareUnsigned(strings.get(a), strings.get(b)) < 0;
        }
        return ints.values[a] < ints.values[b];
    }
}
