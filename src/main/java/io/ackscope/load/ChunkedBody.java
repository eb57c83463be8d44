package io.ackscope.load;

import io.ackscope.load.HttpParser.Malformed;

import java.nio.ByteBuffer;

/**
 * The chunked transfer coding of one message body (RFC 9112 §7.1) for {@link HttpParser}: chunk-size lines (with
 * extensions, which are skipped), chunk data skipped in bulk, and the CRLF after each chunk, up to the end of the
 * last-chunk line. The trailer section after it is the parser's (it is a header section). Allocates nothing.
 */
final class ChunkedBody {

    private static final int SIZE = 0;
    private static final int EXTENSION = 1;
    private static final int SIZE_LF = 2;
    private static final int DATA = 3;
    private static final int DATA_CR = 4;
    private static final int DATA_LF = 5;
    /** The last chunk's size line was read: the trailer section follows. */
    private static final int LAST_CHUNK = 6;
    private static final int FAILED = 7;

    private int state;
    private int lineLen;
    private int digits;
    private long remaining;
    private Malformed malformed;

    /** Starts reading a chunked body (or the next chunk of one) at a chunk-size line. */
    void start() {
        state = SIZE;
        lineLen = 0;
        digits = 0;
        remaining = 0;
        malformed = null;
    }

    /**
     * Consumes bytes of {@code buf} from {@code p} up to {@code limit}, stopping just past the last chunk's size
     * line or the byte that made the body malformed.
     *
     * @return the position after the bytes consumed
     */
    int feed(ByteBuffer buf, int p, int limit) {
        while (p < limit && state < LAST_CHUNK) {
            if (state == DATA) {
                int n = (int) Math.min(remaining, limit - p);
                remaining -= n;
                if (remaining == 0) {
                    state = DATA_CR;
                }
                p += n;
            } else {
                lineByte(buf.get(p++));
            }
        }
        return p;
    }

    /** The last chunk was read; the trailer section comes next. */
    boolean lastChunkRead() {
        return state == LAST_CHUNK;
    }

    /** Why the body is malformed ({@link Malformed#CHUNK_SIZE} or {@link Malformed#CHUNK_END}), or null. */
    Malformed malformed() {
        return malformed;
    }

    private void lineByte(byte b) {
        switch (state) {
            case SIZE:
                sizeByte(b);
                return;
            case EXTENSION:
                if (++lineLen > HttpParser.MAX_CHUNK_LINE) {
                    fail(Malformed.CHUNK_SIZE);
                } else if (b == '\n') {
                    sizeDone();
                }
                return;
            case SIZE_LF:
                if (b == '\n') {
                    sizeDone();
                } else {
                    fail(Malformed.CHUNK_SIZE);
                }
                return;
            case DATA_CR:
                if (b == '\r') {
                    state = DATA_LF;
                } else if (b == '\n') {
                    start();
                } else {
                    fail(Malformed.CHUNK_END);
                }
                return;
            case DATA_LF:
                if (b == '\n') {
                    start();
                } else {
                    fail(Malformed.CHUNK_END);
                }
                return;
            default:
                throw new IllegalStateException("state " + state);
        }
    }

    /** A byte of {@code chunk-size [ chunk-ext ] CRLF}. */
    private void sizeByte(byte b) {
        if (++lineLen > HttpParser.MAX_CHUNK_LINE) {
            fail(Malformed.CHUNK_SIZE);
            return;
        }
        int d = hex(b);
        if (d >= 0) {
            if ((remaining != 0 || d != 0) && ++digits > HttpParser.MAX_CHUNK_SIZE_DIGITS) {
                fail(Malformed.CHUNK_SIZE);
                return;
            }
            remaining = (remaining << 4) | d;
        } else if (lineLen == 1) {
            fail(Malformed.CHUNK_SIZE);
        } else if (b == ';' || b == ' ' || b == '\t') {
            state = EXTENSION;
        } else if (b == '\r') {
            state = SIZE_LF;
        } else if (b == '\n') {
            sizeDone();
        } else {
            fail(Malformed.CHUNK_SIZE);
        }
    }

    private void sizeDone() {
        state = remaining == 0 ? LAST_CHUNK : DATA;
    }

    private void fail(Malformed why) {
        malformed = why;
        state = FAILED;
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }
}
