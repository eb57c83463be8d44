package io.ackscope.fields;

import java.util.Arrays;

/**
 * The start line and the headers {@code fields} needs of one HTTP/1.x message head, read as tshark 4.0's HTTP
 * dissector reads them ({@code is_http_request_or_reply} and the header loop of {@code packet-http.c}).
 *
 * <p>A line ends at {@code '\n'}, a {@code '\r'} before it is dropped. The first token of the start line runs to
 * the first space or the line's end: {@code "HTTP/"} starts a response, a method of tshark's list a request (so
 * {@code "OPTIONS\n"} is a request with no URI, and {@code "GET/ HTTP/1.1"} is nothing). The URI is the next token,
 * up to a space or the line's end. The bytes are attacker-controlled: they are copied, never decoded; each value is
 * cut at a named bound.
 *
 * <p>Why not the engine's rule ({@code tcp/HttpStartLine}, any upper-case token and a space) or an HTTP library
 * (netty's {@code HttpObjectDecoder}, Apache HttpCore): the fields must show what tshark shows, and tshark is lenient
 * where they are strict or strict where they are lenient. On the corpus, {@code zeek__methods.pcap} frame 34
 * ({@code "OPTIONS\n"}, no URI) and frame 319 ({@code "CCM_POST / HTTP/1."}) are requests to tshark that the
 * engine's rule and a validating parser reject, and {@code "get / HTTP/1.1"} is a request to a case-insensitive
 * parser but not to tshark.
 */
final class HttpHead {
    /** Longest URI kept (bytes); longer ones are cut there. tshark keeps them whole. */
    static final int MAX_URI = 8192;
    /** Longest Host, version, reason phrase or other header value kept (bytes). */
    static final int MAX_HOST = 1024;

    enum Kind { NONE, REQUEST, NOTIFICATION, RESPONSE }

    /**
     * The request methods tshark 4.0 recognises, by the length of their token ({@code is_http_request_or_reply});
     * SUBSCRIBE, UNSUBSCRIBE and NOTIFY start what tshark calls a notification.
     */
    private static final String[] METHODS = {"GET", "PUT", "ACL", "COPY", "HEAD", "LOCK", "MOVE", "POLL", "POST",
        "BCOPY", "BMOVE", "MKCOL", "TRACE", "PATCH", "LABEL", "MERGE", "DELETE", "SEARCH", "UNLOCK", "REPORT",
        "UPDATE", "BDELETE", "CONNECT", "OPTIONS", "CHECKIN", "PROPFIND", "CHECKOUT", "CCM_POST", "PROPPATCH",
        "BPROPFIND", "BPROPPATCH", "UNCHECKOUT", "MKACTIVITY", "MKWORKSPACE", "RPC_CONNECT", "RPC_IN_DATA",
        "RPC_OUT_DATA", "VERSION-CONTROL", "BASELINE-CONTROL"};
    private static final String[] NOTIFICATIONS = {"NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE"};
    private static final int LONGEST_METHOD = 16;

    Kind kind = Kind.NONE;
    byte[] method;
    byte[] uri;
    byte[] host;
    /** The request's version (after the URI) or the response's (its first token); null when absent. */
    byte[] version;
    /** The response's reason phrase, null when absent. */
    byte[] phrase;
    byte[] contentType;
    byte[] userAgent;
    byte[] server;
    /** Status code of a response, -1 when absent or not three digits. */
    int code = -1;
    /** Content-Length, -1 when absent or not a number. */
    long contentLength = -1;
    boolean chunked;

    /** What the bytes {@code b[off, end)} start: a request, a notification, a response or nothing. */
    static Kind startKind(byte[] b, int off, int end) {
        if (end - off >= 5 && b[off] == 'H' && b[off + 1] == 'T' && b[off + 2] == 'T' && b[off + 3] == 'P'
                && b[off + 4] == '/') {
            return Kind.RESPONSE;
        }
        // the method token runs to a space or the line's end; no method is longer than LONGEST_METHOD
        int limit = Math.min(end, off + LONGEST_METHOD + 1);
        int t = off;
        while (t < limit && b[t] != ' ' && b[t] != '\n' && b[t] != '\r') {
            t++;
        }
        int n = t - off;
        if (n == 0 || n > LONGEST_METHOD || (t == limit && limit < end)) {
            return Kind.NONE;
        }
        if (in(METHODS, b, off, n)) {
            return Kind.REQUEST;
        }
        return in(NOTIFICATIONS, b, off, n) ? Kind.NOTIFICATION : Kind.NONE;
    }

    /**
     * Whether tshark's heuristic HTTP dissector ({@code dissect_http_heur_tcp}) claims a connection from a segment
     * starting {@code b[off, end)}: its first line is complete, is not 8 bytes long, and starts or ends with
     * {@code "HTTP/1."} (ASCII case-insensitively; the end as the 8 bytes before the line end).
     */
    static boolean heuristicStart(byte[] b, int off, int end) {
        int e = off;
        while (e < end && b[e] != '\n' && b[e] != '\r') {
            e++;
        }
        int n = e - off;
        if (e == end || n == 8) {
            return false;
        }
        return startsHttp1(b, off, end) || (n > 8 && startsHttp1(b, e - 8, end));
    }

