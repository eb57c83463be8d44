package io.ackscope.tables;

import java.util.List;

/**
 * An output table: name, description and columns. The Parquet schema ({@link ParquetTableWriter#parquetSchema}),
 * the Spark schema (made in {@code spark}) and {@code docs/schema.md} ({@link SchemaDoc}) all come from this one
 * definition, and readers name their columns by its {@link Column}s.
 */
public final class TableSchema {
    /**
     * Version of the tables' schemas as a whole, raised when a column of any table is added, renamed or removed:
     * {@code _SUCCESS} records it ({@code "schema_version"}) and so does every Parquet file the tables' writer makes
     * (key-value metadata {@link #VERSION_KEY}). 1: before it was recorded; 2: {@code uid} in every engine table, the
 * server endpoint in their child tables; 3: one vocabulary ({@code *_time}, {@code *_frame}, the stall columns
     * by part and holder; {@link SchemaDoc#V3_RENAMES}), the acting host's address in the side tables, the peer
     * columns of {@code connections} and the tables of two vantage points ({@link VantageTables}); 4: tables
     * Hive-partitioned by {@code source=} (and {@code date=}; {@link HivePath}), {@code file_index} the file's
     * position in its source; 5: {@code connection_causes}.
     */
    public static final int VERSION = 6;
    /** The Parquet key-value metadata key of {@link #VERSION}. */
    public static final String VERSION_KEY = "ackscope.schema_version";

    private final String name;
    private final String doc;
    private final List<Column> columns;

    public TableSchema(String name, String doc, List<Column> columns) {
        this.name = name;
        this.doc = doc;
        this.columns = List.copyOf(columns);
    }

    public String name() {
        return name;
    }

    public String doc() {
        return doc;
    }

    public List<Column> columns() {
        return columns;
    }

    public Column column(int ordinal) {
        return columns.get(ordinal);
    }

    /** Ordinal of the named column; throws if the table has no such column. */
    public int ordinal(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name + " has no column " + column);
    }

    /** The named column; throws if the table has no such column. */
    public Column column(String column) {
        return columns.get(ordinal(column));
    }
}
