package io.ackscope.fields;

import java.util.Arrays;

/**
 * One direction of an HTTP connection as tshark reassembles it (TCP desegmentation and HTTP's
 * {@code desegment_headers}, {@code desegment_body}, {@code dechunk_body}, all on by default): the bytes in sequence
 * order are cut into messages, and a message is complete with the last byte of its head, of its Content-Length body,
 * of its last chunk and trailers, or, for a response with neither, at the sender's FIN.
 *
 * <p>Only a message's head is kept (at most {@link #MAX_HEAD} bytes, plus a chunk-size line of at most
 * {@link #MAX_LINE}); bodies are counted, not stored. A head longer than {@link #MAX_HEAD} is dropped with the
 * rest of its segment (tshark has no such bound).
 */
final class HttpDirection {
    /** Longest message head kept while it is reassembled. */
    static final int MAX_HEAD = 64 * 1024;
    /** Longest chunk-size or trailer line. */
    static final int MAX_LINE = 1024;

    /** What a completed message is handed to. */
    interface Sink {
        /** A message whose last byte arrived in the current frame; {@code head} stays valid. */
        void complete(HttpHead head);

        /** Bytes of the current frame that start no message (tshark's "Continuation"). */
        void continuation();

        /** Whether the response about to get its body answers a HEAD request (it then has none). */
        boolean answersHead();
    }

    /**
     * FIRST_LINE: the bytes of a first line without its end yet; tshark waits for more segments before it decides
     * whether they start a message or are a continuation.
     */
    private enum Mode { IDLE, FIRST_LINE, HEAD, BODY, CHUNK_LINE, CHUNK_DATA, CHUNK_END, TRAILER, UNTIL_FIN }

    private Mode mode = Mode.IDLE;
    private byte[] buf = new byte[0];
    private int len;
    /** Bytes of the current line in HEAD, CHUNK_LINE and TRAILER (a {@code '\r'} before its end not counted). */
    private int lineLength;
    private long remaining;
    private HttpHead head;
    /** Bytes of the current message are missing: it completes silently. */
    private boolean broken;
    /** Sequence number (relative) of the next byte expected, -1 before the first. */
    long next = -1;
    /** Whether the sender's FIN was seen. */
    boolean finished;

    /**
     * {@code n} bytes the capture lacks (a gap in the sequence numbers). Inside a body of known length they are
     * counted, and the message, which tshark's reassembly can then never complete, is not reported; anywhere else
     * the message being reassembled is dropped.
     */
    void gap(long n) {
        if (mode == Mode.BODY && n <= remaining) {
            remaining -= n;
            broken = true;
            if (remaining == 0) {
                reset();
            }
        } else {
            reset();
        }
    }

    /** Drops the message being reassembled. */
    void reset() {
        broken = false;
        mode = Mode.IDLE;
        len = 0;
        head = null;
        if (buf.length > MAX_LINE) {
            buf = new byte[0];
        }
    }

    /** Whether a message has started and is not complete. */
    boolean pending() {
        return mode != Mode.IDLE;
    }

    /** Feeds the in-order bytes {@code b[off, end)} of the current frame. */
    void feed(byte[] b, int off, int end, Sink sink) {
        int p = off;
        while (p < end) {
            switch (mode) {
                case IDLE -> {
                    mode = Mode.FIRST_LINE;
                    len = 0;
                    lineLength = 0;
                }
                case FIRST_LINE -> {
                    p = firstLine(b, p, end);
                    if (mode == Mode.IDLE) {
                        sink.continuation(); // the rest of the segment goes with it
                        return;
                    }
                }
                case HEAD -> p = head(b, p, end, sink);
                case BODY -> {
                    int k = (int) Math.min(remaining, end - p);
                    p += k;
                    remaining -= k;
                    if (remaining == 0) {
                        done(sink);
                    }
                }
                case CHUNK_LINE, TRAILER -> p = line(b, p, end, sink);
                case CHUNK_DATA -> {
                    int k = (int) Math.min(remaining, end - p);
                    p += k;
                    remaining -= k;
                    if (remaining == 0) {
                        mode = Mode.CHUNK_END;
                    }
                }
                case CHUNK_END -> {
                    // the line end after a chunk's data
                    if (b[p++] == '\n') {
                        mode = Mode.CHUNK_LINE;
                        len = 0;
                        lineLength = 0;
                    }
                }
                case UNTIL_FIN -> p = end;
            }
        }
    }

