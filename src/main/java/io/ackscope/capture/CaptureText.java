package io.ackscope.capture;

import java.nio.charset.StandardCharsets;

/** Turns strings found in a capture (pcapng options) or an archive (file names) into bounded, printable text. */
public final class CaptureText {
    /** Longest string kept from one option; longer ones are cut and marked with "...". */
    static final int MAX_CHARS = 256;

    private CaptureText() {
    }

    /**
     * Decodes UTF-8 (malformed sequences become U+FFFD), drops trailing NULs, replaces control characters with
     * '?' so the text cannot drive a terminal, and cuts it at {@link #MAX_CHARS}.
     */
    static String of(byte[] b, int off, int len) {
        int end = off + len;
        while (end > off && b[end - 1] == 0) {
            end--;
        }
        int take = Math.min(end - off, MAX_CHARS * 4);
        String s = new String(b, off, take, StandardCharsets.UTF_8);
        boolean cut = take < end - off;
        if (s.length() > MAX_CHARS) {
            s = s.substring(0, MAX_CHARS);
            cut = true;
        }
        String out = terminal(s);
        return cut ? out + "..." : out;
    }

    /** {@code s} with control characters (and line and paragraph separators) replaced by '?': safe to print. */
    static String terminal(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                if (sb == null) {
                    sb = new StringBuilder(s);
                }
                sb.setCharAt(i, '?');
            }
        }
        return sb == null ? s : sb.toString();
    }
}
