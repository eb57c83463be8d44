package io.ackscope.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.ackscope.json.Json;
import io.ackscope.json.LayoutPrinter;
import io.ackscope.json.LayoutPrinter.Layout;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;

/**
 * {@link ReportData} as JSON, one value per line with two-space indentation and record components in declaration
 * order, so that a golden file of it reads as a diff. A record of scalars (a table row: a file, a request, a
 * flow-graph arrow) stays on one line, and so does an array of longs. Strings are escaped by {@link Json},
 * which shows every character that would not show as {@code \}{@code uXXXX}, so capture bytes cannot hide in the file.
 */
public final class ReportJson {
    private ReportJson() {
    }

    public static String of(Object value) {
        StringWriter out = new StringWriter(4096);
        LayoutPrinter layout = new LayoutPrinter();
        try (JsonGenerator g = Json.generator(out, layout)) {
            write(g, layout, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.append('\n').toString();
    }

    private static void write(JsonGenerator w, LayoutPrinter layout, Object v) throws IOException {
        if (v == null) {
            w.writeNull();
        } else if (v instanceof String s) {
            w.writeString(s);
        } else if (v instanceof Double d) {
            Json.number(w, d, 6);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            w.writeNumber(((Number) v).longValue());
        } else if (v instanceof Boolean b) {
            w.writeBoolean(b);
        } else if (v instanceof Enum<?> e) {
            w.writeString(e.name());
        } else if (v instanceof long[] a) {
            layout.next(Layout.COMPACT);
            w.writeStartArray();
            for (long x : a) {
                w.writeNumber(x);
            }
            w.writeEndArray();
        } else if (v instanceof Collection<?> c) {
            layout.next(Layout.BLOCK);
            w.writeStartArray();
            for (Object o : c) {
                write(w, layout, o);
            }
            w.writeEndArray();
        } else if (v instanceof Map<?, ?> m) {
            layout.next(Layout.BLOCK);
            w.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                w.writeFieldName(String.valueOf(e.getKey()));
                write(w, layout, e.getValue());
            }
            w.writeEndObject();
        } else if (v instanceof Record r) {
            RecordComponent[] components = r.getClass().getRecordComponents();
            boolean flat = true;
            for (RecordComponent c : components) {
                flat &= isScalar(get(r, c));
            }
            layout.next(flat ? Layout.LINE : Layout.BLOCK);
            w.writeStartObject();
            for (RecordComponent c : components) {
                w.writeFieldName(c.getName());
                write(w, layout, get(r, c));
            }
            w.writeEndObject();
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
