package io.ackscope.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link RowBuffer} rows of one {@link TableSchema} to one Parquet file (Snappy), with the types Spark's own
 * writer would choose (TIMESTAMP as INT64 TIMESTAMP(MICROS, UTC), three-level lists and maps) and the Spark schema
 * in the footer, so {@code spark.read.parquet} gives back exactly {@link TableSchema#sparkSchema()}.
 */
public final class ParquetTableWriter implements Closeable {
    private static final String SPARK_ROW_METADATA = "org.apache.spark.sql.parquet.row.metadata";
    /** Largest row group. */
    static final int MAX_ROW_GROUP_BYTES = 16 * 1024 * 1024;
    /** Smallest row group, whatever the heap. */
    static final int MIN_ROW_GROUP_BYTES = 1024 * 1024;
    /**
     * Row group size. An engine task has up to one writer per table open at once (six), each buffering a row group,
     * and a JVM runs up to one task per core: the buffers of all of them together are held to an eighth of the heap
     * (16 MB each with a 3 GB heap on 2 cores, 2.7 MB with 256 MB), so they stay bounded whatever the capture size
     * and leave the heap to Spark's sorter and the engine's open connections.
     */
    static final int ROW_GROUP_BYTES = rowGroupBytes(Runtime.getRuntime().maxMemory(),
            Runtime.getRuntime().availableProcessors());

    static int rowGroupBytes(long maxHeap, int cores) {
        long share = maxHeap / 8 / (6L * Math.max(1, cores));
        return (int) Math.max(MIN_ROW_GROUP_BYTES, Math.min(MAX_ROW_GROUP_BYTES, share));
    }

    private final ParquetWriter<RowBuffer> writer;
    private long rows;

    public ParquetTableWriter(TableSchema table, Path file, Configuration conf) throws IOException {
        Builder b = new Builder(table, HadoopOutputFile.fromPath(file, conf))
                .withConf(conf)
                .withWriteMode(ParquetFileWriter.Mode.CREATE)
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withRowGroupSize(ROW_GROUP_BYTES);
        for (Column c : table.columns()) {
            if (!dictionaryEncoded(c.type())) {
                b.withDictionaryEncoding(c.type() == ColumnType.LONG_LIST ? c.name() + ".list.element" : c.name(),
                        false);
            }
        }
        this.writer = b.build();
    }

    /**
     * Dictionary encoding for strings, booleans and ints (enum names, ports, flags, counts: few distinct values);
     * not for longs, timestamps and doubles (times, sequence numbers, microsecond values: mostly distinct, so a
     * dictionary is built, outgrows its page and is thrown away, costing CPU and a large hash map per column).
     */
    static boolean dictionaryEncoded(ColumnType t) {
        return switch (t) {
            case LONG, TIMESTAMP, DOUBLE, LONG_LIST -> false;
            default -> true;
        };
    }

    public void write(RowBuffer row) throws IOException {
        writer.write(row);
        rows++;
    }

    public long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        writer.close();
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

    private static final class Builder extends ParquetWriter.Builder<RowBuffer, Builder> {
        private final TableSchema table;

        Builder(TableSchema table, HadoopOutputFile file) {
            super(file);
            this.table = table;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<RowBuffer> getWriteSupport(Configuration conf) {
            return new RowWriteSupport(table);
        }
    }

    private static final class RowWriteSupport extends WriteSupport<RowBuffer> {
        /** Most engine strings are enum names (the same String instance every time): encode each once. */
        private static final int MAX_CACHED_STRINGS = 256;

        private final TableSchema table;
        private final java.util.IdentityHashMap<String, Binary> encoded = new java.util.IdentityHashMap<>();
        private RecordConsumer out;

        RowWriteSupport(TableSchema table) {
            this.table = table;
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(parquetSchema(table), Map.of(SPARK_ROW_METADATA, table.sparkSchema().json()));
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.out = recordConsumer;
        }

        @Override
        public void write(RowBuffer row) {
            List<Column> cols = table.columns();
            out.startMessage();
            for (int i = 0; i < cols.size(); i++) {
                Column c = cols.get(i);
                if (!row.isSet(i)) {
                    if (!c.nullable()) {
                        throw new IllegalStateException(table.name() + "." + c.name() + " is required but was not set");
                    }
                    continue;
                }
                out.startField(c.name(), i);
                writeValue(c.type(), row, i);
                out.endField(c.name(), i);
            }
            out.endMessage();
        }

        private void writeValue(ColumnType type, RowBuffer row, int i) {
            switch (type) {
                case BOOLEAN -> out.addBoolean(row.longAt(i) != 0);
                case INT -> out.addInteger((int) row.longAt(i));
                case LONG, TIMESTAMP -> out.addLong(row.longAt(i));
                case DOUBLE -> out.addDouble(row.doubleAt(i));
                case STRING -> out.addBinary(binary((String) row.refAt(i)));
                case BINARY -> out.addBinary(Binary.fromConstantByteArray((byte[]) row.refAt(i)));
                case STRING_LIST -> {
                    @SuppressWarnings("unchecked")
                    List<String> l = (List<String>) row.refAt(i);
                    startList(l.size());
                    for (String s : l) {
                        element(() -> out.addBinary(Binary.fromString(s)));
                    }
                    endList(l.size());
                }
                case INT_LIST -> {
                    int[] a = (int[]) row.refAt(i);
                    startList(a.length);
                    for (int v : a) {
                        element(() -> out.addInteger(v));
                    }
                    endList(a.length);
                }
                case LONG_LIST -> {
                    long[] a = (long[]) row.refAt(i);
                    startList(a.length);
                    for (long v : a) {
                        element(() -> out.addLong(v));
                    }
                    endList(a.length);
                }
                case STRING_LONG_MAP -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Long> m = (Map<String, Long>) row.refAt(i);
                    out.startGroup();
                    if (!m.isEmpty()) {
                        out.startField("key_value", 0);
                        for (Map.Entry<String, Long> e : m.entrySet()) {
                            out.startGroup();
                            out.startField("key", 0);
                            out.addBinary(Binary.fromString(e.getKey()));
                            out.endField("key", 0);
                            out.startField("value", 1);
                            out.addLong(e.getValue());
                            out.endField("value", 1);
                            out.endGroup();
                        }
                        out.endField("key_value", 0);
                    }
                    out.endGroup();
                }
                case SACK_BLOCKS -> throw new IllegalArgumentException("SACK_BLOCKS");
            }
        }

        private Binary binary(String s) {
            Binary b = encoded.get(s);
            if (b == null) {
                b = Binary.fromString(s);
                if (encoded.size() < MAX_CACHED_STRINGS) {
                    encoded.put(s, b);
                }
            }
            return b;
        }

        private void startList(int n) {
            out.startGroup();
            if (n > 0) {
                out.startField("list", 0);
            }
        }

        private void element(Runnable value) {
            out.startGroup();
            out.startField("element", 0);
            value.run();
            out.endField("element", 0);
            out.endGroup();
        }

        private void endList(int n) {
            if (n > 0) {
                out.endField("list", 0);
            }
            out.endGroup();
        }
    }

}
