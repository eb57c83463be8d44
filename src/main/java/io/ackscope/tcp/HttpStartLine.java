package io.ackscope.tcp;

/**
 * The one rule for "this payload starts an HTTP/1.x message", shared by the engine's exchange parser
 * ({@link HttpPeek}), analyze's shuffle filter (which keeps payload bytes only for such segments) and the report's
 * flow-graph labels, so that what one keeps the others can read.
 *
 * <p>The rule follows tshark's HTTP heuristic ({@code is_http_request_or_reply} in Wireshark's
 * {@code packet-http.c}): a response starts with {@code "HTTP/"}, whatever the version; a request starts with a
 * method and a space. Where it differs from tshark, on purpose: a method is any token of 1 to {@value #MAX_METHOD}
 * upper-case ASCII letters (tshark checks a list of about fifty known methods, which this superset contains but for
 * the hyphenated WebDAV ones), and neither tshark's {@code "M-"} prefix (RFC 2774) nor SHOUTcast's {@code "ICY"}
 * responses count. Parsing the version, status code and headers is {@link HttpPeek}'s job, not this class's.
 *
 * <p>Every method reads only {@code b[off, off + len)} and allocates nothing; the bytes are attacker-controlled.
 */
public final class HttpStartLine {
    /** RFC 9110 methods are short tokens; anything longer is not a method this project reports. */
    public static final int MAX_METHOD = 16;
    /** Bytes of a status line the engine's HTTP parser reads: {@code "HTTP/1.x NNN"} and the byte after it. */
    public static final int STATUS_LINE_BYTES = 13;

    private static final byte[] STATUS = {'H', 'T', 'T', 'P', '/'};

    private HttpStartLine() {
    }

    /** Length of the method when {@code b[off, off + len)} starts with 1-16 upper-case letters and a space, else 0. */
    public static int methodLength(byte[] b, int off, int len) {
        int i = 0;
        while (i < len && i <= MAX_METHOD && b[off + i] >= 'A' && b[off + i] <= 'Z') {
            i++;
        }
        return i > 0 && i <= MAX_METHOD && i < len && b[off + i] == ' ' ? i : 0;
    }

    /** Whether the bytes start with {@code "HTTP/"}, tshark's test for a response. */
    public static boolean isStatusLine(byte[] b, int off, int len) {
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

    /** Whether the bytes start an HTTP request or response. */
    public static boolean isStart(byte[] b, int off, int len) {
        return methodLength(b, off, len) > 0 || isStatusLine(b, off, len);
    }

    /**
     * How many of the bytes the engine needs to parse this segment as HTTP: all of a request's (its Host header may
     * be anywhere in them), at most {@link #STATUS_LINE_BYTES} of a response's, none when they start no message.
     */
    public static int bytesNeeded(byte[] b, int off, int len) {
        if (methodLength(b, off, len) > 0) {
            return len;
        }
        return isStatusLine(b, off, len) ? Math.min(len, STATUS_LINE_BYTES) : 0;
    }
}
