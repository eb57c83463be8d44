package io.ackscope.tcp;

import java.util.Arrays;

/**
 * Reads an HTTP/1.x request line and Host header, or a status line, from the start of a segment's payload.
 *
 * <p>The bytes are attacker-controlled: every value is cut at a named bound, and any byte outside printable
 * ASCII becomes {@code '?'}. Nothing here throws on any input. Results are Strings (allocated only when the payload
 * really starts like HTTP, once per exchange).
 */
final class HttpPeek {
    /** Longer targets are cut (and marked with a trailing "..."). */
    static final int MAX_TARGET = 256;
    static final int MAX_HOST = 128;

    String method;
    String target;
    String host;
    int status;

    private HttpPeek() {
    }

    /**
     * Parses a request; returns null when the bytes do not start with "METHOD SP target SP HTTP/1." (the method as
     * {@link HttpStartLine} has it).
     */
    static HttpPeek request(byte[] b, int len) {
        int tEnd = targetEnd(b, len);
        if (tEnd < 0) {
            return null;
        }
        int i = HttpStartLine.methodLength(b, 0, len);
        int tStart = i + 1;
        HttpPeek p = new HttpPeek();
        p.method = text(b, 0, i, HttpStartLine.MAX_METHOD);
        p.target = text(b, tStart, tEnd, MAX_TARGET);
        p.status = -1;
        int h = findHeader(b, tEnd, len, "host:");
        if (h >= 0) {
            while (h < len && (b[h] == ' ' || b[h] == '\t')) {
                h++;
            }
            int e = h;
            while (e < len && b[e] != '\r' && b[e] != '\n') {
                e++;
            }
            int end = e;
            while (end > h && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
                end--;
            }
            p.host = text(b, h, end, MAX_HOST);
        }
        return p;
    }

    /** True when {@link #request} would parse {@code b}: a test that allocates nothing. */
    static boolean isRequest(byte[] b, int len) {
        return targetEnd(b, len) >= 0;
    }

    /**
     * Where the request line's target ends in {@code b} (its first byte is after the method and a space), or -1 when
     * the bytes do not start with "METHOD SP target SP HTTP/1.".
     */
    private static int targetEnd(byte[] b, int len) {
        int i = HttpStartLine.methodLength(b, 0, len);
        if (i == 0) {
            return -1;
        }
        int tStart = i + 1;
        int tEnd = tStart;
        while (tEnd < len && b[tEnd] != ' ' && b[tEnd] != '\r' && b[tEnd] != '\n') {
            tEnd++;
        }
        if (tEnd == tStart) {
            return -1;
        }
        // The version must follow when it was captured; a request line cut by the prefix is still accepted.
        if (tEnd < len && (b[tEnd] != ' ' || !startsWith(b, tEnd + 1, len, "HTTP/1."))) {
            return -1;
        }
        return tEnd;
    }

    /** Parses "HTTP/1.x NNN" (a status line as {@link HttpStartLine} has it, of version 1.x); the code or -1. */
    static int status(byte[] b, int len) {
        if (len < 12 || !HttpStartLine.isStatusLine(b, 0, len) || b[5] != '1' || b[6] != '.' || b[8] != ' ') {
            return -1;
        }
        int v = 0;
        for (int i = 9; i < 12; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return -1;
            }
            v = v * 10 + (b[i] - '0');
        }
        return (len == 12 || b[12] == ' ' || b[12] == '\r') ? v : -1;
    }

    private static boolean startsWith(byte[] b, int off, int len, String s) {
        if (off + s.length() > len) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (b[off + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Offset just after "\nNAME" (case-insensitive, name given in lower case) in b[from, len), or -1. */
    private static int findHeader(byte[] b, int from, int len, String lowerName) {
        int n = lowerName.length();
        for (int i = from; i + 1 + n <= len; i++) {
            if (b[i] != '\n') {
                continue;
            }
            int k = 0;
            while (k < n && Character.toLowerCase((char) (b[i + 1 + k] & 0xff)) == lowerName.charAt(k)) {
                k++;
            }
            if (k == n) {
                return i + 1 + n;
            }
        }
        return -1;
    }

    /**
     * The texts {@link #text} made last, direct-mapped by their bytes: a capture's requests mostly repeat a few
     * methods, targets and hosts, and equal texts then share one String, which the tables' dictionaries find by
     * identity instead of comparing characters. Entries are immutable, so threads racing on a slot see a whole entry
     * or another one.
     */
    private static final Text[] TEXTS = new Text[1024];

    private record Text(byte[] bytes, String text) {
    }

    /** The printable text of {@code b[from, to)}, cut at {@code max} bytes (see {@link #printable}). */
    private static String text(byte[] b, int from, int to, int max) {
        if (to - from > max) {
            return printable(b, from, to, max);
        }
        int h = 1;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        int slot = (h ^ (h >>> 16)) & (TEXTS.length - 1);
        Text t = TEXTS[slot];
        if (t != null && Arrays.equals(t.bytes, 0, t.bytes.length, b, from, to)) {
            return t.text;
        }
        String s = printable(b, from, to, max);
        TEXTS[slot] = new Text(Arrays.copyOfRange(b, from, to), s);
        return s;
    }

    /** {@code b[from, to)} with every byte outside printable ASCII as '?', cut at {@code max} bytes and marked. */
    private static String printable(byte[] b, int from, int to, int max) {
        boolean cut = to - from > max;
        int end = cut ? from + max : to;
        char[] c = new char[end - from + (cut ? 3 : 0)];
        for (int i = from; i < end; i++) {
            int v = b[i] & 0xff;
            c[i - from] = (v >= 0x20 && v < 0x7f) ? (char) v : '?';
        }
        if (cut) {
            c[c.length - 3] = '.';
            c[c.length - 2] = '.';
            c[c.length - 1] = '.';
        }
        return new String(c);
    }
}
