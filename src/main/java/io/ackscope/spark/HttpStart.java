package io.ackscope.spark;

/**
 * Whether a payload may start an HTTP/1.x request line ({@code TOKEN SP ...}, the token 1-16 upper-case letters)
 * or status line ({@code HTTP/1.}). It accepts every payload the engine's HTTP parser accepts, and few others, so
 * {@code analyze} can shuffle the payload prefix only for those segments and still give the engine what it needs.
 */
final class HttpStart {
    private static final int MAX_METHOD = 16;
    private static final byte[] STATUS = {'H', 'T', 'T', 'P', '/', '1', '.'};

    private HttpStart() {
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