    /** The sender's FIN: completes a response that runs to the end of the connection. */
    void fin(Sink sink) {
        if (mode == Mode.UNTIL_FIN) {
            done(sink);
        }
    }

    /**
     * Collects the first line up to its end (not consumed); then HEAD if it starts a message, else IDLE with the
     * line dropped.
     */
    private int firstLine(byte[] b, int p, int end) {
        while (p < end && b[p] != '\n' && b[p] != '\r') {
            if (!append(b[p++], MAX_HEAD)) {
                reset();
                return end;
            }
            lineLength++;
        }
        if (p < end) {
            if (HttpHead.startKind(buf, 0, len) == HttpHead.Kind.NONE) {
                reset();
            } else {
                mode = Mode.HEAD;
            }
        }
        return p;
    }

    private int head(byte[] b, int p, int end, Sink sink) {
        while (p < end) {
            byte c = b[p++];
            if (!append(c, MAX_HEAD)) {
                reset(); // longer than any head kept: the rest of the segment is dropped with it
                return end;
            }
            if (c == '\n') {
                if (lineLength == 0) {
                    headDone(sink);
                    return p;
                }
                lineLength = 0;
            } else if (c != '\r') {
                lineLength++;
            }
        }
        return p;
    }

    private void headDone(Sink sink) {
        head = HttpHead.parse(buf, len);
        len = 0;
        boolean response = head.kind == HttpHead.Kind.RESPONSE;
        if (response && (sink.answersHead() || head.code / 100 == 1 || head.code == 204 || head.code == 304)) {
            done(sink);
        } else if (head.chunked) {
            mode = Mode.CHUNK_LINE;
            lineLength = 0;
        } else if (head.contentLength > 0) {
            mode = Mode.BODY;
            remaining = head.contentLength;
        } else if (response && head.contentLength < 0) {
            mode = Mode.UNTIL_FIN;
        } else {
            done(sink);
        }
    }

    /** A chunk-size line (CHUNK_LINE) or a trailer line (TRAILER). */
    private int line(byte[] b, int p, int end, Sink sink) {
        while (p < end) {
            byte c = b[p++];
            if (c != '\n') {
                if (c != '\r') {
                    lineLength++;
                }
                if (!append(c, MAX_LINE)) {
                    done(sink); // no chunk-size line is this long: the message ends here
                    return p;
                }
                continue;
            }
            if (mode == Mode.TRAILER) {
                if (lineLength == 0) {
                    done(sink);
                    return p;
                }
                lineLength = 0;
                len = 0;
                continue;
            }
            long size = chunkSize();
            len = 0;
            lineLength = 0;
            if (size < 0) {
                done(sink);
            } else if (size == 0) {
                mode = Mode.TRAILER;
            } else {
                mode = Mode.CHUNK_DATA;
                remaining = size;
            }
            return p;
        }
        return p;
    }

    /** The hex size at the start of the chunk-size line in {@code buf}, -1 if there is none or it is absurd. */
    private long chunkSize() {
        long v = 0;
        int i = 0;
        while (i < len && (buf[i] == ' ' || buf[i] == '\t')) {
            i++;
        }
        int start = i;
        for (; i < len; i++) {
            int d = Character.digit(buf[i], 16);
            if (d < 0) {
                break;
            }
            v = v * 16 + d;
            if (v > (1L << 40)) {
                return -1;
            }
        }
        return i == start ? -1 : v;
    }

    private boolean append(byte c, int max) {
        if (len == max) {
            return false;
        }
        if (len == buf.length) {
            buf = Arrays.copyOf(buf, Math.min(max, Math.max(256, buf.length * 2)));
        }
        buf[len++] = c;
        return true;
    }

    private void done(Sink sink) {
        HttpHead h = head;
        boolean missing = broken;
        reset();
        if (h != null && !missing) {
            sink.complete(h);
        }
    }
}
