package io.ackscope.tables;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * Decodes a flat (non-repeated) INT32, INT64 or string column chunk straight from its pages, for {@link TableReader}:
 * parquet-mr's column readers hand out one value per call through several layers (level and value readers, a
 * dictionary lookup, a converter), which was most of the report's CPU. Pages come decompressed from parquet-mr's
 * page reader; this reads their definition levels (RLE/bit-packed hybrid, or the old BIT_PACKED) and values (PLAIN,
 * or dictionary indices into the chunk's PLAIN dictionary page), in data pages of either version. A chunk with any
 * other encoding ({@link #decodes} says no) is left to parquet-mr.
 */
final class PageColumns {
    private PageColumns() {
    }

    private static final Set<Encoding> READ = Set.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY,
            Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

    /** True when {@code d}'s chunk {@code meta} can be decoded here. */
    static boolean decodes(ColumnDescriptor d, ColumnChunkMetaData meta) {
        PrimitiveTypeName t = d.getPrimitiveType().getPrimitiveTypeName();
        return d.getMaxRepetitionLevel() == 0 && d.getMaxDefinitionLevel() <= 1
                && (t == PrimitiveTypeName.INT64 || t == PrimitiveTypeName.INT32 || t == PrimitiveTypeName.BINARY)
                && READ.containsAll(meta.getEncodings());
    }

    /** An INT32 or INT64 chunk of {@code rows} rows. */
    static TableReader.LongColumn longs(PageReader pages, ColumnDescriptor d, int rows) throws IOException {
        boolean int64 = d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT64;
        DictionaryPage dp = pages.readDictionaryPage();
        long[] dict = dp == null ? null : new long[dp.getDictionarySize()];
        if (dp != null) {
            ByteBuffer b = dp.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < dict.length; i++) {
                dict[i] = int64 ? b.getLong() : b.getInt();
            }
        }
        TableReader.LongColumn out = new TableReader.LongColumn(rows);
        new Chunk(dict == null ? -1 : dict.length) {
            @Override
            void plain(ByteBuffer data, int row) {
                out.values[row] = int64 ? data.getLong() : data.getInt();
            }

            @Override
            void indexed(int index, int row) {
                out.values[row] = dict[index];
            }
        }.read(pages, d, rows, out.present);
        return out;
    }

    /** A string chunk of {@code rows} rows (null where undefined); strings are interned through {@code strings}. */
    static String[] strings(PageReader pages, ColumnDescriptor d, int rows, Map<String, String> strings)
            throws IOException {
        DictionaryPage dp = pages.readDictionaryPage();
        String[] dict = dp == null ? null : new String[dp.getDictionarySize()];
        if (dp != null) {
            ByteBuffer b = dp.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < dict.length; i++) {
                dict[i] = utf8(b, strings, d);
            }
        }
        String[] out = new String[rows];
        new Chunk(dict == null ? -1 : dict.length) {
            @Override
            void plain(ByteBuffer data, int row) throws IOException {
                out[row] = utf8(data, strings, d);
            }

            @Override
            void indexed(int index, int row) {
                out[row] = dict[index];
            }
        }.read(pages, d, rows, new boolean[rows]);
        return out;
    }

    /** Walks a chunk's data pages and hands each present value to {@link #plain} or {@link #indexed}. */
    private abstract static class Chunk {
        private final int dictionarySize;   // -1 without a dictionary page

        Chunk(int dictionarySize) {
            this.dictionarySize = dictionarySize;
        }

        /** The value of {@code row}, next in {@code data} (PLAIN). */
        abstract void plain(ByteBuffer data, int row) throws IOException;

        /** The value of {@code row} is dictionary entry {@code index} (checked to be one). */
        abstract void indexed(int index, int row);

        void read(PageReader pages, ColumnDescriptor d, int rows, boolean[] present) throws IOException {
            int row = 0;
            int[] idx = new int[0];
            DataPage p;
            while ((p = pages.readPage()) != null) {
                Page page = Page.of(p, d);
                int n = page.values;
                if (n < 0 || row + n > rows) {
                    throw new IOException(d + ": pages hold more values than the row group's " + rows + " rows");
                }
                int count = page.levels(present, row);
                if (page.dictionary) {
                    if (dictionarySize < 0) {
                        throw new IOException(d + ": dictionary-encoded page without a dictionary");
                    }
                    idx = grow(idx, count);
                    page.indices(idx, count);
                    for (int i = row, k = 0; i < row + n; i++) {
                        if (present[i]) {
                            int j = idx[k++];
                            if (j < 0 || j >= dictionarySize) {
                                throw new IOException(d + ": dictionary index " + j + " of " + dictionarySize);
                            }
                            indexed(j, i);
                        }
                    }
                } else {
                    for (int i = row; i < row + n; i++) {
                        if (present[i]) {
                            plain(page.data, i);
                        }
                    }
                }
                row += n;
            }
            if (row != rows) {
                throw new IOException(d + ": " + row + " values for " + rows + " rows");
            }
        }
    }

    private static int[] grow(int[] a, int n) {
        return a.length >= n ? a : new int[Math.max(n, a.length * 2)];
    }

    private static String utf8(ByteBuffer b, Map<String, String> strings, ColumnDescriptor d) throws IOException {
        int len = b.getInt();
        if (len < 0 || len > b.remaining()) {
            throw new IOException(d + ": string of " + len + " bytes with " + b.remaining() + " left in the page");
        }
        String s;
        if (b.hasArray()) {
            s = new String(b.array(), b.arrayOffset() + b.position(), len, StandardCharsets.UTF_8);
            b.position(b.position() + len);
        } else {
            byte[] tmp = new byte[len];
            b.get(tmp);
            s = new String(tmp, StandardCharsets.UTF_8);
        }
        if (len <= 64) {
            String known = strings.putIfAbsent(s, s);
            return known != null ? known : s;
        }
        return s;
    }

    /** One data page: its value count, where its definition levels and values are, how the values are encoded. */
    private static final class Page {
        final int values;
        final boolean dictionary;
        final ByteBuffer data;
        private final ByteBuffer levels;     // null when the column is required
        private final boolean bitPackedLevels;

        private Page(int values, boolean dictionary, ByteBuffer data, ByteBuffer levels, boolean bitPackedLevels) {
            this.values = values;
            this.dictionary = dictionary;
            this.data = data;
            this.levels = levels;
            this.bitPackedLevels = bitPackedLevels;
        }

        static Page of(DataPage p, ColumnDescriptor d) throws IOException {
            boolean optional = d.getMaxDefinitionLevel() > 0;
            if (p instanceof DataPageV1 v1) {
                ByteBuffer all = v1.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer levels = null;
                boolean bitPacked = false;
                if (optional) {
                    if (v1.getDlEncoding() == Encoding.RLE) {
                        int len = all.getInt();
                        if (len < 0 || len > all.remaining()) {
                            throw new IOException(d + ": definition levels of " + len + " bytes");
                        }
                        levels = slice(all, len);
                    } else if (v1.getDlEncoding() == Encoding.BIT_PACKED) {
                        levels = slice(all, (v1.getValueCount() + 7) / 8);
                        bitPacked = true;
                    } else {
                        throw new IOException(d + ": definition levels in " + v1.getDlEncoding());
                    }
                }
                return new Page(v1.getValueCount(), dictionary(v1.getValueEncoding(), d), all.slice()
                        .order(ByteOrder.LITTLE_ENDIAN), levels, bitPacked);
            }
            if (p instanceof DataPageV2 v2) {
                ByteBuffer levels = optional
                        ? v2.getDefinitionLevels().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN) : null;
                return new Page(v2.getValueCount(), dictionary(v2.getDataEncoding(), d),
                        v2.getData().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN), levels, false);
            }
            throw new IOException(d + ": page of a kind the report does not read: " + p);
        }

        private static ByteBuffer slice(ByteBuffer b, int len) {
            ByteBuffer s = b.slice().order(ByteOrder.LITTLE_ENDIAN);
            s.limit(len);
            b.position(b.position() + len);
            return s;
        }

        private static boolean dictionary(Encoding e, ColumnDescriptor d) throws IOException {
            if (e == Encoding.PLAIN_DICTIONARY || e == Encoding.RLE_DICTIONARY) {
                return true;
            }
            if (e == Encoding.PLAIN) {
                return false;
            }
            throw new IOException(d + ": values in " + e);
        }

        /** Sets {@code present[from ..]} for this page's values; returns how many are present. */
        int levels(boolean[] present, int from) throws IOException {
            if (levels == null) {
                java.util.Arrays.fill(present, from, from + values, true);
                return values;
            }
            int n = 0;
            if (bitPackedLevels) {
                // the old BIT_PACKED encoding: one bit per level (max level 1), most significant bit first
                for (int i = 0; i < values; i++) {
                    boolean p = (levels.get(levels.position() + (i >>> 3)) >>> (7 - (i & 7)) & 1) != 0;
                    present[from + i] = p;
                    n += p ? 1 : 0;
                }
                return n;
            }
            Hybrid h = new Hybrid(levels, 1);
            for (int i = 0; i < values; i++) {
                boolean p = h.next() == 1;
                present[from + i] = p;
                n += p ? 1 : 0;
            }
            return n;
        }

        /** Reads {@code n} dictionary indices (a bit-width byte, then the RLE/bit-packed hybrid) into {@code out}. */
        void indices(int[] out, int n) throws IOException {
            if (n == 0) {
                return;
            }
            int width = data.get() & 0xff;
            if (width > 32) {
                throw new IOException("dictionary indices of " + width + " bits");
            }
            Hybrid h = new Hybrid(data, width);
            for (int i = 0; i < n; i++) {
                out[i] = h.next();
            }
        }
    }

    /** Parquet's RLE/bit-packed hybrid encoding of {@code width}-bit values, without a length prefix. */
    private static final class Hybrid {
        private final ByteBuffer in;
        private final int width;
        private int rleLeft;
        private int rleValue;
        private int packedLeft;    // values left in the current bit-packed run
        private long bits;
        private int bitCount;

        Hybrid(ByteBuffer in, int width) {
            this.in = in;
            this.width = width;
        }

        int next() throws IOException {
            while (rleLeft == 0 && packedLeft == 0) {
                header();
            }
            if (rleLeft > 0) {
                rleLeft--;
                return rleValue;
            }
            packedLeft--;
            while (bitCount < width) {
                if (!in.hasRemaining()) {
                    throw new IOException("bit-packed run ends early");
                }
                bits |= (long) (in.get() & 0xff) << bitCount;
                bitCount += 8;
            }
            int v = (int) (bits & ((1L << width) - 1));
            bits >>>= width;
            bitCount -= width;
            return v;
        }

        private void header() throws IOException {
            long h = 0;
            int shift = 0;
            while (true) {
                if (!in.hasRemaining() || shift > 28) {
                    throw new IOException("RLE/bit-packed run header runs past its page");
                }
                int b = in.get() & 0xff;
                h |= (long) (b & 0x7f) << shift;
                if (b < 0x80) {
                    break;
                }
                shift += 7;
            }
            if ((h & 1) == 0) {
                rleLeft = (int) (h >>> 1);
                int v = 0;
                for (int i = 0; i < (width + 7) / 8; i++) {
                    if (!in.hasRemaining()) {
                        throw new IOException("RLE run ends early");
                    }
                    v |= (in.get() & 0xff) << (8 * i);
                }
                rleValue = v;
            } else {
                // groups of 8 values; a run's last group is padded, and its padding is dropped with the run
                packedLeft = (int) (h >>> 1) * 8;
                bits = 0;
                bitCount = 0;
            }
        }
    }
}
