package io.ackscope.load;

/**
 * The start line of an {@link HttpParser} message (RFC 9112 §3, §4): a response's status line
 * {@code HTTP/d.d ddd[ reason]} or a request line {@code METHOD SP request-target SP HTTP/d.d}, checked byte by
 * byte. Keeps the status code, the version and whether the method is HEAD. Allocates nothing.
 */
final class StartLine {

    private static final int STATUS = 0;
    private static final int STATUS_LF = 1;
    private static final int METHOD = 2;
    private static final int TARGET = 3;
    private static final int VERSION = 4;
    private static final int START_LF = 5;
    private static final int HEADER_START = 6; // the line is complete
    private static final int FAILED = 7;

    private static final byte[] HTTP_SLASH = HeaderLine.ascii("HTTP/");
    private static final byte[] HEAD = HeaderLine.ascii("HEAD");

    private int state;
    private int lineLen;
    private int status;
    private int versionMinor;
    private int versionMajor;
    private boolean head;

    /** Starts reading a request line ({@code request}) or a status line. */
    void start(boolean request) {
        state = request ? METHOD : STATUS;
        lineLen = 0;
        status = 0;
        versionMajor = 0;
        versionMinor = 0;
        head = request;
    }

    /** Reads one byte of the line, its line end included. */
    void lineByte(byte b) {
        switch (state) {
            case STATUS:
                statusByte(b);
                return;
            case STATUS_LF:
                state = b == '\n' ? HEADER_START : FAILED;
                return;
            default:
                requestLineByte(b);
        }
    }

    /** The whole line, line end included, was read. */
    boolean done() {
        return state == HEADER_START;
    }

    /** The line is not a status line (request line) as RFC 9112 writes it. */
    boolean failed() {
        return state == FAILED;
    }

    int status() {
        return status;
    }

    /** Whether the request's method is HEAD (when reading a request line). */
    boolean head() {
        return head;
    }

    /** HTTP/1.1 or later: persistent connections by default. */
    boolean http11() {
        return versionMajor > 1 || (versionMajor == 1 && versionMinor >= 1);
    }

    private void fail() {
        state = FAILED;
    }

    /** Status line {@code HTTP/d.d ddd[ reason]}, checked position by position. */
    private void statusByte(byte b) {
        int i = lineLen++;
        if (i < 8) {
            if (!versionByte(i, b)) {
                fail();
            }
        } else if (i == 8) {
            if (b != ' ') {
                fail();
            }
        } else if (i <= 11) {
            if (b < '0' || b > '9') {
                fail();
            } else {
                status = status * 10 + (b - '0');
            }
        } else if (b == '\n') {
            state = HEADER_START;
        } else if (b == '\r') {
            state = STATUS_LF;
        } else if (i == 12 && b != ' ') {
            fail();
        }
        // after "HTTP/d.d ddd ": the reason phrase, any bytes up to the line end
    }

    /** Byte {@code i} (0 to 7) of {@code HTTP/d.d}; records the version digits. */
    private boolean versionByte(int i, byte b) {
        if (i < 5) {
            return b == HTTP_SLASH[i];
        }
        if (i == 6) {
            return b == '.';
        }
        if (b < '0' || b > '9') {
            return false;
        }
        if (i == 5) {
            versionMajor = b - '0';
        } else {
            versionMinor = b - '0';
        }
        return true;
    }

    /** Request line {@code METHOD SP request-target SP HTTP/d.d}; lineLen counts bytes of the current part. */
    private void requestLineByte(byte b) {
        int i = lineLen++;
        switch (state) {
            case METHOD:
                if (b == ' ' && i > 0) {
                    head &= i == HEAD.length;
                    state = TARGET;
                    lineLen = 0;
                } else if (HeaderLine.isTchar(b)) {
                    head &= i < HEAD.length && b == HEAD[i];
                } else {
                    fail();
                }
                return;
            case TARGET:
                if (b == ' ' && i > 0) {
                    state = VERSION;
                    lineLen = 0;
                } else if (b <= ' ' || b == 0x7f) {
                    fail();
                }
                return;
            case VERSION:
                if (i < 8 ? !versionByte(i, b) : i > 8 || (b != '\r' && b != '\n')) {
                    fail();
                } else if (i == 8) {
                    state = b == '\r' ? START_LF : HEADER_START;
                }
                return;
            case START_LF:
                if (b == '\n') {
                    state = HEADER_START;
                } else {
                    fail();
                }
                return;
            default:
                throw new IllegalStateException("state " + state);
        }
    }

}
