package io.ackscope.spark.source;

import io.ackscope.tables.Column;
import io.ackscope.tables.ColumnType;
import io.ackscope.tables.TableSchema;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Spark side of a {@link TableSchema}: its {@link StructType} (each field carrying its documentation as the
 * {@code comment} metadata), which the {@code pcap} data source reports and Parquet footers carry, so
 * {@code spark.read.parquet} gives back exactly this schema. The tables package knows no Spark; this is the one
 * place its column types meet Spark's.
 */
public final class SparkSchemas {
    private SparkSchemas() {
    }

    /** Footer key under which Spark's own writer stores the row schema (read back by {@code spark.read.parquet}). */
    public static final String ROW_METADATA = "org.apache.spark.sql.parquet.row.metadata";

    private static final Map<TableSchema, StructType> STRUCTS = new ConcurrentHashMap<>();

    /** The Spark schema of {@code table} (made once per table). */
    public static StructType of(TableSchema table) {
        return STRUCTS.computeIfAbsent(table, SparkSchemas::struct);
    }

    /** Footer metadata of a table file written for Spark: its Spark schema as JSON. */
    public static Map<String, String> footer(TableSchema table) {
        return Map.of(ROW_METADATA, of(table).json());
    }

    private static StructType struct(TableSchema table) {
        StructField[] fields = new StructField[table.columns().size()];
        for (int i = 0; i < fields.length; i++) {
            Column c = table.column(i);
            Metadata md = new MetadataBuilder().putString("comment", c.doc()).build();
            fields[i] = DataTypes.createStructField(c.name(), type(c.type()), c.nullable(), md);
        }
        return DataTypes.createStructType(fields);
    }

    static DataType type(ColumnType t) {
        return switch (t) {
            case BOOLEAN -> DataTypes.BooleanType;
            case INT -> DataTypes.IntegerType;
            case LONG -> DataTypes.LongType;
            case DOUBLE -> DataTypes.DoubleType;
            case STRING -> DataTypes.StringType;
            case BINARY -> DataTypes.BinaryType;
            case TIMESTAMP -> DataTypes.TimestampType;
            case STRING_LIST -> DataTypes.createArrayType(DataTypes.StringType, false);
            case INT_LIST -> DataTypes.createArrayType(DataTypes.IntegerType, false);
            case LONG_LIST -> DataTypes.createArrayType(DataTypes.LongType, false);
            case STRING_LONG_MAP -> DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, false);
            case SACK_BLOCKS -> DataTypes.createArrayType(DataTypes.createStructType(new StructField[]{
                    DataTypes.createStructField("left", DataTypes.LongType, false),
                    DataTypes.createStructField("right", DataTypes.LongType, false)}), false);
        };
    }
}
