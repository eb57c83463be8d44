package io.ackscope.tables;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decodes one column of one row group into the arrays of a {@link TableReader.Batch}: scalars into
 * {@link TableReader.LongColumn}s or {@code String[]}, lists into {@code long[][]}, string-to-long maps into
 * {@code Map}s. Flat INT32, INT64 and string chunks go straight from their pages ({@link PageColumns}) when the
 * row group's metadata is given; everything else through parquet-mr's column readers. Repeated strings of up to 64
 * bytes share one instance through the caller's {@code strings} map, which the caller bounds.
 */
final class ColumnChunks {
    private ColumnChunks() {
    }

    /**
     * Column {@code column} (a top-level field of the projection {@code schema}) of the row group {@code pages}, as
     * {@code rows} values: a {@link TableReader.LongColumn}, {@code String[]}, {@code long[][]} or a list of maps.
     * {@code block} is the row group's metadata, or null to read every chunk through {@code store}'s column readers;
     * {@code strings} and {@code pageStrings} are the caller's shared-instance maps. A shape other than these is an
     * {@link IOException} naming the column.
     */
    static Object read(PageReadStore pages, ColumnReadStoreImpl store, BlockMetaData block, MessageType schema,
                       String column, int rows, Map<Binary, String> strings, Map<String, String> pageStrings)
            throws IOException {
        List<ColumnDescriptor> leaves = new ArrayList<>();
        for (ColumnDescriptor d : schema.getColumns()) {
            if (d.getPath()[0].equals(column)) {
                leaves.add(d);
            }
        }
        ColumnDescriptor first = leaves.get(0);
        if (first.getMaxRepetitionLevel() == 0) {
            // flat INT32, INT64 and string chunks straight from their pages (PageColumns), unless block is null
            ColumnChunkMetaData meta = block != null ? chunk(block, first) : null;
            if (meta != null && PageColumns.decodes(first, meta)) {
                return isString(first.getPrimitiveType())
                        ? PageColumns.strings(pages.getPageReader(first), first, rows, pageStrings)
                        : PageColumns.longs(pages.getPageReader(first), first, rows);
            }
            return scalar(store.getColumnReader(first), first, rows, strings);
        }
        if (leaves.size() == 1) {
            return longLists(store.getColumnReader(first), first, rows);
        }
        if (leaves.size() == 2 && isString(first.getPrimitiveType())) {
            String[][] keys = stringLists(store.getColumnReader(first), first, rows, strings);
            long[][] values = longLists(store.getColumnReader(leaves.get(1)), leaves.get(1), rows);
            List<Map<String, Long>> maps = new ArrayList<>(rows);
            for (int i = 0; i < rows; i++) {
                Map<String, Long> m = new java.util.LinkedHashMap<>();
                for (int k = 0; k < keys[i].length; k++) {
                    m.put(keys[i][k], values[i][k]);
                }
                maps.add(m);
            }
            return maps;
        }
        throw new IOException("column " + column + " has a shape the report does not read");
    }

    private static ColumnChunkMetaData chunk(BlockMetaData block, ColumnDescriptor d) {
        for (ColumnChunkMetaData c : block.getColumns()) {
            if (java.util.Arrays.equals(c.getPath().toArray(), d.getPath())) {
                return c;
            }
        }
        return null;
    }

    private static boolean isString(PrimitiveType t) {
        return t.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY;
    }

    private static Object scalar(ColumnReader r, ColumnDescriptor d, int rows, Map<Binary, String> strings)
            throws IOException {
        int maxDef = d.getMaxDefinitionLevel();
        PrimitiveType.PrimitiveTypeName t = d.getPrimitiveType().getPrimitiveTypeName();
        if (t == PrimitiveType.PrimitiveTypeName.BINARY) {
            String[] out = new String[rows];
            for (int i = 0; i < rows; i++) {
                if (r.getCurrentDefinitionLevel() == maxDef) {
                    out[i] = string(r.getBinary(), strings);
                }
                r.consume();
            }
            return out;
        }
        TableReader.LongColumn out = t == PrimitiveType.PrimitiveTypeName.DOUBLE ? new TableReader.DoubleColumn(rows) : new TableReader.LongColumn(rows);
        for (int i = 0; i < rows; i++) {
            if (r.getCurrentDefinitionLevel() == maxDef) {
                out.present[i] = true;
                out.values[i] = switch (t) {
                    case INT64 -> r.getLong();
                    case INT32 -> r.getInteger();
                    case BOOLEAN -> r.getBoolean() ? 1 : 0;
                    case DOUBLE -> Math.round(((TableReader.DoubleColumn) out).exact[i] = r.getDouble());
                    default -> throw new IOException(d + ": type " + t + " is not read by the report");
                };
            }
            r.consume();
        }
        return out;
    }

    /** Reads a list column (3-level list, or the key or value leaf of a map): one array per row. */
    private static long[][] longLists(ColumnReader r, ColumnDescriptor d, int rows) {
        int maxDef = d.getMaxDefinitionLevel();
        boolean int32 = d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32;
        long[][] out = new long[rows][];
        long[] buf = new long[64];
        for (int i = 0; i < rows; i++) {
            int n = 0;
            do {
                if (r.getCurrentDefinitionLevel() == maxDef) {
                    if (n == buf.length) {
                        buf = java.util.Arrays.copyOf(buf, n * 2);
                    }
                    buf[n++] = int32 ? r.getInteger() : r.getLong();
                }
                r.consume();
            } while (r.getCurrentRepetitionLevel() > 0);
            out[i] = java.util.Arrays.copyOf(buf, n);
        }
        return out;
    }

    private static String[][] stringLists(ColumnReader r, ColumnDescriptor d, int rows, Map<Binary, String> strings) {
        int maxDef = d.getMaxDefinitionLevel();
        String[][] out = new String[rows][];
        List<String> buf = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            buf.clear();
            do {
                if (r.getCurrentDefinitionLevel() == maxDef) {
                    buf.add(string(r.getBinary(), strings));
                }
                r.consume();
            } while (r.getCurrentRepetitionLevel() > 0);
            out[i] = buf.toArray(new String[0]);
        }
        return out;
    }

    private static String string(Binary b, Map<Binary, String> strings) {
        String s = strings.get(b);
        if (s == null) {
            s = b.toStringUsingUTF8();
            if (b.length() <= 64) {
                strings.put(b.copy(), s);
            }
        }
        return s;
    }
}
