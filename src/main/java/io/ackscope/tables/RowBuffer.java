package io.ackscope.tables;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One row of a {@link TableSchema} being built, reused for every row a task writes: primitives go to primitive
 * arrays (no boxing), everything else to an object slot. Columns may be set in any order; a column not set is null.
 * {@link ParquetTableWriter} writes it; tests read it back with {@link #toObjects()}.
 */
public final class RowBuffer {
    private final TableSchema schema;
    /** The schema's column types (an array: every setter checks its column's type). */
    private final ColumnType[] types;
    private final boolean[] present;
    private final long[] longs;
    private final double[] doubles;
    private final Object[] refs;

    public RowBuffer(TableSchema schema) {
        this.schema = schema;
        int n = schema.columns().size();
        types = new ColumnType[n];
        for (int i = 0; i < n; i++) {
            types[i] = schema.column(i).type();
        }
        present = new boolean[n];
        longs = new long[n];
        doubles = new double[n];
        refs = new Object[n];
    }

    public TableSchema schema() {
        return schema;
    }

    /** Makes every column null; call before filling a row. */
    public RowBuffer clear() {
        Arrays.fill(present, false);
        Arrays.fill(refs, null);
        return this;
    }

    public RowBuffer setBoolean(int i, boolean v) {
        check(i, ColumnType.BOOLEAN);
        longs[i] = v ? 1 : 0;
        present[i] = true;
        return this;
    }

    public RowBuffer setInt(int i, int v) {
        check(i, ColumnType.INT);
        longs[i] = v;
        present[i] = true;
        return this;
    }

    public RowBuffer setLong(int i, long v) {
        check(i, ColumnType.LONG);
        longs[i] = v;
        present[i] = true;
        return this;
    }

    public RowBuffer setDouble(int i, double v) {
        check(i, ColumnType.DOUBLE);
        doubles[i] = v;
        present[i] = true;
        return this;
    }

    /** Sets a TIMESTAMP column from nanoseconds since the epoch (stored as microseconds, rounded down). */
    public RowBuffer setTimestampNanos(int i, long nanos) {
        check(i, ColumnType.TIMESTAMP);
        longs[i] = Math.floorDiv(nanos, 1000L);
        present[i] = true;
        return this;
    }

    /** Sets a STRING (null stays null). */
    public RowBuffer setString(int i, String v) {
        check(i, ColumnType.STRING);
        return setRef(i, v);
    }

    public RowBuffer setBinary(int i, byte[] v) {
        check(i, ColumnType.BINARY);
        return setRef(i, v);
    }

    public RowBuffer setStringList(int i, List<String> v) {
        check(i, ColumnType.STRING_LIST);
        return setRef(i, v == null ? null : List.copyOf(v));
    }

    public RowBuffer setIntList(int i, int[] v) {
        check(i, ColumnType.INT_LIST);
        return setRef(i, v == null ? null : v.clone());
    }

    public RowBuffer setLongList(int i, long[] v) {
        check(i, ColumnType.LONG_LIST);
        return setRef(i, v == null ? null : v.clone());
    }

    /** Sets a map column; iteration order of {@code v} is the order written. */
    public RowBuffer setStringLongMap(int i, Map<String, Long> v) {
        check(i, ColumnType.STRING_LONG_MAP);
        return setRef(i, v);
    }

    private RowBuffer setRef(int i, Object v) {
        refs[i] = v;
        present[i] = v != null;
        return this;
    }

    private void check(int i, ColumnType t) {
        if (types[i] != t) {
            throw new IllegalArgumentException(schema.name() + "." + schema.column(i).name() + " is "
                    + schema.column(i).type() + ", not " + t);
        }
    }

    public boolean isSet(int i) {
        return present[i];
    }

    /** The value of a STRING column, or null when it is not set. */
    public String stringAt(int i) {
        return present[i] ? (String) refs[i] : null;
    }

    long longAt(int i) {
        return longs[i];
    }

    double doubleAt(int i) {
        return doubles[i];
    }

    Object refAt(int i) {
        return refs[i];
    }

    /**
     * The row as values in the form Spark's {@code Row.get} returns them after reading the table back
     * (Integer, Long, Double, Boolean, String, byte[], Long microseconds for TIMESTAMP, List, Map), so rows written
     * by a job can be compared with rows made directly. Nulls stay null.
     */
    public Object[] toObjects() {
        Object[] out = new Object[present.length];
        for (int i = 0; i < out.length; i++) {
            if (!present[i]) {
                continue;
            }
            switch (schema.column(i).type()) {
                case BOOLEAN -> out[i] = longs[i] != 0;
                case INT -> out[i] = (int) longs[i];
                case LONG, TIMESTAMP -> out[i] = longs[i];
                case DOUBLE -> out[i] = doubles[i];
                case INT_LIST -> out[i] = Arrays.stream((int[]) refs[i]).boxed().toList();
                case LONG_LIST -> out[i] = Arrays.stream((long[]) refs[i]).boxed().toList();
                default -> out[i] = refs[i];
            }
        }
        return out;
    }
}
