package io.ackscope.report;

/**
 * The page being written, and the only ways to write to it: {@link #raw} for markup from constants (of
 * {@link HtmlReport}, {@link InputSection} and {@link Svg}), {@link #text} and {@link #capture} for everything else,
 * which is bounded, made visible and escaped ({@link Text#html}); and the table rows and cards the sections share.
 */
final class HtmlPage {
    final StringBuilder sb = new StringBuilder(256 * 1024);

    /** A row of a two-column table: {@code k} as its header cell, {@code v} as its value. */
    void row(String k, String v) {
        raw("<tr><th>");
        text(k);
        raw("</th><td>");
        text(v);
        raw("</td></tr>");
    }

    /** One table cell per value, each as text. */
    void cells(String... values) {
        for (String v : values) {
            raw("<td>");
            text(v);
            raw("</td>");
        }
    }

    /** Markup: the callers' constants, and numbers they format themselves. */
    void raw(String markup) {
        sb.append(markup);
    }

    /** Anything else: bounded, hidden characters made visible, escaped. */
    void text(String s) {
        Text.html(sb, s, 4000);
    }

    /** A string quoted from a capture (file name, HTTP field): as {@link #text}, with a tighter bound. */
    void capture(String s) {
        Text.html(sb, s, Text.MAX_CHARS);
    }

    /** A figure card: {@code value} large, {@code label} under it; {@code tone} "bad", "good" or null. */
    void card(String key, String value, String label, String tone) {
        raw("<div class=\"card" + (tone == null ? "" : " " + tone) + "\" data-card=\"" + key + "\"><div class=\"v\">");
        text(value);
        raw("</div><div class=\"l\">");
        text(label);
        raw("</div></div>");
    }
}
