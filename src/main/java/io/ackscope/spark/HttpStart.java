package io.ackscope.spark;

/**
 * Whether a payload may start an HTTP/1.x request line ({@code TOKEN SP ...}, the token 1-16 upper-case letters)
 * or status line ({@code HTTP/1.}). It accepts every payload the engine's HTTP parser accepts, and few others, so
 * {@code analyze} can shuffle the payload prefix only for those segments and still give the engine what it needs.
 * Of a status line the engine reads only {@code "HTTP/1.x NNN"} and the byte after it, so {@link #keep} keeps just
 * those 13 bytes of a response (most analyze shuffle bytes were response headers and bodies before).
 */
final class HttpStart {
    private static final int MAX_METHOD = 16;
    private static final byte[] STATUS = {'H', 'T', 'T', 'P', '/', '1', '.'};

    private HttpStart() {
    }

    /** Bytes of a status line the engine's HTTP parser reads: "HTTP/1.x NNN" and the byte after it. */
    static final int STATUS_LINE_BYTES = 13;

    /**
     * How many of the payload bytes {@code b[off, off + len)} the engine needs: 0 when they cannot start an HTTP/1.x
     * message, at most {@link #STATUS_LINE_BYTES} of a status line, all of a request's (its Host header may be
     * anywhere in them).
     */
    static int keep(byte[] b, int off, int len) {
        if (!mayBe(b, off, len)) {
            return 0;
        }
        return b[off] == 'H' && len >= STATUS.length && b[off + 4] == '/' ? Math.min(len, STATUS_LINE_BYTES) : len;
    }

    static boolean mayBe(byte[] b, int off, int len) {
        int i = 0;
        while (i < len && i <= MAX_METHOD && b[off + i] >= 'A' && b[off + i] <= 'Z') {
            i++;
        }
        if (i > 0 && i <= MAX_METHOD && i < len && b[off + i] == ' ') {
            return true;
        }
        if (len < STATUS.length) {
            return false;
        }
        for (int k = 0; k < STATUS.length; k++) {
            if (b[off + k] != STATUS[k]) {
                return false;
            }
        }
        return true;
    }
}
