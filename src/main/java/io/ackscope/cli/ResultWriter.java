package io.ackscope.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.ackscope.json.Json;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Writes query results as an aligned table (as DuckDB's and psql's shells print them), CSV (RFC 4180, header row)
 * or JSON Lines (one object per row, as Spark's JSON writer). Values print the same in every form: timestamps as
 * ISO-8601 UTC with microseconds, null as empty (table, CSV) or {@code null} (JSON). Table cells are escaped for
 * the terminal (capture text is untrusted) and cut at {@link #MAX_CELL} characters; CSV and JSON keep the data.
 */
final class ResultWriter {

    /** Longest cell shown in the table form. */
    static final int MAX_CELL = 80;

    private static final DateTimeFormatter ISO_MICROS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private ResultWriter() {
    }

    /** The text of one value; null stays null. */
    static String text(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Instant i) {
            return ISO_MICROS.format(i);
        }
        if (v instanceof java.sql.Timestamp t) {
            return ISO_MICROS.format(t.toInstant());
        }
        if (v instanceof LocalDate d) {
            return d.toString();
        }
        if (v instanceof byte[] b) {
            StringBuilder sb = new StringBuilder(2 * b.length);
            for (byte x : b) {
                sb.append(String.format(Locale.ROOT, "%02x", x & 0xff));
            }
            return sb.toString();
        }
        if (v instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? d.toString() : BigDecimal.valueOf(d).stripTrailingZeros()
                    .toPlainString();
        }
        if (v instanceof scala.collection.Iterable<?> it) {
            List<String> parts = new ArrayList<>();
            it.foreach(x -> parts.add(String.valueOf(text(x))));
            return "[" + String.join(", ", parts) + "]";
        }
        return v.toString();
    }

    /**
     * Writes at most {@code maxRows} rows as an aligned table, then a line saying how many rows there were and
     * whether some were left out.
     */
    static void table(StructType schema, Iterator<Row> rows, int maxRows, Writer out) throws IOException {
        String[] names = schema.fieldNames();
        List<String[]> cells = new ArrayList<>();
        long total = 0;
        while (rows.hasNext()) {
            Row r = rows.next();
            total++;
            if (cells.size() < maxRows) {
                String[] c = new String[names.length];
                for (int i = 0; i < names.length; i++) {
                    String t = text(r.get(i));
                    c[i] = t == null ? "" : cut(TerminalText.escape(t));
                }
                cells.add(c);
            }
        }
        int[] width = new int[names.length];
        boolean[] right = new boolean[names.length];
        for (int i = 0; i < names.length; i++) {
            width[i] = TerminalText.escape(names[i]).length();
            StructField f = schema.fields()[i];
            right[i] = f.dataType() instanceof org.apache.spark.sql.types.NumericType;
        }
        for (String[] c : cells) {
            for (int i = 0; i < c.length; i++) {
                width[i] = Math.max(width[i], c[i].length());
            }
        }
        line(out, escapeAll(names), width, right, true);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < width.length; i++) {
            rule.append(i > 0 ? "-+-" : "").append("-".repeat(width[i]));
        }
        out.write(rule.append('\n').toString());
        for (String[] c : cells) {
            line(out, c, width, right, false);
        }
        out.write("(" + total + (total == 1 ? " row" : " rows")
                + (total > cells.size() ? ", " + cells.size() + " shown; --max-rows, --format csv or --out for all"
                : "") + ")\n");
    }

    private static String[] escapeAll(String[] names) {
        String[] e = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            e[i] = TerminalText.escape(names[i]);
        }
        return e;
    }

    private static String cut(String s) {
        return s.length() <= MAX_CELL ? s : s.substring(0, MAX_CELL - 3) + "...";
    }

    private static void line(Writer out, String[] c, int[] width, boolean[] right, boolean header)
            throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.length; i++) {
            sb.append(i > 0 ? " | " : "");
            String pad = " ".repeat(width[i] - c[i].length());
            if (right[i] && !header) {
                sb.append(pad).append(c[i]);
            } else {
                sb.append(c[i]).append(i < c.length - 1 ? pad : "");
            }
        }
        out.write(sb.append('\n').toString());
    }

    /** Writes every row as CSV with a header row; returns the rows written. */
    static long csv(StructType schema, Iterator<Row> rows, Writer out) throws IOException {
        String[] names = schema.fieldNames();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            sb.append(i > 0 ? "," : "").append(csvCell(names[i]));
        }
        out.write(sb.append("\r\n").toString());
        long n = 0;
        while (rows.hasNext()) {
            Row r = rows.next();
            sb.setLength(0);
            for (int i = 0; i < names.length; i++) {
                String t = text(r.get(i));
                sb.append(i > 0 ? "," : "").append(t == null ? "" : csvCell(t));
            }
            out.write(sb.append("\r\n").toString());
            n++;
        }
        return n;
    }

    private static String csvCell(String s) {
        boolean quote = s.isEmpty() || s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0
                || s.indexOf('\r') >= 0;
        return quote ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    /** Writes every row as one JSON object per line, through the one JSON factory ({@link Json}); returns the rows. */
    static long jsonLines(StructType schema, Iterator<Row> rows, Writer out) throws IOException {
        String[] names = schema.fieldNames();
        long n = 0;
        try (JsonGenerator w = Json.lines(out)) {
            while (rows.hasNext()) {
                Row r = rows.next();
                w.writeStartObject();
                for (int i = 0; i < names.length; i++) {
                    w.writeFieldName(names[i]);
                    Object v = r.get(i);
                    if (v == null || (v instanceof Double d && (d.isNaN() || d.isInfinite()))) {
                        w.writeNull();
                    } else if (v instanceof Boolean b) {
                        w.writeBoolean(b);
                    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                        w.writeNumber(((Number) v).longValue());
                    } else if (v instanceof Number) {
                        Json.number(w, new BigDecimal(text(v)));
                    } else {
                        w.writeString(text(v));
                    }
                }
                w.writeEndObject();
                w.writeRaw('\n');
                n++;
            }
        }
        return n;
    }
}
