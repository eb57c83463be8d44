package io.ackscope.spark;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.List;

/**
 * An output table: name, description and columns. Spark schema, Parquet schema and {@code docs/schema.md} are all
 * derived from this one definition.
 */
public final class TableSchema {
    private final String name;
    private final String doc;
    private final List<Column> columns;
    private final StructType struct;

    public TableSchema(String name, String doc, List<Column> columns) {
        this.name = name;
        this.doc = doc;
        this.columns = List.copyOf(columns);
        StructField[] fields = new StructField[columns.size()];
        for (int i = 0; i < fields.length; i++) {
            Column c = columns.get(i);
            Metadata md = new MetadataBuilder().putString("comment", c.doc()).build();
            fields[i] = DataTypes.createStructField(c.name(), c.type().sparkType(), c.nullable(), md);
        }
        this.struct = DataTypes.createStructType(fields);
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

    /** The Spark schema (each field carries its documentation as the {@code comment} metadata). */
    public StructType sparkSchema() {
        return struct;
    }
}
