package io.ackscope.tables;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
     * @throws IllegalArgumentException if the file has no such column, or it is not a required top-level INT64, or
     *                                  its pages are not PLAIN v1 pages (as {@link ParquetTableWriter} writes it)
     */
    public static void rewrite(InputFile in, OutputFile out, String column, LongUnaryOperator map)
            throws IOException {
        try (ParquetFileReader r = ParquetFiles.open(in); SeekableInputStream raw = in.newStream()) {
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
            // the same writer settings as ParquetTableWriter's file writer
            ParquetFileWriter w = new ParquetFileWriter(out, schema, ParquetFileWriter.Mode.CREATE,
                    ParquetTableWriter.ROW_GROUP_BYTES, ParquetWriter.MAX_PADDING_SIZE_DEFAULT, null,
                    ParquetProperties.builder().build());
            w.start();
            LeafChunk chunk = new LeafChunk(target, ParquetTableWriter.dictionaryEncoded(ColumnType.LONG),
                    new PageCompressor());
            for (int b = 0; b < footer.getBlocks().size(); b++) {
                BlockMetaData block = footer.getBlocks().get(b);
                PageReader pages = r.readRowGroup(b).getPageReader(target);
                long mapped = 0;
                for (DataPage p = pages.readPage(); p != null; p = pages.readPage()) {
                    // a required flat column's v1 page is its values alone (no levels); PLAIN is 8 bytes a value
                    if (!(p instanceof DataPageV1 v1) || v1.getValueEncoding() != Encoding.PLAIN) {
                        throw new IllegalArgumentException(in + ": " + column + " has a page that is not a PLAIN v1"
                                + " page");
                    }
                    ByteBuffer values = v1.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                    for (int i = 0; i < v1.getValueCount(); i++) {
                        chunk.writeLong(map.applyAsLong(values.getLong()), 0, 0);
                    }
                    mapped += v1.getValueCount();
                }
                if (mapped != block.getRowCount()) {
                    throw new IllegalArgumentException(in + ": " + column + " has " + mapped + " values in a row group"
                            + " of " + block.getRowCount() + " rows");
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
}
