package io.ackscope.tables;

/**
 * The column types ackscope's tables use, spelled as Spark SQL prints them (in {@code docs/schema.md}; the Spark
 * types themselves are made in {@code spark}, which knows Spark). Timestamps are microseconds since the epoch, UTC,
 * stored in Parquet as {@code INT64 TIMESTAMP(MICROS, true)} (Spark's {@code TIMESTAMP}).
 */
public enum ColumnType {
    BOOLEAN("boolean"),
    INT("int"),
    LONG("bigint"),
    DOUBLE("double"),
    STRING("string"),
    BINARY("binary"),
    TIMESTAMP("timestamp"),
    STRING_LIST("array<string>"),
    INT_LIST("array<int>"),
    LONG_LIST("array<bigint>"),
    /** Counts keyed by a name, such as skipped frames per reason. */
    STRING_LONG_MAP("map<string,bigint>"),
    /** TCP SACK blocks: left and right edges (raw sequence numbers). */
    SACK_BLOCKS("array<struct<left:bigint,right:bigint>>");

    private final String sql;

    ColumnType(String sql) {
        this.sql = sql;
    }

    /** The type as Spark SQL prints it. */
    public String sql() {
        return sql;
    }
}
