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
 *
 * <p>The parts of a message each have a reader of their own: {@link StartLine}, {@link HeaderLine} (the kept
 * bytes of the current header field), {@link ChunkedBody}; this class walks the header section and the body.
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
    private static final int START_LINE = 0;
    private static final int HEADER_START = 1;
    private static final int NAME = 2;
    private static final int VALUE_START = 3;
    private static final int VALUE = 4;
    private static final int VALUE_LF = 5;
    private static final int HEADERS_END_LF = 6;
    private static final int TRAILER_START = 7;
    private static final int TRAILER_LINE = 8;
    private static final int TRAILER_END_LF = 9;
    private static final int BODY = 10;
    private static final int CHUNKED = 11;
    private static final int UNTIL_CLOSE = 12;
    private static final int DONE = 13;
    private static final int FAILED = 14;

    private final boolean request;
    private final StartLine startLine = new StartLine();
    private final HeaderLine line = new HeaderLine();
    private final ChunkedBody chunks = new ChunkedBody();
    /** Header bytes copied out of the buffer being fed; see {@link #feed}. */
    private final byte[] scratch = new byte[SCRATCH];

    private int state;
    private Malformed malformed;
    private long messageBytes;
    private int headerBytes;
    private int header;
    private long contentLength;
    private boolean chunked;
    private boolean transferEncoding;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    /** Whether the body has its own framing (length, chunks or none) rather than ending with the connection. */
    private boolean framed;
    private long remaining;

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
        state = START_LINE;
        malformed = null;
        messageBytes = 0;
        startHeaderSection();
    }

    private void startHeaderSection() {
        headerBytes = 0;
        startLine.start(request);
        contentLength = -1;
        chunked = false;
        transferEncoding = false;
        connectionClose = false;
        connectionKeepAlive = false;
        framed = true;
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
        return request && startLine.head();
    }

    /** Status code of the (final) response, valid once its status line was read; 0 for requests. */
    public int status() {
        return startLine.status();
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
        return startLine.http11() || connectionKeepAlive;
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
            case UNTIL_CLOSE:
                return limit;
            default: { // CHUNKED
                int next = chunks.feed(buf, p, limit);
                if (chunks.malformed() != null) {
                    fail(chunks.malformed());
                } else if (chunks.lastChunkRead()) {
                    state = TRAILER_START;
                    headerBytes = 0;
                }
                return next;
            }
        }
    }

    private void startChunked() {
        chunks.start();
        state = CHUNKED;
    }

    private void headerByte(byte b) {
        switch (state) {
            case START_LINE:
                startLine.lineByte(b);
                if (startLine.failed()) {
                    fail(request ? Malformed.REQUEST_LINE : Malformed.STATUS_LINE);
                } else if (startLine.done()) {
                    state = HEADER_START;
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
                    line.startName();
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
                line.startValue();
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
            default:
                trailerByte(b);
        }
    }

    /** The trailer section after a chunked body: skipped line by line up to the empty line. */
    private void trailerByte(byte b) {
        switch (state) {
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

    private void nameByte(byte b) {
        if (b == ':') {
            header = line.nameId();
            state = VALUE_START;
            line.startValue();
        } else if (!HeaderLine.isTchar(b)) {
            fail(Malformed.HEADER_LINE); // includes CR and LF
        } else {
            line.nameByte(b);
        }
    }

    private void valueByte(byte b) {
        if (b == '\r') {
            state = VALUE_LF;
        } else if (b == '\n') {
            headerDone();
        } else {
            line.valueByte(b);
        }
    }

    private void headerDone() {
        state = HEADER_START;
        int len = line.valueLength();
        switch (header) {
            case HeaderLine.CONTENT_LENGTH:
                contentLengthValue(len);
                return;
            case HeaderLine.TRANSFER_ENCODING:
                if (len > HeaderLine.KEEP) {
                    fail(Malformed.TRANSFER_ENCODING);
                    return;
                }
                transferEncoding = true;
                chunked = line.lastTokenIs(len, "chunked");
                return;
            case HeaderLine.CONNECTION:
                if (len <= HeaderLine.KEEP) {
                    connectionClose |= line.hasToken(len, "close");
                    connectionKeepAlive |= line.hasToken(len, "keep-alive");
                }
                return;
            default:
        }
    }

    private void contentLengthValue(int len) {
        long v = len == 0 || len > MAX_CONTENT_LENGTH_DIGITS ? -1 : line.decimal(len);
        if (v < 0 || (contentLength >= 0 && contentLength != v)) {
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
        int status = startLine.status();
        if (status >= 100 && status < 200) {
            if (status == 101) {
                fail(Malformed.UPGRADE);
                return;
            }
            state = START_LINE; // interim response: the final one follows on the same request
            startHeaderSection();
            return;
        }
        if (status == 204 || status == 304) {
            state = DONE;
        } else if (transferEncoding) {
            if (chunked) {
                startChunked();
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
                startChunked();
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
}
