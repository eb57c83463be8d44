package io.ackscope.report;

import io.ackscope.json.JsonWriter;
import io.ackscope.json.JsonWriter.Layout;

import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;

/**
 * {@link ReportData} as JSON, one value per line with two-space indentation and record components in declaration
 * order, so that a golden file of it reads as a diff. A record of scalars (a table row: a file, a request, a
 * flow-graph arrow) stays on one line, and so does an array of longs. Strings are escaped by {@link JsonWriter},
 * which shows every character that would not show as {@code \}{@code uXXXX}, so capture bytes cannot hide in the file.
 */
public final class Json {
    private Json() {
    }

    public static String of(Object value) {
        StringBuilder sb = new StringBuilder(4096);
        write(new JsonWriter(sb), value);
        return sb.append('\n').toString();
    }

    private static void write(JsonWriter w, Object v) {
        if (v == null) {
            w.nullValue();
        } else if (v instanceof String s) {
            w.value(s);
        } else if (v instanceof Double d) {
            w.value(d, 6);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            w.value(((Number) v).longValue());
        } else if (v instanceof Boolean b) {
            w.value(b);
        } else if (v instanceof Enum<?> e) {
            w.value(e.name());
        } else if (v instanceof long[] a) {
            w.beginArray(Layout.COMPACT);
            for (long x : a) {
                w.value(x);
            }
            w.end();
        } else if (v instanceof Collection<?> c) {
            w.beginArray(Layout.BLOCK);
            for (Object o : c) {
                write(w, o);
            }
            w.end();
        } else if (v instanceof Map<?, ?> m) {
            w.beginObject(Layout.BLOCK);
            for (Map.Entry<?, ?> e : m.entrySet()) {
                write(w.name(String.valueOf(e.getKey())), e.getValue());
            }
            w.end();
        } else if (v instanceof Record r) {
            RecordComponent[] components = r.getClass().getRecordComponents();
            boolean flat = true;
            for (RecordComponent c : components) {
                flat &= isScalar(get(r, c));
            }
            w.beginObject(flat ? Layout.LINE : Layout.BLOCK);
            for (RecordComponent c : components) {
                write(w.name(c.getName()), get(r, c));
            }
            w.end();
        } else {
            throw new IllegalArgumentException("no JSON form for " + v.getClass());
        }
    }

    private static Object get(Record r, RecordComponent c) {
        try {
            return c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isScalar(Object v) {
        return v == null || v instanceof String || v instanceof Number || v instanceof Boolean || v instanceof Enum;
    }
}