    private static boolean startsHttp1(byte[] b, int at, int end) {
        if (end - at < 7) {
            return false;
        }
        for (int i = 0; i < 7; i++) {
            int c = b[at + i];
            if (c >= 'a' && c <= 'z') {
                c -= 'a' - 'A';
            }
            if (c != "HTTP/1.".charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean in(String[] words, byte[] b, int off, int n) {
        for (String w : words) {
            if (w.length() == n && matches(b, off, w)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(byte[] b, int off, String w) {
        for (int i = 0; i < w.length(); i++) {
            if (b[off + i] != w.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Reads the head {@code b[0, len)}, which ends with its empty line and starts with a start line. */
    static HttpHead parse(byte[] b, int len) {
        HttpHead h = new HttpHead();
        int lineEnd = lineEnd(b, 0, len);
        h.kind = startKind(b, 0, lineEnd);
        int t = 0;
        while (t < lineEnd && b[t] != ' ') {
            t++;
        }
        if (h.kind == Kind.RESPONSE) {
            h.version = value(b, 0, t);
            // tshark reads the three bytes after the first space as the code, the rest of the line as the phrase
            if (t + 4 <= lineEnd && digit(b[t + 1]) && digit(b[t + 2]) && digit(b[t + 3])) {
                h.code = (b[t + 1] - '0') * 100 + (b[t + 2] - '0') * 10 + (b[t + 3] - '0');
                if (t + 5 <= lineEnd && b[t + 4] == ' ') {
                    h.phrase = value(b, t + 5, lineEnd);
                }
            }
        } else {
            h.method = Arrays.copyOfRange(b, 0, t);
            int u = Math.min(t + 1, lineEnd);
            int e = u;
            while (e < lineEnd && b[e] != ' ') {
                e++;
            }
            h.uri = Arrays.copyOfRange(b, u, Math.min(e, u + MAX_URI));
            if (e + 1 < lineEnd) {
                h.version = value(b, e + 1, lineEnd);
            }
        }
        int next = skipLineEnd(b, lineEnd, len);
        while (next < len) {
            int end = lineEnd(b, next, len);
            if (end == next) {
                break;
            }
            h.header(b, next, end);
            next = skipLineEnd(b, end, len);
        }
        return h;
    }

    private void header(byte[] b, int from, int to) {
        int colon = from;
        while (colon < to && b[colon] != ':') {
            colon++;
        }
        if (colon == to) {
            return;
        }
        int v = colon + 1;
        while (v < to && (b[v] == ' ' || b[v] == '\t')) {
            v++;
        }
        int name = colon - from;
        if (name == 4 && named(b, from, "host")) {
            host = first(host, b, v, to);
        } else if (name == 12 && named(b, from, "content-type")) {
            contentType = first(contentType, b, v, to);
        } else if (name == 10 && named(b, from, "user-agent")) {
            userAgent = first(userAgent, b, v, to);
        } else if (name == 6 && named(b, from, "server")) {
            server = first(server, b, v, to);
        } else if (name == 14 && named(b, from, "content-length")) {
            contentLength = number(b, v, to);
        } else if (name == 17 && named(b, from, "transfer-encoding")) {
            chunked = to - v >= 7 && named(b, v, "chunked");
        }
    }

    /** {@code b[from, to)}, cut at {@link #MAX_HOST} bytes. */
    private static byte[] value(byte[] b, int from, int to) {
        return Arrays.copyOfRange(b, from, Math.min(to, from + MAX_HOST));
    }

    /** The first of repeated headers is the one {@code -E occurrence=f} prints. */
    private static byte[] first(byte[] kept, byte[] b, int from, int to) {
        return kept != null ? kept : value(b, from, to);
    }

    /** Whether {@code b} at {@code off} holds {@code lower}, ASCII case-insensitively. */
    private static boolean named(byte[] b, int off, String lower) {
        for (int i = 0; i < lower.length(); i++) {
            int c = b[off + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Decimal digits at {@code b[from, to)} up to the first non-digit; -1 without any or beyond 2^62. */
    private static long number(byte[] b, int from, int to) {
        long v = 0;
        int i = from;
        while (i < to && digit(b[i])) {
            v = v * 10 + (b[i] - '0');
            if (v > (1L << 62)) {
                return -1;
            }
            i++;
        }
        return i == from ? -1 : v;
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** Offset of the {@code '\n'} ending the line at {@code from} (or of its {@code '\r'}), or {@code len}. */
    private static int lineEnd(byte[] b, int from, int len) {
        int i = from;
        while (i < len && b[i] != '\n') {
            i++;
        }
        return i > from && b[i - 1] == '\r' ? i - 1 : i;
    }

    private static int skipLineEnd(byte[] b, int at, int len) {
        if (at < len && b[at] == '\r') {
            at++;
        }
        return at < len && b[at] == '\n' ? at + 1 : at;
    }
}
