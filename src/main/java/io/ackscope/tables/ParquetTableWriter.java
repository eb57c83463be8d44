package io.ackscope.tables;

import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Writes {@link RowBuffer} rows of one {@link TableSchema} to one Parquet file (Snappy), with the types Spark's own
 * writer would choose (TIMESTAMP as INT64 TIMESTAMP(MICROS, UTC), three-level lists and maps) and the footer
 * metadata its caller gives (the {@code spark} package gives the Spark schema, so {@code spark.read.parquet} gives
 * back exactly the table's Spark schema). Where the file goes is the caller's {@link OutputFile}: a Hadoop
 * filesystem for {@code analyze}, a local file for {@code load --out}.
 */
public final class ParquetTableWriter implements Closeable {
    /**
     * Largest row group. A writer keeps each finished page of the row group it fills (compressed) until the row group
     * is written, so the row group's size is how long those pages live: pages that outlive three young collections
     * are promoted and die in the old generation. analyze of a 1.53 GB / 217,628-connection capture on 2 cores
     * (launcher's 640 MB heap, 3 interleaved runs each): GC pauses 1.90-2.18 s with 4 full collections at 16 MB,
     * 1.60-1.68 s with 2 at 4 MB, 1.32-1.57 s with 1 at 2 MB; {@code report} and {@code export} of the output read 2
     * MB row groups 0.2-0.6 s slower than 16 MB ones, 4 MB ones as fast; the tables 1 % larger.
     */
    static final int MAX_ROW_GROUP_BYTES = 4 * 1024 * 1024;
    /** Smallest row group, whatever the heap. */
    static final int MIN_ROW_GROUP_BYTES = 1024 * 1024;
    /**
     * Row group size. An engine task has up to one writer per table open at once (six), each buffering a row group,
     * and a JVM runs up to one task per core: the buffers of all of them together are held to an eighth of the heap
     * (2.7 MB each with 256 MB on 2 cores) and {@link #MAX_ROW_GROUP_BYTES} each, so they stay bounded whatever the
     * capture size and leave the heap to the engine's open connections and Spark's shuffle.
     */
    public static final int ROW_GROUP_BYTES = rowGroupBytes(Runtime.getRuntime().maxMemory(),
            Runtime.getRuntime().availableProcessors());

    /** Rows per data page at most (parquet-mr's default). */
    public static final int PAGE_ROWS = LeafChunk.PAGE_ROWS;

    /** The row group size for a JVM of {@code maxHeap} bytes and {@code cores} processors (see above). */
    public static int rowGroupBytes(long maxHeap, int cores) {
        long share = maxHeap / 8 / (6L * Math.max(1, cores));
        return (int) Math.max(MIN_ROW_GROUP_BYTES, Math.min(MAX_ROW_GROUP_BYTES, share));
    }

    /** Rows between two checks of the buffered size (a check walks every column writer). */
    private static final int SIZE_CHECK_ROWS = 512;

    private final TableSchema table;
    private final long rowGroupBytes;
    private final MessageType schema;
    private final Map<String, String> footer;
    private final PageCompressor compressor = new PageCompressor();
    private final ParquetFileWriter file;
    /** For each table column, the index of its first leaf column in {@link #leaves}. */
    private final int[] firstLeaf;
    /** Definition level of a present value of each table column's first leaf (0 for required flat columns). */
    private final int[] presentLevel;
    /** Definition level of a null value of each table column (a null list or map is null above its repeated group). */
    private final int[] nullLevel;
    /** Each table column's type (an array: the per-row loop reads it for every column). */
    private final ColumnType[] types;
    /** The columns a row must set (the required ones). */
    private final int[] required;
    /**
     * Each table column's shape as the per-row loop switches on it: {@link #SCALAR}, {@link #DOUBLE}, {@link #REF} or
     * {@link #NESTED} (an int switch: C1, which runs analyze, compiles a switch on an enum to an extra array lookup).
     */
    private final int[] shape;
    private static final int SCALAR = 0;
    private static final int DOUBLE = 1;
    private static final int REF = 2;
    private static final int NESTED = 3;
    private final LeafChunk[] leaves;
    private long rowsInGroup;
    private long rows;
    private boolean closed;

    /**
     * Opens {@code file} for writing ({@code mode} CREATE: it must not exist), with {@code footer} and the schema
     * version ({@link TableSchema#VERSION_KEY}) as the file's key-value metadata, and a row group size of
     * {@code rowGroupBytes} (buffered, about their plain size; normally {@link #ROW_GROUP_BYTES}).
     */
    public ParquetTableWriter(TableSchema table, OutputFile file, ParquetFileWriter.Mode mode,
                              Map<String, String> footer, long rowGroupBytes) throws IOException {
        this.table = table;
        this.rowGroupBytes = rowGroupBytes;
        this.footer = new java.util.LinkedHashMap<>(footer);
        this.footer.put(TableSchema.VERSION_KEY, Integer.toString(TableSchema.VERSION));
        this.schema = parquetSchema(table);
        // parquet-mr's defaults for what the file writer itself does: column index truncation, page checksums (the
        // pages and their statistics are LeafChunk's; it gives no size statistics)
        this.file = new ParquetFileWriter(file, schema, mode, rowGroupBytes, ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
                null, ParquetProperties.builder().build());
        this.file.start();
        List<Column> cols = table.columns();
        types = new ColumnType[cols.size()];
        firstLeaf = new int[cols.size()];
        presentLevel = new int[cols.size()];
        nullLevel = new int[cols.size()];
        shape = new int[cols.size()];
        int leaf = 0;
        for (int i = 0; i < cols.size(); i++) {
            Column c = cols.get(i);
            types[i] = c.type();
            firstLeaf[i] = leaf;
            leaf += c.type() == ColumnType.STRING_LONG_MAP ? 2 : 1;
            // flat: optional adds one level; list and map: the optional group, then the repeated group
            boolean nested = switch (c.type()) {
                case STRING_LIST, INT_LIST, LONG_LIST, STRING_LONG_MAP -> true;
                default -> false;
            };
            presentLevel[i] = (c.nullable() ? 1 : 0) + (nested ? 1 : 0);
            nullLevel[i] = presentLevel[i] - (nested ? 2 : 1);
            shape[i] = switch (c.type()) {
                case BOOLEAN, INT, LONG, TIMESTAMP -> SCALAR;
                case DOUBLE -> DOUBLE;
                case STRING, BINARY -> REF;
                default -> NESTED;
            };
        }
        required = IntStream.range(0, cols.size()).filter(i -> !cols.get(i).nullable()).toArray();
        if (leaf != schema.getColumns().size()) {
            throw new IllegalStateException(table.name() + ": " + leaf + " leaves, schema has "
                    + schema.getColumns().size());
        }
        leaves = new LeafChunk[leaf];
        for (int i = 0; i < cols.size(); i++) {
            boolean dictionary = dictionaryEncoded(cols.get(i).type());
            for (int k = firstLeaf[i]; k < (i + 1 < cols.size() ? firstLeaf[i + 1] : leaf); k++) {
                leaves[k] = new LeafChunk(schema.getColumns().get(k), dictionary, compressor);
            }
        }
    }

    /**
     * Dictionary encoding may be tried for strings and ints (enum names, ports, flags, counts: few distinct values;
     * {@link LeafChunk} keeps it only where it is smaller, and booleans are always bit-packed); not for longs,
     * timestamps and doubles (times, sequence numbers, microsecond values: mostly distinct, so a dictionary would be
     * built, outgrow its page and be thrown away, costing CPU and a large hash map per column).
     */
    public static boolean dictionaryEncoded(ColumnType t) {
        return switch (t) {
            case LONG, TIMESTAMP, DOUBLE, LONG_LIST -> false;
            default -> true;
        };
    }

    private void flushRowGroup() throws IOException {
        if (rowsInGroup > 0) {
            file.startBlock(rowsInGroup);
            for (LeafChunk leaf : leaves) {
                leaf.flush(file);
            }
            file.endBlock();
            rowsInGroup = 0;
        }
    }

    private long bufferedBytes() {
        long n = 0;
        for (LeafChunk leaf : leaves) {
            n += leaf.bufferedBytes();
        }
        return n;
    }

    /**
     * Writes one row straight to the column writers (repetition and definition levels worked out here, as
     * parquet-mr's record consumer would, without its per-field bookkeeping).
     *
     * @throws IllegalStateException if a required column is not set
     */
    public void write(RowBuffer row) throws IOException {
        if (row.schema() != table) {
            throw new IllegalArgumentException("row of " + row.schema().name() + " written to " + table.name());
        }
        for (int i : required) {
            if (!row.isSet(i)) {
                throw new IllegalStateException(table.name() + "." + table.columns().get(i).name()
                        + " is required but was not set");
            }
        }
        for (int i = 0; i < types.length; i++) {
            LeafChunk w = leaves[firstLeaf[i]];
            if (!row.isSet(i)) {
                w.writeNull(0, nullLevel[i]);
                if (types[i] == ColumnType.STRING_LONG_MAP) {
                    leaves[firstLeaf[i] + 1].writeNull(0, nullLevel[i]);
                }
                continue;
            }
            int d = presentLevel[i];
            switch (shape[i]) {
                case SCALAR -> w.writeLong(row.longAt(i), 0, d);
                case DOUBLE -> w.writeLong(Double.doubleToRawLongBits(row.doubleAt(i)), 0, d);
                case REF -> w.writeRef(row.refAt(i), 0, d);
                default -> writeNested(row, i, w, d);
            }
        }
        rows++;
        if (++rowsInGroup % SIZE_CHECK_ROWS == 0 && bufferedBytes() >= rowGroupBytes) {
            flushRowGroup();
        }
    }

    /** A list or map column's present value: its entries, or one entry at the level of an empty one. */
    private void writeNested(RowBuffer row, int i, LeafChunk w, int d) throws IOException {
        switch (types[i]) {
            case STRING_LIST -> {
                @SuppressWarnings("unchecked")
                List<String> l = (List<String>) row.refAt(i);
                if (l.isEmpty()) {
                    w.writeNull(0, d - 1);
                }
                for (int k = 0; k < l.size(); k++) {
                    w.writeRef(l.get(k), k == 0 ? 0 : 1, d);
                }
            }
            case INT_LIST -> {
                int[] a = (int[]) row.refAt(i);
                if (a.length == 0) {
                    w.writeNull(0, d - 1);
                }
                for (int k = 0; k < a.length; k++) {
                    w.writeLong(a[k], k == 0 ? 0 : 1, d);
                }
            }
            case LONG_LIST -> {
                long[] a = (long[]) row.refAt(i);
                if (a.length == 0) {
                    w.writeNull(0, d - 1);
                }
                for (int k = 0; k < a.length; k++) {
                    w.writeLong(a[k], k == 0 ? 0 : 1, d);
                }
            }
            case STRING_LONG_MAP -> {
                @SuppressWarnings("unchecked")
                Map<String, Long> m = (Map<String, Long>) row.refAt(i);
                LeafChunk values = leaves[firstLeaf[i] + 1];
                if (m.isEmpty()) {
                    w.writeNull(0, d - 1);
                    values.writeNull(0, d - 1);
                }
                int k = 0;
                for (Map.Entry<String, Long> e : m.entrySet()) {
                    int r = k++ == 0 ? 0 : 1;
                    w.writeRef(e.getKey(), r, d);
                    values.writeLong(e.getValue(), r, d);
                }
            }
            case SACK_BLOCKS -> throw new IllegalArgumentException(table.columns().get(i).name()
                    + ": SACK_BLOCKS columns are written by Spark, not by ParquetTableWriter");
            default -> throw new IllegalStateException(types[i] + " is not a list or map");
        }
    }

    public long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        flushRowGroup();
        file.end(footer);
    }

    /** The Parquet schema of {@code table}. */
    public static MessageType parquetSchema(TableSchema table) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (Column c : table.columns()) {
            b.addField(parquetType(c));
        }
        return b.named("spark_schema");
    }

    private static Type parquetType(Column c) {
        Type.Repetition rep = c.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        return switch (c.type()) {
            case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, rep).named(c.name());
            case INT -> Types.primitive(PrimitiveTypeName.INT32, rep).named(c.name());
            case LONG -> Types.primitive(PrimitiveTypeName.INT64, rep).named(c.name());
            case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, rep).named(c.name());
            case STRING -> Types.primitive(PrimitiveTypeName.BINARY, rep)
                    .as(LogicalTypeAnnotation.stringType()).named(c.name());
            case BINARY -> Types.primitive(PrimitiveTypeName.BINARY, rep).named(c.name());
            case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, rep)
                    .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                    .named(c.name());
            case STRING_LIST -> list(rep, c.name(), Types.required(PrimitiveTypeName.BINARY)
                    .as(LogicalTypeAnnotation.stringType()).named("element"));
            case INT_LIST -> list(rep, c.name(), Types.required(PrimitiveTypeName.INT32).named("element"));
            case LONG_LIST -> list(rep, c.name(), Types.required(PrimitiveTypeName.INT64).named("element"));
            case STRING_LONG_MAP -> Types.buildGroup(rep).as(LogicalTypeAnnotation.mapType())
                    .addField(Types.repeatedGroup()
                            .addField(Types.required(PrimitiveTypeName.BINARY)
                                    .as(LogicalTypeAnnotation.stringType()).named("key"))
                            .addField(Types.required(PrimitiveTypeName.INT64).named("value"))
                            .named("key_value"))
                    .named(c.name());
            case SACK_BLOCKS -> throw new IllegalArgumentException(
                    c.name() + ": SACK_BLOCKS columns are written by Spark, not by ParquetTableWriter");
        };
    }

    private static Type list(Type.Repetition rep, String name, Type element) {
        return Types.buildGroup(rep).as(LogicalTypeAnnotation.listType())
                .addField(Types.repeatedGroup().addField(element).named("list"))
                .named(name);
    }
}
