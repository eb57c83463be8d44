package io.ackscope.tables;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.LongUnaryOperator;

/**
 * Writes a copy of a {@link ParquetTableWriter} file in which one required INT64 column's values are mapped: that
 * column's chunks are decoded and encoded again as {@link ParquetTableWriter} encodes them (same pages, statistics
 * and indexes as a file written with the mapped values), every other column chunk, with its column and offset index,
 * is copied as bytes ({@link ParquetFileWriter#appendColumnChunk}), and the row groups, the schema and the key-value
 * metadata stay as they were. A row keeps its place: row {@code i} of the copy is row {@code i} of the file with the
 * one value mapped.
 *
 * <p>{@code analyze} numbers connections this way after a single engine pass: its tables are written with each
 * connection's first-appearance key in {@code stream}, and the keys are mapped to stream numbers once every task's
 * keys are known.
 */
public final class LongColumnRewrite {
    private LongColumnRewrite() {
    }

    /**
     * Copies {@code in} to {@code out} ({@link ParquetFileWriter.Mode#CREATE}: it must not exist) with every value
     * {@code v} of column {@code column} replaced by {@code map(v)}.
     *
     * @throws IllegalArgumentException if the file has no such column, or it is not a required top-level INT64
     */
    public static void rewrite(InputFile in, OutputFile out, String column, LongUnaryOperator map)
            throws IOException {
        try (ParquetFileReader r = ParquetFileReader.open(in); SeekableInputStream raw = in.newStream()) {
            ParquetMetadata footer = r.getFooter();
            MessageType schema = footer.getFileMetaData().getSchema();
            if (!schema.containsPath(new String[]{column})) {
                throw new IllegalArgumentException(in + " has no column " + column);
            }
            ColumnDescriptor target = schema.getColumnDescription(new String[]{column});
            if (target.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.INT64
                    || target.getMaxDefinitionLevel() != 0 || target.getMaxRepetitionLevel() != 0) {
                throw new IllegalArgumentException(in + ": " + column + " is not a required INT64 column");
            }
            MessageType projection = new MessageType(schema.getName(), schema.getType(column));
            r.setRequestedSchema(projection);
            String createdBy = footer.getFileMetaData().getCreatedBy();
            // the same writer settings as ParquetTableWriter's file writer
            ParquetFileWriter w = new ParquetFileWriter(out, schema, ParquetFileWriter.Mode.CREATE,
                    ParquetTableWriter.ROW_GROUP_BYTES, ParquetWriter.MAX_PADDING_SIZE_DEFAULT, null,
                    ParquetProperties.builder().build());
            w.start();
            LeafChunk chunk = new LeafChunk(target, ParquetTableWriter.dictionaryEncoded(ColumnType.LONG),
                    new PageCompressor());
            for (int b = 0; b < footer.getBlocks().size(); b++) {
                BlockMetaData block = footer.getBlocks().get(b);
                PageReadStore pages = r.readRowGroup(b);
                ColumnReader values = new ColumnReadStoreImpl(pages, new Ignored(projection), projection, createdBy)
                        .getColumnReader(target);
                for (long i = 0; i < block.getRowCount(); i++) {
                    chunk.writeLong(map.applyAsLong(values.getLong()), 0, 0);
                    values.consume();
                }
                w.startBlock(block.getRowCount());
                for (ColumnChunkMetaData c : block.getColumns()) {
                    if (Arrays.equals(c.getPath().toArray(), target.getPath())) {
                        chunk.flush(w);
                    } else {
                        w.appendColumnChunk(schema.getColumnDescription(c.getPath().toArray()), raw, c, null,
                                r.readColumnIndex(c), r.readOffsetIndex(c));
                    }
                }
                w.endBlock();
            }
            w.end(footer.getFileMetaData().getKeyValueMetaData());
        }
    }

    /**
     * The converters a {@link ColumnReadStoreImpl} asks for; the values are taken from the column reader itself
     * ({@link ColumnReader#getLong}), so nothing reaches them.
     */
    private static final class Ignored extends GroupConverter {
        private final PrimitiveConverter leaf = new PrimitiveConverter() {
        };
        private final MessageType schema;

        Ignored(MessageType schema) {
            this.schema = schema;
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            Type t = schema.getType(fieldIndex);
            if (!t.isPrimitive()) {
                throw new IllegalStateException("only a flat projection is read: " + t);
            }
            return leaf;
        }

        @Override
        public void start() {
        }

        @Override
        public void end() {
        }
    }
}
