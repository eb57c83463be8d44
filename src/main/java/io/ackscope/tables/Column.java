package io.ackscope.tables;

/**
 * One column of an output table: the single definition its Spark schema, Parquet schema and documentation come from.
 *
 * @param name     snake_case in the tables' one vocabulary ({@code docs/schema.md}, checked by {@code VocabularyTest}):
 *                 instants (TIMESTAMP) end in {@code _time}, durations in {@code _us} (microseconds), frame numbers
 *                 in {@code _frame}, byte counts in {@code _bytes}
 * @param type     column type
 * @param nullable whether the column may be null (for example a field of a layer the frame does not have)
 * @param unit     unit of the value ("µs", "bytes", "frames", ...) or "" when it has none
 * @param doc      what the value means, for {@code docs/schema.md}
 */
public record Column(String name, ColumnType type, boolean nullable, String unit, String doc) {
}
