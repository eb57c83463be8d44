package io.ackscope.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * The column types ackscope's tables use, with their Spark type and how they are spelled in {@code docs/schema.md}.
 * Timestamps are Spark {@code TIMESTAMP} (microseconds since the epoch, UTC), stored in Parquet as
 * {@code INT64 TIMESTAMP(MICROS, true)}.
 */
public enum ColumnType {
    BOOLEAN(DataTypes.BooleanType, "boolean"),
    INT(DataTypes.IntegerType, "int"),
    LONG(DataTypes.LongType, "bigint"),
    DOUBLE(DataTypes.DoubleType, "double"),
    STRING(DataTypes.StringType, "string"),
    BINARY(DataTypes.BinaryType, "binary"),
    TIMESTAMP(DataTypes.TimestampType, "timestamp"),
    STRING_LIST(DataTypes.createArrayType(DataTypes.StringType, false), "array<string>"),
    INT_LIST(DataTypes.createArrayType(DataTypes.IntegerType, false), "array<int>"),
    LONG_LIST(DataTypes.createArrayType(DataTypes.LongType, false), "array<bigint>"),
    /** Counts keyed by a name, such as skipped frames per reason. */
    STRING_LONG_MAP(DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, false), "map<string,bigint>"),
    /** TCP SACK blocks: left and right edges (raw sequence numbers). */
    SACK_BLOCKS(DataTypes.createArrayType(DataTypes.createStructType(new StructField[]{
            DataTypes.createStructField("left", DataTypes.LongType, false),
            DataTypes.createStructField("right", DataTypes.LongType, false)}), false),
            "array<struct<left:bigint,right:bigint>>");

    private final DataType sparkType;
    private final String sql;

    ColumnType(DataType sparkType, String sql) {
        this.sparkType = sparkType;
        this.sql = sql;
    }

    public DataType sparkType() {
        return sparkType;
    }

    /** The type as Spark SQL prints it. */
    public String sql() {
        return sql;
    }
}
