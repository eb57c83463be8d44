package io.ackscope.cli;

/**
 * Text bound for a terminal, made safe: file names and anything taken from a capture may hold escape sequences that
 * would drive the terminal (change colours, move the cursor, set the window title), so every control character is
 * shown as its escape instead: {@code \x1b} for ESC, {@code \x0a} for a newline, backslash-u-2028 for a Unicode
 * line separator. Bidirectional overrides are escaped too, since they make text display in another order than it reads.
 * Every command prints names through {@link #escape(String)}.
 */
final class TerminalText {
    private TerminalText() {
    }

    /** {@code s} with control, line-separator and bidi-control characters as backslash-x-NN or backslash-u-NNNN. */
    static String escape(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (unsafe(c)) {
                if (sb == null) {
                    sb = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                sb.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static boolean unsafe(char c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069') || c == '\u200e' || c == '\u200f' || c == '\u061c';
    }
}
