package io.ackscope.report;

import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * {@link ReportData} as JSON, one value per line with two-space indentation and record components in declaration
 * order, so that a golden file of it reads as a diff. Strings are escaped per RFC 8259, and every
 * character that would not show ({@link Text#isHidden}) as {@code \}{@code uXXXX}, so capture bytes cannot hide
 * in the file.
 */
public final class Json {
    private Json() {
    }

    public static String of(Object value) {
        StringBuilder sb = new StringBuilder(4096);
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int depth) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            string(sb, s);
        } else if (v instanceof Double d) {
            sb.append(String.format(Locale.ROOT, "%.6f", d));
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Enum<?> e) {
            string(sb, e.name());
        } else if (v instanceof long[] a) {
            sb.append('[');
            for (int i = 0; i < a.length; i++) {
                sb.append(i > 0 ? "," : "").append(a[i]);
            }
            sb.append(']');
        } else if (v instanceof Collection<?> c) {
            if (c.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append('[');
            int i = 0;
            for (Object o : c) {
                sb.append(i++ > 0 ? "," : "");
                newline(sb, depth + 1);
                write(sb, o, depth + 1);
            }
            newline(sb, depth);
            sb.append(']');
        } else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append('{');
            int i = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(i++ > 0 ? "," : "");
                newline(sb, depth + 1);
                string(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                write(sb, e.getValue(), depth + 1);
            }
            newline(sb, depth);
            sb.append('}');
        } else if (v instanceof Record r) {
            // A record of scalars (a table row: a file, a request, a flow-graph arrow) stays on one line.
            RecordComponent[] components = r.getClass().getRecordComponents();
            boolean flat = true;
            for (RecordComponent c : components) {
                flat &= isScalar(get(r, c));
            }
            sb.append('{');
            int i = 0;
            for (RecordComponent c : components) {
                sb.append(i++ > 0 ? (flat ? ", " : ",") : "");
                if (!flat) {
                    newline(sb, depth + 1);
                }
                string(sb, c.getName());
                sb.append(": ");
                write(sb, get(r, c), depth + 1);
            }
            if (!flat) {
                newline(sb, depth);
            }
            sb.append('}');
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

    private static void newline(StringBuilder sb, int depth) {
        sb.append('\n');
        for (int i = 0; i < depth; i++) {
            sb.append("  ");
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (Text.isHidden(c)) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
