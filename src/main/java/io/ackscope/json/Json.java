package io.ackscope.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerationException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * The one home of JSON: one configured Jackson {@link ObjectMapper} ({@link #MAPPER}) that every reader and writer
 * of JSON in ackscope uses, its compact and pretty writers, and streaming {@link JsonGenerator}s from the same
 * factory for the outputs written value by value (no object graph).
 *
 * <p>Strings may come from a capture or a command line, so besides what RFC 8259 requires ({@code "}, {@code \} and
 * the C0 controls) every generator of this factory writes as {@code \}{@code uXXXX} (lower-case hex):
 * <ul>
 *   <li>every character that would not show ({@link #isHidden}: DEL, C1 controls, zero-width and bidi controls,
 *       line and paragraph separators, BOM), so nothing can hide in the text or reorder it on screen;</li>
 *   <li>{@code <}, {@code >} and {@code &}, so no string can close a {@code <script>} or start an entity or a
 *       comment when the JSON is embedded in HTML.</li>
 * </ul>
 * Only {@code \n}, {@code \t}, {@code \"} and {@code \\} use the short form. Non-ASCII text that shows is written
 * as itself (UTF-8). Maps are written in key order, so output built from a map is deterministic; a tree
 * ({@code ObjectNode}) keeps its insertion order.
 */
public final class Json {
    /** The one mapper: trees and values in, compact JSON out, with the escaping above. */
    public static final ObjectMapper MAPPER = JsonMapper.builder(factory())
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();

    private Json() {
    }

    /** Writes value by value; {@link #string} collects what it writes. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    /** The mapper's writer with Jackson's default pretty printer (two-space indentation, {@code "a" : 1}). */
    public static ObjectWriter pretty() {
        return PRETTY;
    }

    /**
     * A compact streaming generator over {@code out}; closing it flushes but does not close {@code out}, and does
     * not end what is open (a write that failed half-way leaves no value that looks complete).
     */
    public static JsonGenerator generator(Writer out) throws IOException {
        JsonGenerator g = MAPPER.getFactory().createGenerator(out);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
        return g;
    }

    /**
     * A compact generator over {@code out} for JSON Lines: nothing is written between top-level values, so the
     * caller ends each with {@code writeRaw('\n')}.
     */
    public static JsonGenerator lines(Writer out) throws IOException {
        JsonGenerator g = generator(out);
        g.setRootValueSeparator(null);
        return g;
    }

    /** A generator over {@code out} laid out by {@code printer} (see {@link LayoutPrinter}). */
    public static JsonGenerator generator(Writer out, LayoutPrinter printer) throws IOException {
        JsonGenerator g = generator(out);
        g.setPrettyPrinter(printer);
        return g;
    }

    /**
     * What {@code body} writes to a compact generator, as a string. Misuse (a value where a name is due, an end
     * without a start) throws {@link IllegalStateException}: a programming error, not bad input.
     */
    public static String string(Body body) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = generator(out)) {
            body.write(g);
        } catch (JsonGenerationException e) {
            throw new IllegalStateException(e.getOriginalMessage(), e); // a value where a name is due, and the like
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /** {@code v} with {@code decimals} digits after the point ({@code 1.500}), or {@code null} when not finite. */
    public static void number(JsonGenerator g, double v, int decimals) throws IOException {
        if (Double.isFinite(v)) {
            g.writeNumber(String.format(Locale.ROOT, "%." + decimals + "f", v));
        } else {
            g.writeNull();
        }
    }

    /** {@code v} exactly, in plain notation (no exponent): {@code 1.000000}, not {@code 1E-6}. */
    public static void number(JsonGenerator g, BigDecimal v) throws IOException {
        g.writeNumber(v.toPlainString());
    }

    /** A string, or {@code null}. */
    public static void string(JsonGenerator g, String s) throws IOException {
        if (s == null) {
            g.writeNull();
        } else {
            g.writeString(s);
        }
    }

    /**
     * Whether {@code c} would not show as itself: C0 and C1 controls, DEL, zero-width and bidi controls
     * (U+200B-U+200F, U+202A-U+202E, U+2060-U+206F), line and paragraph separators, and the BOM.
     */
    public static boolean isHidden(char c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || (c >= 0x200B && c <= 0x200F)
                || (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF;
    }

    private static JsonFactory factory() {
        JsonFactory f = JsonFactory.builder()
                .configure(JsonWriteFeature.WRITE_HEX_UPPER_CASE, false)
                .build();
        f.setCharacterEscapes(new Escapes());
        return f;
    }

    /** The escaping described on {@link Json}. */
    private static final class Escapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private static final char[] HEX = "0123456789abcdef".toCharArray();

        private final int[] ascii;

        Escapes() {
            ascii = standardAsciiEscapesForJSON();
            for (int c = 0; c < 0x20; c++) {
                ascii[c] = c == '\n' || c == '\t' ? ascii[c] : ESCAPE_STANDARD;
            }
            ascii[0x7F] = ESCAPE_STANDARD;
            ascii['<'] = ESCAPE_STANDARD;
            ascii['>'] = ESCAPE_STANDARD;
            ascii['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch > 0xFFFF || !isHidden((char) ch)) {
                return null;
            }
            return new SerializedString(new String(new char[] {'\\', 'u', HEX[ch >> 12], HEX[(ch >> 8) & 0xF],
                    HEX[(ch >> 4) & 0xF], HEX[ch & 0xF]}));
        }
    }
}
