package io.ackscope.load;

import java.nio.ByteBuffer;

/**
 * Incremental HTTP/1.1 message framer (RFC 9112): one instance per connection, fed whatever each {@code read()}
 * returned, however the message was split across reads. The load generator frames responses with it
 * ({@link #responses()}), the target server frames requests ({@link #requests()}).
 *
 * <p>It keeps only what those two need: the status code (responses) or whether the method is HEAD (requests), how
 * many bytes the message took, and whether the connection stays open. Bodies are skipped in bulk, never copied.
 * Nothing is allocated after construction; the parser holds no reference to the buffers it is fed.
 *
 * <p>Framing follows RFC 9112 §6.3: a response to a request has no body if it is 1xx, 204 or 304; a
 * {@code Transfer-Encoding} whose final coding is {@code chunked} wins over {@code Content-Length}; in a response,
 * any other transfer coding, or neither header, means the body runs to the end of the connection, while a request
 * with neither header has no body and one with another transfer coding is refused. Interim 1xx responses are
 * consumed as part of the response that follows them. Malformed input is a {@link Progress#MALFORMED} result with a
 * {@link Malformed} reason, never an exception. Bare LF is accepted as a line end (RFC 9112 §2.2 allows it);
 * obsolete line folding is not.
 */
public final class HttpParser {

    /**
     * Limit on a status line plus header section (and on the trailer section). RFC 9112 §2.3 leaves the limit to
     * the implementation; 64 KiB is above what any server in the lab sends and bounds what a hostile one can make
     * us scan before giving up.
     */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    /** Limit on one chunk-size line including chunk extensions (RFC 9112 §7.1.1 leaves it open too). */
    public static final int MAX_CHUNK_LINE = 4 * 1024;

    /** Significant hex digits of a chunk size: 15 keep the size below 2^60, far from overflow. */
    static final int MAX_CHUNK_SIZE_DIGITS = 15;

    /** Decimal digits of a Content-Length: 18 keep it below 10^18 &lt; 2^63. */
    static final int MAX_CONTENT_LENGTH_DIGITS = 18;

    /** Header bytes copied out of the fed buffer at a time. */
    private static final int SCRATCH = 512;

    /** Bytes kept of a header name or of a value we interpret; longer ones are not ones we interpret. */
    private static final int KEEP = 32;

    /** Result of {@link #feed} and {@link #onEof}. */
    public enum Progress {
        /** The message is not complete yet; every byte offered was consumed. */
        NEED_MORE,
        /** One message is complete; the buffer's position is just past its last byte. */
        COMPLETE,
        /** The bytes are not a message we can frame; see {@link #malformed()}. */
        MALFORMED
    }

    /** Why a message was not accepted. */
    public enum Malformed {
        /** Not {@code HTTP/d.d ddd ...}. */
        STATUS_LINE,
        /** Not {@code METHOD target HTTP/d.d}. */
        REQUEST_LINE,
        /** A header line without a colon, with an empty or invalid name, a stray CR, or obsolete folding. */
        HEADER_LINE,
        /** Status line and headers (or trailers) longer than {@link #MAX_HEADER_BYTES}. */
        HEADERS_TOO_LARGE,
        /** Content-Length empty, not decimal, too large, or two different values. */
        CONTENT_LENGTH,
        /** Transfer-Encoding value longer than the parser interprets, or a request not ending in chunked. */
        TRANSFER_ENCODING,
        /** Chunk size missing, not hex, too large, or its line longer than {@link #MAX_CHUNK_LINE}. */
        CHUNK_SIZE,
        /** Chunk data not followed by CRLF, or a bad line end after the trailer section. */
        CHUNK_END,
        /** 101 Switching Protocols: the connection no longer speaks HTTP/1.1. */
        UPGRADE,
        /** The connection closed in the middle of a message whose length was known. */
        TRUNCATED
    }

