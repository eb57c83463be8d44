package io.ackscope.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;

import java.io.IOException;

/**
 * A {@link PrettyPrinter} where each object or array has its own {@link Layout}, so one document can hold a compact
 * array inside indented blocks, as a golden file that reads as a diff wants. Call {@link #next} before
 * {@code writeStartObject} or {@code writeStartArray}; an object or array with no layout named is
 * {@link Layout#COMPACT}. An empty object or array is {@code {}} or {@code []} whatever its layout.
 * One instance per generator: it keeps the stack of open layouts.
 */
public final class LayoutPrinter implements PrettyPrinter {
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

    private final Layout[] layouts = new Layout[MAX_DEPTH];
    private int depth;
    private Layout next = Layout.COMPACT;

    /** The layout of the next object or array started. */
    public LayoutPrinter next(Layout layout) {
        next = layout;
        return this;
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw('\n');
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
        push();
        g.writeRaw('{');
    }

    @Override
    public void writeEndObject(JsonGenerator g, int entries) throws IOException {
        close(g, entries, '}');
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
        separate(g);
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(layouts[depth - 1] == Layout.COMPACT ? ":" : ": ");
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
        push();
        g.writeRaw('[');
    }

    @Override
    public void writeEndArray(JsonGenerator g, int values) throws IOException {
        close(g, values, ']');
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
        separate(g);
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) throws IOException {
        first(g);
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) throws IOException {
        first(g);
    }

    private void push() {
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("nested deeper than " + MAX_DEPTH);
        }
        layouts[depth++] = next;
        next = Layout.COMPACT;
    }

    private void first(JsonGenerator g) throws IOException {
        if (layouts[depth - 1] == Layout.BLOCK) {
            newline(g, depth);
        }
    }

    private void separate(JsonGenerator g) throws IOException {
        Layout layout = layouts[depth - 1];
        g.writeRaw(layout == Layout.LINE ? ", " : ",");
        if (layout == Layout.BLOCK) {
            newline(g, depth);
        }
    }

    private void close(JsonGenerator g, int entries, char end) throws IOException {
        depth--;
        if (layouts[depth] == Layout.BLOCK && entries > 0) {
            newline(g, depth);
        }
        g.writeRaw(end);
    }

    private static void newline(JsonGenerator g, int level) throws IOException {
        g.writeRaw('\n');
        for (int i = 0; i < level; i++) {
            g.writeRaw("  ");
        }
    }
}
