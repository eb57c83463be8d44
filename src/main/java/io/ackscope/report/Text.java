package io.ackscope.report;

import io.ackscope.json.Json;

/**
 * Untrusted text (anything that came from a capture: file names, HTTP fields, payload bytes, evidence that quotes
 * them) made safe for the page: cut to a bound, characters that would not show made visible, and escaped for HTML
 * text and attribute values alike. Everything the renderer writes that it did not write itself goes through
 * {@link #html}.
 */
final class Text {
    private Text() {
    }

    /** Default bound for one piece of untrusted text on the page. */
    static final int MAX_CHARS = 200;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * Characters that would not show as themselves, or could change how the text around them reads: C0 and C1
     * controls, DEL, line and paragraph separators, zero-width and bidirectional formatting characters and the BOM
     * ({@link Json#isHidden}, the same set the report's JSON escapes); lone surrogates are handled by
     * {@link #visible}.
     */
    static boolean isHidden(char c) {
        return Json.isHidden(c);
    }

    /**
     * {@code s} cut to {@code max} characters (marked with "…") with every hidden character made visible in plain
     * ASCII, which every font can show: C0 and C1 controls and DEL as {@code \xNN}, the others as
     * a backslash, "u" and four hex digits; a lone surrogate becomes U+FFFD.
     */
    static String visible(String s, int max) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), max) + 8);
        int n = Math.min(s.length(), max);
        if (n < s.length() && n > 0 && Character.isHighSurrogate(s.charAt(n - 1))) {
            n--;
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                boolean pair = Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1));
                if (pair) {
                    sb.append(c).append(s.charAt(++i));
                } else {
                    sb.append('\uFFFD');
                }
            } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
                sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            } else if (isHidden(c)) {
                sb.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF])
                        .append(HEX[c & 0xF]);
            } else {
                sb.append(c);
            }
        }
        if (n < s.length()) {
            sb.append('…');
        }
        return sb.toString();
    }

    /** Appends {@code s} bounded, made visible and escaped (safe in element text and in quoted attributes). */
    static void html(StringBuilder out, String s, int max) {
        escape(out, visible(s, max));
    }

    static void html(StringBuilder out, String s) {
        html(out, s, MAX_CHARS);
    }

    /** Escapes the five characters with meaning in HTML text or attribute values. */
    static void escape(StringBuilder out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
    }
}
