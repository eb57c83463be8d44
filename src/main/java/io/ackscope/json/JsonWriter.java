package io.ackscope.json;

import java.util.Locale;

/**
 * Writes JSON (RFC 8259) into a {@link StringBuilder}, value by value, with the commas, colons and indentation
 * placed for the caller; each object or array says how it is laid out ({@link Layout}), so one document can hold a
 * compact array inside indented blocks, as a golden file that reads as a diff wants.
 *
 * <p>Strings may come from a capture or a command line, so besides what RFC 8259 requires ({@code "}, {@code \} and
 * the C0 controls) every character that would not show ({@link #isHidden}: DEL, C1 controls, zero-width and bidi
 * controls, line and paragraph separators, BOM) is written as {@code \}{@code uXXXX}: nothing can hide in the
 * text or reorder it on screen. Non-finite numbers are written as {@code null}.
 *
 * <p>Misuse (a value where a name is due, more ends than begins) throws {@link IllegalStateException}: a
 * programming error, not bad input.
 */
public final class JsonWriter {
    /** How the members of an object or the elements of an array are laid out. */
    public enum Layout {
        /** {@code {"a":1,"b":2}}: no spaces, for machines. */
        COMPACT,
        /** {@code {"a": 1, "b": 2}}: one line, spaces after colons and commas, for a row of a table. */
        LINE,
        /** One member per line, indented by two spaces per level of nesting. */
        BLOCK
    }

    private static final int MAX_DEPTH = 64;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder sb;
    private final Layout[] layouts = new Layout[MAX_DEPTH];
    private final boolean[] objects = new boolean[MAX_DEPTH];
    private final int[] counts = new int[MAX_DEPTH];
    private int depth;
    private boolean nameWritten;

    public JsonWriter(StringBuilder sb) {
        this.sb = sb;
    }

    public JsonWriter beginObject(Layout layout) {
        return begin(layout, true, '{');
    }

    public JsonWriter beginArray(Layout layout) {
        return begin(layout, false, '[');
    }

    /** Closes the innermost object or array; an empty one is {@code {}} or {@code []} whatever its layout. */
    public JsonWriter end() {
        if (depth == 0 || nameWritten) {
            throw new IllegalStateException(depth == 0 ? "nothing to end" : "a name without a value");
        }
        depth--;
        if (layouts[depth] == Layout.BLOCK && counts[depth] > 0) {
            newline(depth);
        }
        sb.append(objects[depth] ? '}' : ']');
        return this;
    }

    /** The name of the next member of the innermost object. */
    public JsonWriter name(String name) {
        if (depth == 0 || !objects[depth - 1] || nameWritten) {
            throw new IllegalStateException("a name outside an object: " + name);
        }
        separate();
        string(sb, name);
        sb.append(layouts[depth - 1] == Layout.COMPACT ? ":" : ": ");
        nameWritten = true;
        return this;
    }

    /** A string, or {@code null}. */
    public JsonWriter value(String s) {
        if (s == null) {
            return nullValue();
        }
        beforeValue();
        string(sb, s);
        return this;
    }

    public JsonWriter value(long v) {
        beforeValue();
        sb.append(v);
        return this;
    }

    public JsonWriter value(boolean v) {
        beforeValue();
        sb.append(v);
        return this;
    }

    /** {@code v} with {@code decimals} digits after the point, or {@code null} when it is not finite. */
    public JsonWriter value(double v, int decimals) {
        if (!Double.isFinite(v)) {
            return nullValue();
        }
        beforeValue();
        sb.append(String.format(Locale.ROOT, "%." + decimals + "f", v));
        return this;
    }

    /** {@code v} exactly, in plain notation (no exponent). */
    public JsonWriter value(java.math.BigDecimal v) {
        beforeValue();
        sb.append(v.toPlainString());
        return this;
    }

    public JsonWriter nullValue() {
        beforeValue();
        sb.append("null");
        return this;
    }

    /**
     * Whether {@code c} would not show as itself: C0 and C1 controls, DEL, zero-width and bidi controls
     * (U+200B-U+200F, U+202A-U+202E, U+2060-U+206F), line and paragraph separators, and the BOM.
     */
    public static boolean isHidden(char c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || (c >= 0x200B && c <= 0x200F)
                || (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF;
    }

    /** Appends {@code s} as a JSON string: quotes, {@code \"}, {@code \\}, {@code \n}, {@code \t}, hidden as uXXXX. */
    public static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (isHidden(c)) {
                        sb.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF])
                                .append(HEX[c & 0xF]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    private JsonWriter begin(Layout layout, boolean object, char open) {
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("nested deeper than " + MAX_DEPTH);
        }
        beforeValue();
        sb.append(open);
        layouts[depth] = layout;
        objects[depth] = object;
        counts[depth] = 0;
        depth++;
        return this;
    }

    /** Places the separator before an array element, or checks that an object member has its name. */
    private void beforeValue() {
        if (depth == 0) {
            return;
        }
        if (objects[depth - 1]) {
            if (!nameWritten) {
                throw new IllegalStateException("a value without a name in an object");
            }
            nameWritten = false;
        } else {
            separate();
        }
    }

    private void separate() {
        int d = depth - 1;
        Layout layout = layouts[d];
        if (counts[d]++ > 0) {
            sb.append(layout == Layout.LINE ? ", " : ",");
        }
        if (layout == Layout.BLOCK) {
            newline(depth);
        }
    }

    private void newline(int level) {
        sb.append('\n');
        for (int i = 0; i < level; i++) {
            sb.append("  ");
        }
    }
}