    // States, in order: header-section states (state < BODY), body states (state < DONE), then the two ends.
    private static final int STATUS = 0;
    private static final int STATUS_LF = 1;
    private static final int METHOD = 2;
    private static final int TARGET = 3;
    private static final int VERSION = 4;
    private static final int START_LF = 5;
    private static final int HEADER_START = 6;
    private static final int NAME = 7;
    private static final int VALUE_START = 8;
    private static final int VALUE = 9;
    private static final int VALUE_LF = 10;
    private static final int HEADERS_END_LF = 11;
    private static final int TRAILER_START = 12;
    private static final int TRAILER_LINE = 13;
    private static final int TRAILER_END_LF = 14;
    private static final int BODY = 15;
    private static final int CHUNK_SIZE = 16;
    private static final int CHUNK_EXT = 17;
    private static final int CHUNK_SIZE_LF = 18;
    private static final int CHUNK_DATA = 19;
    private static final int CHUNK_DATA_CR = 20;
    private static final int CHUNK_DATA_LF = 21;
    private static final int UNTIL_CLOSE = 22;
    private static final int DONE = 23;
    private static final int FAILED = 24;

    private static final int H_OTHER = 0;
    private static final int H_CONTENT_LENGTH = 1;
    private static final int H_TRANSFER_ENCODING = 2;
    private static final int H_CONNECTION = 3;

    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] HTTP_SLASH = ascii("HTTP/");

    private static final byte[] HEAD = ascii("HEAD");

    private final boolean request;
    private final byte[] name = new byte[KEEP];
    private final byte[] value = new byte[KEEP];
    /** Header bytes copied out of the buffer being fed; see {@link #feed}. */
    private final byte[] scratch = new byte[SCRATCH];

    private int state;
    private Malformed malformed;
    private long messageBytes;
    private int headerBytes;
    private int lineLen;
    private int status;
    private int versionMinor;
    private int versionMajor;
    private int nameLen;
    private int valueLen;
    private int header;
    private long contentLength;
    private boolean chunked;
    private boolean transferEncoding;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    /** Whether the body has its own framing (length, chunks or none) rather than ending with the connection. */
    private boolean framed;
    private long remaining;
    private int chunkDigits;
    private boolean head;

    private HttpParser(boolean request) {
        this.request = request;
        reset();
    }

    /** A parser for the responses a client reads (to requests other than HEAD or CONNECT). */
    public static HttpParser responses() {
        return new HttpParser(false);
    }

    /** A parser for the requests a server reads. */
    public static HttpParser requests() {
        return new HttpParser(true);
    }

    /** Forgets the previous message; call after {@link Progress#COMPLETE} before feeding the next one. */
    public void reset() {
        state = request ? METHOD : STATUS;
        malformed = null;
        messageBytes = 0;
        startHeaderSection();
    }

    private void startHeaderSection() {
        headerBytes = 0;
        lineLen = 0;
        status = 0;
        versionMajor = 0;
        versionMinor = 0;
        contentLength = -1;
        chunked = false;
        transferEncoding = false;
        connectionClose = false;
        connectionKeepAlive = false;
        framed = true;
        head = request;
    }

    /**
     * Consumes bytes from {@code buf}'s position up to its limit, stopping right after a complete message (any
     * bytes after it, such as a pipelined request, stay in the buffer). After {@code COMPLETE} or {@code MALFORMED}
     * the parser consumes nothing more until {@link #reset()}.
     */
    public Progress feed(ByteBuffer buf) {
        int p = buf.position();
        final int limit = buf.limit();
        final int start = p;
        while (p < limit && state < DONE) {
            if (state >= BODY) {
                p = body(buf, p, limit);
                continue;
            }
            // Header bytes are walked one by one: copy a run of them into a plain array first (one bulk get),
            // which is cheaper than a checked get per byte from a direct buffer.
            int n = Math.min(limit - p, scratch.length);
            buf.get(p, scratch, 0, n);
            int i = 0;
            while (i < n && state < BODY) {
                if (++headerBytes > MAX_HEADER_BYTES) {
                    fail(Malformed.HEADERS_TOO_LARGE);
                    break;
                }
                headerByte(scratch[i++]);
            }
            p += i;
        }
        buf.position(p);
        messageBytes += p - start;
        return progress();
    }

    /**
     * Tells the parser the peer closed the connection. A body delimited by the close is then complete; any other
     * started message is {@link Malformed#TRUNCATED}. Check {@link #started()} first to tell a clean close between
     * messages from a truncated one.
     */
    public Progress onEof() {
        if (state == UNTIL_CLOSE) {
            state = DONE;
        } else if (state < DONE) {
            fail(Malformed.TRUNCATED);
        }
        return progress();
    }

    /** Whether any byte of the current message was consumed. */
    public boolean started() {
        return messageBytes > 0;
    }

    /** Whether the request's method is HEAD (requests only), valid once its request line was read. */
    public boolean isHead() {
        return request && head;
    }

    /** Status code of the (final) response, valid once its status line was read; 0 for requests. */
    public int status() {
        return status;
    }

    /** Bytes the current message took so far, interim responses, headers, framing and trailers included. */
    public long messageBytes() {
        return messageBytes;
    }

    /** Whether the connection may carry another exchange after this {@code COMPLETE} message. */
    public boolean keepAlive() {
        if (connectionClose || !framed) {
            return false;
        }
        boolean http11 = versionMajor > 1 || (versionMajor == 1 && versionMinor >= 1);
        return http11 || connectionKeepAlive;
    }

    /** Reason of a {@code MALFORMED} result, or null. */
    public Malformed malformed() {
        return malformed;
    }

    private Progress progress() {
        if (state == DONE) {
            return Progress.COMPLETE;
        }
        return state == FAILED ? Progress.MALFORMED : Progress.NEED_MORE;
    }

    private void fail(Malformed why) {
        malformed = why;
        state = FAILED;
    }

    private int body(ByteBuffer buf, int p, int limit) {
        switch (state) {
            case BODY: {
                int n = (int) Math.min(remaining, limit - p);
                remaining -= n;
                if (remaining == 0) {
                    state = DONE;
                }
                return p + n;
            }
            case CHUNK_DATA: {
                int n = (int) Math.min(remaining, limit - p);
                remaining -= n;
                if (remaining == 0) {
                    state = CHUNK_DATA_CR;
                }
                return p + n;
            }
            case UNTIL_CLOSE:
                return limit;
            default:
                chunkByte(buf.get(p));
                return p + 1;
        }
    }

    private void chunkByte(byte b) {
        switch (state) {
            case CHUNK_SIZE: {
                if (++lineLen > MAX_CHUNK_LINE) {
                    fail(Malformed.CHUNK_SIZE);
                    return;
                }
                int d = hex(b);
                if (d >= 0) {
                    if ((remaining != 0 || d != 0) && ++chunkDigits > MAX_CHUNK_SIZE_DIGITS) {
                        fail(Malformed.CHUNK_SIZE);
                        return;
                    }
                    remaining = (remaining << 4) | d;
                } else if (lineLen == 1) {
                    fail(Malformed.CHUNK_SIZE);
                } else if (b == ';' || b == ' ' || b == '\t') {
                    state = CHUNK_EXT;
                } else if (b == '\r') {
                    state = CHUNK_SIZE_LF;
                } else if (b == '\n') {
                    chunkSizeDone();
                } else {
                    fail(Malformed.CHUNK_SIZE);
                }
                return;
            }
            case CHUNK_EXT:
                if (++lineLen > MAX_CHUNK_LINE) {
                    fail(Malformed.CHUNK_SIZE);
                } else if (b == '\n') {
                    chunkSizeDone();
                }
                return;
            case CHUNK_SIZE_LF:
                if (b == '\n') {
                    chunkSizeDone();
                } else {
                    fail(Malformed.CHUNK_SIZE);
                }
                return;
            case CHUNK_DATA_CR:
                if (b == '\r') {
                    state = CHUNK_DATA_LF;
                } else if (b == '\n') {
                    startChunk();
                } else {
                    fail(Malformed.CHUNK_END);
                }
                return;
            case CHUNK_DATA_LF:
                if (b == '\n') {
                    startChunk();
                } else {
                    fail(Malformed.CHUNK_END);
                }
                return;
            default:
                throw new IllegalStateException("state " + state);
        }
    }

    private void startChunk() {
        state = CHUNK_SIZE;
        lineLen = 0;
        chunkDigits = 0;
        remaining = 0;
    }

    private void chunkSizeDone() {
        if (remaining == 0) {
            state = TRAILER_START;
            headerBytes = 0;
        } else {
            state = CHUNK_DATA;
        }
    }

    private void headerByte(byte b) {
        switch (state) {
            case STATUS:
                statusByte(b);
                return;
            case METHOD:
            case TARGET:
            case VERSION:
            case START_LF:
                requestLineByte(b);
                return;
            case STATUS_LF:
                if (b == '\n') {
                    state = HEADER_START;
                } else {
                    fail(Malformed.STATUS_LINE);
                }
                return;
            case HEADER_START:
                if (b == '\r') {
                    state = HEADERS_END_LF;
                } else if (b == '\n') {
                    headersDone();
                } else if (b == ' ' || b == '\t' || b == ':') {
                    fail(Malformed.HEADER_LINE); // obsolete line folding, or an empty name
                } else {
                    nameLen = 0;
                    state = NAME;
                    nameByte(b);
                }
                return;
            case NAME:
                nameByte(b);
                return;
            case VALUE_START:
                if (b == ' ' || b == '\t') {
                    return;
                }
                valueLen = 0;
                state = VALUE;
                valueByte(b);
                return;
            case VALUE:
                valueByte(b);
                return;
            case VALUE_LF:
                if (b != '\n') {
                    fail(Malformed.HEADER_LINE);
                    return;
                }
                headerDone();
                return;
            case HEADERS_END_LF:
                if (b != '\n') {
                    fail(Malformed.HEADER_LINE);
                    return;
                }
                headersDone();
                return;
            case TRAILER_START:
                if (b == '\r') {
                    state = TRAILER_END_LF;
                } else if (b == '\n') {
                    state = DONE;
                } else {
                    state = TRAILER_LINE;
                }
                return;
            case TRAILER_LINE:
                if (b == '\n') {
                    state = TRAILER_START;
                }
                return;
            case TRAILER_END_LF:
                if (b == '\n') {
                    state = DONE;
                } else {
                    fail(Malformed.CHUNK_END);
                }
                return;
            default:
                throw new IllegalStateException("state " + state);
        }
    }

    /** Status line {@code HTTP/d.d ddd[ reason]}, checked position by position. */
    private void statusByte(byte b) {
        int i = lineLen++;
        if (i < 8) {
            if (!versionByte(i, b)) {
                fail(Malformed.STATUS_LINE);
            }
        } else if (i == 8) {
            if (b != ' ') {
                fail(Malformed.STATUS_LINE);
            }
        } else if (i <= 11) {
            if (b < '0' || b > '9') {
                fail(Malformed.STATUS_LINE);
            } else {
                status = status * 10 + (b - '0');
            }
        } else if (b == '\n') {
            state = HEADER_START;
        } else if (b == '\r') {
            state = STATUS_LF;
        } else if (i == 12 && b != ' ') {
            fail(Malformed.STATUS_LINE);
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
                } else if (isTchar(b)) {
                    head &= i < HEAD.length && b == HEAD[i];
                } else {
                    fail(Malformed.REQUEST_LINE);
                }
                return;
            case TARGET:
                if (b == ' ' && i > 0) {
                    state = VERSION;
                    lineLen = 0;
                } else if (b <= ' ' || b == 0x7f) {
                    fail(Malformed.REQUEST_LINE);
                }
                return;
            case VERSION:
                if (i < 8 ? !versionByte(i, b) : i > 8 || (b != '\r' && b != '\n')) {
                    fail(Malformed.REQUEST_LINE);
                } else if (i == 8) {
                    state = b == '\r' ? START_LF : HEADER_START;
                }
                return;
            default: // START_LF
                if (b == '\n') {
                    state = HEADER_START;
                } else {
                    fail(Malformed.REQUEST_LINE);
                }
        }
    }

    /** token characters of RFC 9110 §5.6.2. */
    private static boolean isTchar(byte b) {
        return b > ' ' && b < 0x7f && b != '"' && b != '(' && b != ')' && b != ',' && b != '/' && b != ':'
                && b != ';' && b != '<' && b != '=' && b != '>' && b != '?' && b != '@' && b != '['
                && b != '\\' && b != ']' && b != '{' && b != '}';
    }

    private void nameByte(byte b) {
        if (b == ':') {
            header = headerId();
            state = VALUE_START;
            valueLen = 0;
        } else if (!isTchar(b)) {
            fail(Malformed.HEADER_LINE); // includes CR and LF
        } else {
            if (nameLen < KEEP) {
                name[nameLen] = lower(b);
            }
            nameLen++;
        }
    }

    private void valueByte(byte b) {
        if (b == '\r') {
            state = VALUE_LF;
        } else if (b == '\n') {
            headerDone();
        } else {
            if (valueLen < KEEP) {
                value[valueLen] = lower(b);
            }
            valueLen++;
        }
    }

    private int headerId() {
        if (equals(name, nameLen, CONTENT_LENGTH)) {
            return H_CONTENT_LENGTH;
        }
        if (equals(name, nameLen, TRANSFER_ENCODING)) {
            return H_TRANSFER_ENCODING;
        }
        if (equals(name, nameLen, CONNECTION)) {
            return H_CONNECTION;
        }
        return H_OTHER;
    }

    private void headerDone() {
        state = HEADER_START;
        int len = valueLen;
        if (len <= KEEP) {
            while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t')) {
                len--; // trailing OWS
            }
        }
        switch (header) {
            case H_CONTENT_LENGTH:
                contentLengthValue(len);
                return;
            case H_TRANSFER_ENCODING:
                if (len > KEEP) {
                    fail(Malformed.TRANSFER_ENCODING);
                    return;
                }
                transferEncoding = true;
                chunked = lastTokenIs(len, "chunked");
                return;
            case H_CONNECTION:
                if (len <= KEEP) {
                    connectionClose |= hasToken(len, "close");
                    connectionKeepAlive |= hasToken(len, "keep-alive");
                }
                return;
            default:
        }
    }

    private void contentLengthValue(int len) {
        if (len == 0 || len > MAX_CONTENT_LENGTH_DIGITS) {
            fail(Malformed.CONTENT_LENGTH);
            return;
        }
        long v = 0;
        for (int i = 0; i < len; i++) {
            byte c = value[i];
            if (c < '0' || c > '9') {
                fail(Malformed.CONTENT_LENGTH);
                return;
            }
            v = v * 10 + (c - '0');
        }
        if (contentLength >= 0 && contentLength != v) {
            fail(Malformed.CONTENT_LENGTH);
            return;
        }
        contentLength = v;
    }

    private void headersDone() {
        if (request) {
            requestHeadersDone();
            return;
        }
        if (status >= 100 && status < 200) {
            if (status == 101) {
                fail(Malformed.UPGRADE);
                return;
            }
            state = STATUS; // interim response: the final one follows on the same request
            startHeaderSection();
            return;
        }
        if (status == 204 || status == 304) {
            state = DONE;
        } else if (transferEncoding) {
            if (chunked) {
                startChunk();
            } else {
                framed = false;
                state = UNTIL_CLOSE;
            }
        } else if (contentLength >= 0) {
            remaining = contentLength;
            state = contentLength == 0 ? DONE : BODY;
        } else {
            framed = false;
            state = UNTIL_CLOSE;
        }
    }

    private void requestHeadersDone() {
        if (transferEncoding) {
            if (chunked) {
                startChunk();
            } else {
                fail(Malformed.TRANSFER_ENCODING); // RFC 9112 §6.3 rule 4: a server cannot frame it
            }
        } else if (contentLength > 0) {
            remaining = contentLength;
            state = BODY;
        } else {
            state = DONE;
        }
    }

    /** Whether the comma-separated list in value[0, len) ends with {@code token}. */
    private boolean lastTokenIs(int len, String token) {
        int end = len;
        int start = end;
        while (start > 0 && value[start - 1] != ',') {
            start--;
        }
        while (start < end && (value[start] == ' ' || value[start] == '\t')) {
            start++;
        }
        return regionIs(start, end, token);
    }

    /** Whether the comma-separated list in value[0, len) contains {@code token}. */
    private boolean hasToken(int len, String token) {
        int start = 0;
        while (start < len) {
            int end = start;
            while (end < len && value[end] != ',') {
                end++;
            }
            int s = start;
            int e = end;
            while (s < e && (value[s] == ' ' || value[s] == '\t')) {
                s++;
            }
            while (e > s && (value[e - 1] == ' ' || value[e - 1] == '\t')) {
                e--;
            }
            if (regionIs(s, e, token)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private boolean regionIs(int start, int end, String token) {
        if (end - start != token.length()) {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            if (value[start + i] != token.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean equals(byte[] kept, int len, byte[] expected) {
        if (len != expected.length) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (kept[i] != expected[i]) {
                return false;
            }
        }
        return true;
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

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
