package io.ackscope.tables;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One leaf column of the row group {@link ParquetTableWriter} is filling: its repetition and definition levels and
 * its values, kept in primitive arrays, and their encoding into Parquet v1 data pages when the row group is flushed.
 *
 * <p>This is what parquet-mr's column writers do, in the same format (the footer, column and offset indexes are still
 * parquet-mr's {@link ParquetFileWriter}), without their per-value work: where they update statistics, a dictionary
 * hash of a {@link Binary} and level writers for every value, this appends to an array, and works out dictionary
 * indices, statistics and levels a page at a time. Each finished page is kept compressed until the row group is
 * written, so a chunk holds one page of raw values at most. Choices follow parquet-mr's defaults: pages of at most
 * 20,000 rows and about 1 MB; PLAIN values, or PLAIN_DICTIONARY for strings and ints while the chunk's dictionary stays
 * under 1 MB (later pages fall back to PLAIN) and unless the first page is no smaller with it; levels in the RLE /
 * bit-packing hybrid; min, max and null count per page (for strings, over the page's own values).
 *
 * <p>Measured against parquet-mr's own column writers driven through a {@code WriteSupport} with the same settings
 * ({@code bench/ParquetWriteBench.java}: 1,000,000 rtt_samples rows, CPU time of the writing thread, median of 5
 * interleaved rounds, on a shared 2-core VM): 849 ms here against 1,801 ms for parquet-mr with C1 only, as
 * {@code jobs/ackscope} runs analyze (725 against 1,037 ms with C2); the files are within 0.1 % of each other in size.
 */
final class LeafChunk {
    /** parquet-mr's defaults: page size, page row count limit, dictionary page size. */
    static final int PAGE_BYTES = 1024 * 1024;
    static final int PAGE_ROWS = 20_000;
    static final int MAX_DICTIONARY_BYTES = 1024 * 1024;

    private final ColumnDescriptor column;
    private final PrimitiveType type;
    private final PrimitiveTypeName primitive;
    private final int maxDef;
    private final int maxRep;
    private final PageCompressor compressor;

    // the page being filled: its levels and values
    private int entries;
    private byte[] def;
    private byte[] rep;
    private int values;
    /** INT32, INT64, BOOLEAN (0 or 1) and DOUBLE (raw bits) values. */
    private long[] longs;
    /** BINARY values: {@link String} (written as UTF-8) or {@code byte[]}. */
    private Object[] refs;
    private int pageRows;
    /** PLAIN-encoded size of the page's values (strings counted by their length in chars). */
    private long pageBytes;
    /** Capacity of the page's level arrays (unbounded when the column has no levels). */
    private int levelCapacity;
    /** PLAIN size of one INT32, INT64, BOOLEAN or DOUBLE value (BOOLEAN counted as a byte). */
    private final int valueBytes;
    /**
     * The last BINARY value written and its PLAIN size: rows of one connection, and of connections of one host,
     * follow each other with the same String, whose length is then not read again. A byte array must not change
     * once written (as for the dictionary, {@link RefIds}).
     */
    private Object lastRef;
    private int lastRefBytes;

    // the chunk: its finished pages and the dictionary they share
    private final List<Page> pages = new ArrayList<>();
    private long pagesBytes;
    private long chunkEntries;
    private final boolean dictionaryAllowed;
    /** The chunk's dictionary; null when the column is not dictionary-encoded. */
    private ChunkDictionary dictionary;
    /** Pages are PLAIN from here on in this chunk: the dictionary outgrew its page, or did not pay on the first. */
    private boolean fellBack;

    /** A finished page, compressed. */
    private record Page(BytesInput bytes, int uncompressedSize, int entries, int rows, Statistics<?> stats,
                        Encoding encoding) {
    }

    /**
     * @param dictionaryAllowed whether a dictionary may be tried (strings and ints; see
     *                          {@link ParquetTableWriter#dictionaryEncoded})
     */
    LeafChunk(ColumnDescriptor column, boolean dictionaryAllowed, PageCompressor compressor) {
        this.column = column;
        this.type = column.getPrimitiveType();
        this.primitive = type.getPrimitiveTypeName();
        this.compressor = compressor;
        this.dictionaryAllowed = dictionaryAllowed
                && (primitive == PrimitiveTypeName.BINARY || primitive == PrimitiveTypeName.INT32);
        this.maxDef = column.getMaxDefinitionLevel();
        this.maxRep = column.getMaxRepetitionLevel();
        if (maxDef > Byte.MAX_VALUE || maxRep > Byte.MAX_VALUE) {
            throw new IllegalArgumentException(column + ": levels above 127");
        }
        int n = 1024;
        this.def = maxDef > 0 ? new byte[n] : null;
        this.rep = maxRep > 0 ? new byte[n] : null;
        this.levelCapacity = def != null || rep != null ? n : Integer.MAX_VALUE;
        this.valueBytes = primitive == PrimitiveTypeName.INT32 ? 4 : primitive == PrimitiveTypeName.BOOLEAN ? 1 : 8;
        if (primitive == PrimitiveTypeName.BINARY) {
            refs = new Object[n];
        } else {
            longs = new long[n];
        }
        newChunk();
    }

    private void newChunk() {
        pages.clear();
        pagesBytes = 0;
        chunkEntries = 0;
        dictionary = dictionaryAllowed ? new ChunkDictionary(primitive == PrimitiveTypeName.BINARY) : null;
        fellBack = false;
    }

    // ---- buffering -------------------------------------------------------------------------------------------

    private void level(int r, int d) throws IOException {
        if (r == 0) {
            // a row starts: the page ends first if it is full
            if (pageRows == PAGE_ROWS || pageBytes >= PAGE_BYTES) {
                finishPage();
            }
            pageRows++;
        }
        if (entries == levelCapacity) {
            int n = entries * 2;
            def = def != null ? Arrays.copyOf(def, n) : null;
            rep = rep != null ? Arrays.copyOf(rep, n) : null;
            levelCapacity = n;
        }
        if (def != null) {
            def[entries] = (byte) d;
        }
        if (rep != null) {
            rep[entries] = (byte) r;
        }
        entries++;
    }

    /** An absent value (a null, or an empty or null list) at repetition level {@code r}, definition level {@code d}. */
    void writeNull(int r, int d) throws IOException {
        level(r, d);
    }

    /** An INT32, INT64, BOOLEAN (0 or 1) or DOUBLE (raw bits) value. */
    void writeLong(long v, int r, int d) throws IOException {
        level(r, d);
        if (values == longs.length) {
            longs = Arrays.copyOf(longs, values * 2);
        }
        longs[values++] = v;
        pageBytes += valueBytes;
    }

    /** A BINARY value: a {@link String} or a {@code byte[]}. */
    void writeRef(Object v, int r, int d) throws IOException {
        level(r, d);
        if (values == refs.length) {
            refs = Arrays.copyOf(refs, values * 2);
        }
        refs[values++] = v;
        if (v != lastRef) {
            lastRef = v;
            lastRefBytes = 4 + (v instanceof String s ? s.length() : ((byte[]) v).length);
        }
        pageBytes += lastRefBytes;
    }

    /** Bytes this chunk holds: its compressed pages, the page being filled, the dictionary. */
    long bufferedBytes() {
        return pagesBytes + pageBytes + entries / 4 + (dictionary != null ? dictionary.bytes() : 0);
    }

    // ---- pages -----------------------------------------------------------------------------------------------

    /** Writes the chunk as one column chunk of the current row group of {@code file}, then starts a new one. */
    void flush(ParquetFileWriter file) throws IOException {
        if (entries > 0) {
            finishPage();
        }
        file.startColumn(column, chunkEntries, CompressionCodecName.SNAPPY);
        if (dictionary != null && dictionary.used > 0) {
            // the entries the dictionary-encoded pages refer to (not those of a page that made it fall back)
            byte[] raw = dictionary.page(dictionary.used);
            file.writeDictionaryPage(new DictionaryPage(BytesInput.from(compressor.compress(raw)), raw.length,
                    dictionary.used, Encoding.PLAIN_DICTIONARY));
        }
        for (Page p : pages) {
            file.writeDataPage(p.entries(), p.uncompressedSize(), p.bytes(), p.stats(), p.rows(),
                    maxRep > 0 ? Encoding.RLE : Encoding.BIT_PACKED, maxDef > 0 ? Encoding.RLE : Encoding.BIT_PACKED,
                    p.encoding(), null, null, null);
        }
        file.endColumn();
        newChunk();
    }

    /**
     * Encodes and compresses the page being filled, and empties it. The raw page (levels, then values) is put
     * together in the compressor's reused page buffer: only the compressed page is kept.
     */
    private void finishPage() throws IOException {
        Statistics<?> stats = Statistics.createStats(type);
        stats.incrementNumNulls(entries - values);
        boolean binary = primitive == PrimitiveTypeName.BINARY;
        boolean dictionaryPage = dictionary != null && !fellBack;
        // a dictionary-encoded page needs no UTF-8 of its strings (the dictionary encodes the strings it does not
        // know yet); the first page's size test needs only their PLAIN size
        byte[][] encoded = binary && !dictionaryPage ? encodeBinaries() : null;
        byte[] indices = null;
        Encoding encoding = Encoding.PLAIN;
        if (dictionaryPage) {
            int[] index = dictionary.add(values, refs, longs);
            if (index == null || pages.isEmpty() && !dictionaryPays(binary)) {
                // the dictionary outgrew its page, or does not pay: PLAIN from here on (as parquet-mr falls back)
                fellBack = true;
            } else {
                indices = dictionary.indices(index, values, stats);
                encoding = Encoding.PLAIN_DICTIONARY;
                dictionary.used = dictionary.size();
            }
        }
        if (binary && indices == null && encoded == null) {
            encoded = encodeBinaries();
        }
        byte[] repLevels = levels(rep, maxRep, entries);
        byte[] defLevels = levels(def, maxDef, entries);
        long valueBytes = indices != null ? indices.length : plainBytes(values, encoded);
        ByteBuffer page = compressor.page(Math.toIntExact(
                levelBytes(repLevels) + levelBytes(defLevels) + valueBytes));
        putLevels(page, repLevels);
        putLevels(page, defLevels);
        if (indices != null) {
            page.put(indices);
        } else {
            plain(page, values, encoded, stats);
        }
        int size = page.position();
        BytesInput compressed = BytesInput.from(compressor.compressPage());
        pages.add(new Page(compressed, size, entries, pageRows, stats, encoding));
        pagesBytes += compressed.size();
        chunkEntries += entries;
        if (refs != null) {
            Arrays.fill(refs, 0, values, null);
        }
        entries = 0;
        values = 0;
        pageRows = 0;
        pageBytes = 0;
    }

    /** Levels {@code [0, n)} in the RLE / bit-packing hybrid; null when max is 0 (no levels are written). */
    private static byte[] levels(byte[] levels, int max, int n) throws IOException {
        if (max == 0) {
            return null;
        }
        int bitWidth = 32 - Integer.numberOfLeadingZeros(max);
        if (n >= MIN_RUN && same(levels, n)) {
            return run(levels[0], n, bitWidth);
        }
        try (RunLengthBitPackingHybridEncoder e = encoder(bitWidth)) {
            for (int i = 0; i < n; i++) {
                e.writeInt(levels[i]);
            }
            return e.toBytes().toByteArray();
        }
    }

    private static boolean same(byte[] levels, int n) {
        byte first = levels[0];
        for (int i = 1; i < n; i++) {
            if (levels[i] != first) {
                return false;
            }
        }
        return true;
    }

    /**
     * The fewest equal values the hybrid encoder writes as one RLE run: fewer are bit-packed. From that many on,
     * {@link #run} gives its bytes.
     */
    static final int MIN_RUN = 8;

    /**
     * What {@link #encoder}{@code (bitWidth)} writes for {@code n >= MIN_RUN} values all equal to {@code value}: one
     * RLE run, its header (the unsigned varint {@code n << 1}) and the value in {@code ceil(bitWidth / 8)}
     * little-endian bytes. A page without nulls has one definition level throughout, and a page of one distinct
     * value one dictionary index: both are written here without a call of the encoder per value.
     */
    static byte[] run(int value, int n, int bitWidth) {
        int valueBytes = (bitWidth + 7) / 8;
        byte[] header = new byte[5];
        int h = 0;
        int v = n << 1;
        while ((v & ~0x7f) != 0) {
            header[h++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        header[h++] = (byte) v;
        byte[] out = Arrays.copyOf(header, h + valueBytes);
        for (int i = 0; i < valueBytes; i++) {
            out[h + i] = (byte) (value >>> (8 * i));
        }
        return out;
    }

    private static long levelBytes(byte[] rle) {
        return rle == null ? 0 : 4 + rle.length;
    }

    /** {@link #levels}' bytes after their length (a little-endian int). */
    private static void putLevels(ByteBuffer page, byte[] rle) {
        if (rle != null) {
            page.putInt(rle.length).put(rle);
        }
    }

    static RunLengthBitPackingHybridEncoder encoder(int bitWidth) {
        return new RunLengthBitPackingHybridEncoder(bitWidth, 256, PAGE_BYTES, HeapByteBufferAllocator.getInstance());
    }

    private byte[][] encodeBinaries() {
        byte[][] out = new byte[values][];
        for (int i = 0; i < values; i++) {
            Object v = refs[i];
            out[i] = i > 0 && v == refs[i - 1] ? out[i - 1] : v instanceof String s ? utf8(s) : (byte[]) v;
        }
        return out;
    }

    /** UTF-8 bytes of strings, remembered for the few distinct strings most columns have (enum names). */
    private final Map<String, byte[]> utf8 = new HashMap<>();

    private byte[] utf8(String s) {
        byte[] b = utf8.get(s);
        if (b == null) {
            b = s.getBytes(StandardCharsets.UTF_8);
            if (utf8.size() < 1024) {
                utf8.put(s, b);
            }
        }
        return b;
    }

    /**
     * parquet-mr's test of the first page: its indices plus the dictionary smaller than its PLAIN values. A string's
     * UTF-8 is never shorter than its chars, so the page's size as {@link #writeRef} counted it is a lower bound of
     * the PLAIN size: the strings are measured only when the dictionary does not pay against that bound (it mostly
     * does, and measuring reads every string of the page again).
     */
    private boolean dictionaryPays(boolean binary) {
        if (!binary) {
            return dictionary.smallerThan(values, 0);
        }
        return dictionary.smallerThan(values, pageBytes) || dictionary.smallerThan(values, plainRefBytes());
    }

    /** PLAIN size of the page's BINARY values (as {@link #encodeBinaries} would encode them), without encoding. */
    private long plainRefBytes() {
        long n = 0;
        int len = 0;
        for (int i = 0; i < values; i++) {
            Object v = refs[i];
            if (i == 0 || v != refs[i - 1]) {
                len = v instanceof String s ? utf8Length(s) : ((byte[]) v).length;
            }
            n += 4 + len;
        }
        return n;
    }

    /**
     * The length of {@code s.getBytes(UTF_8)}: 1 to 3 bytes a char, 4 for a surrogate pair, and 1 for a surrogate
     * without its pair (which the encoder replaces by {@code '?'}).
     */
    static int utf8Length(String s) {
        int n = s.length();
        int len = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    len += 1;
                } else if (!Character.isSurrogate(c)) {
                    len += 2;
                } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    len += 2;   // the pair's two chars are four bytes
                    i++;
                }
            }
        }
        return len;
    }

    private static long plainSize(byte[][] encoded) {
        long n = 0;
        if (encoded != null) {
            for (byte[] b : encoded) {
                n += 4 + b.length;
            }
        }
        return n;
    }

    /** Size of the page's values PLAIN-encoded. */
    private long plainBytes(int n, byte[][] encoded) {
        return switch (primitive) {
            case INT64, DOUBLE -> 8L * n;
            case INT32 -> 4L * n;
            case BOOLEAN -> (n + 7) / 8;
            case BINARY -> plainSize(encoded);
            default -> throw new IllegalStateException(column + ": " + primitive + " is not written");
        };
    }

    /** Puts the page's values PLAIN-encoded in {@code page} (little-endian); adds them to {@code stats}. */
    private void plain(ByteBuffer page, int n, byte[][] encoded, Statistics<?> stats) {
        switch (primitive) {
            case INT64 -> {
                page.asLongBuffer().put(longs, 0, n);
                page.position(page.position() + 8 * n);
                if (n > 0) {
                    long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
                    for (int i = 0; i < n; i++) {
                        min = Math.min(min, longs[i]);
                        max = Math.max(max, longs[i]);
                    }
                    stats.updateStats(min);
                    stats.updateStats(max);
                }
            }
            case INT32 -> {
                int min = Integer.MAX_VALUE, max = Integer.MIN_VALUE;
                for (int i = 0; i < n; i++) {
                    int v = (int) longs[i];
                    page.putInt(v);
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                if (n > 0) {
                    stats.updateStats(min);
                    stats.updateStats(max);
                }
            }
            case DOUBLE -> {
                page.asLongBuffer().put(longs, 0, n);
                page.position(page.position() + 8 * n);
                for (int i = 0; i < n; i++) {
                    // per value: parquet-mr's own rules for NaN and signed zeros
                    stats.updateStats(Double.longBitsToDouble(longs[i]));
                }
            }
            case BOOLEAN -> {
                byte[] b = new byte[(n + 7) / 8];
                boolean seenFalse = false, seenTrue = false;
                for (int i = 0; i < n; i++) {
                    if (longs[i] != 0) {
                        b[i >>> 3] |= (byte) (1 << (i & 7));
                        seenTrue = true;
                    } else {
                        seenFalse = true;
                    }
                }
                if (seenFalse) {
                    stats.updateStats(false);
                }
                if (seenTrue) {
                    stats.updateStats(true);
                }
                page.put(b);
            }
            case BINARY -> {
                byte[] previous = null;
                for (byte[] v : encoded) {
                    page.putInt(v.length).put(v);
                    if (v != previous) {   // a repeat (the rows of one connection) leaves min and max as they are
                        stats.updateStats(Binary.fromConstantByteArray(v));
                        previous = v;
                    }
                }
            }
            default -> throw new IllegalStateException(column + ": " + primitive + " is not written");
        }
    }
}
