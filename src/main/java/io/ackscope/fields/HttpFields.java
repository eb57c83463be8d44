package io.ackscope.fields;

import io.ackscope.fields.FrameFields.Pass;

import java.io.IOException;

/**
 * The {@code http.*} fields of {@link FrameFields}, with tshark 4.0's names and printing, read from
 * {@link HttpConversations}: shown on the frame that completes a message, empty elsewhere.
 */
final class HttpFields {
    private HttpFields() {
    }

    private static final byte[] HTTP = {'h', 't', 't', 'p'};
    private static final byte[] HTTP_SCHEME = {'h', 't', 't', 'p', ':', '/', '/'};

    /** Adds the fields to the catalogue, in the order of the help text. */
    static void register() {
        FrameFields.add("http", "\"http\" on a frame where tshark shows HTTP (a message completes in it, or bytes "
                + "that start no message on an HTTP connection); the -Y http filter", Pass.HTTP, (f, o) -> {
                    if (f.http.shown()) {
                        o.raw(HTTP, 0, HTTP.length);
                    }
                });
        FrameFields.add("http.request", "1 on the frame that completes an HTTP request (its head and body)",
                Pass.HTTP, (f, o) -> {
                    HttpHead h = f.http.head();
                    if (h != null && h.kind == HttpHead.Kind.REQUEST) {
                        o.decimal(1);
                    }
                });
        FrameFields.add("http.response", "1 on the frame that completes an HTTP response (its head and body)",
                Pass.HTTP, (f, o) -> {
                    HttpHead h = f.http.head();
                    if (h != null && h.kind == HttpHead.Kind.RESPONSE) {
                        o.decimal(1);
                    }
                });
        FrameFields.add("http.request.method", "the request's method (GET, POST ...)", Pass.HTTP,
                (f, o) -> request(f, o, Part.METHOD));
        FrameFields.add("http.request.uri", "the request's URI as sent (at most " + HttpHead.MAX_URI + " bytes)",
                Pass.HTTP, (f, o) -> request(f, o, Part.URI));
        FrameFields.add("http.request.version", "the request's version (HTTP/1.1)", Pass.HTTP,
                (f, o) -> request(f, o, Part.VERSION));
        FrameFields.add("http.host", "the request's Host header", Pass.HTTP, (f, o) -> request(f, o, Part.HOST));
        FrameFields.add("http.user_agent", "the request's User-Agent header", Pass.HTTP,
                (f, o) -> request(f, o, Part.USER_AGENT));
        FrameFields.add("http.response.code", "the response's status code", Pass.HTTP, (f, o) -> {
            HttpHead h = f.http.head();
            if (h != null && h.kind == HttpHead.Kind.RESPONSE && h.code >= 0) {
                o.decimal(h.code);
            }
        });
        FrameFields.add("http.response.version", "the response's version (HTTP/1.1)", Pass.HTTP,
                (f, o) -> response(f, o, Part.VERSION));
        FrameFields.add("http.response.phrase", "the response's reason phrase (OK)", Pass.HTTP,
                (f, o) -> response(f, o, Part.PHRASE));
        FrameFields.add("http.server", "the response's Server header", Pass.HTTP,
                (f, o) -> response(f, o, Part.SERVER));
        FrameFields.add("http.content_length", "the message's Content-Length, as a number", Pass.HTTP, (f, o) -> {
            HttpHead h = f.http.head();
            if (h != null && h.contentLength >= 0) {
                o.decimal(h.contentLength);
            }
        });
        FrameFields.add("http.content_type", "the message's Content-Type header", Pass.HTTP, (f, o) -> {
            HttpHead h = f.http.head();
            if (h != null) {
                text(h.contentType, o);
            }
        });
        FrameFields.add("http.time", "seconds from the frame of the request to the frame of its response (on the "
                + "response)", Pass.HTTP, (f, o) -> {
                    if (f.http.requestIn() >= 0) {
                        o.epoch9(f.http.timeNanos());
                    }
                });
        FrameFields.add("http.request_in", "frame of the request this response answers", Pass.HTTP, (f, o) -> {
            if (f.http.requestIn() >= 0) {
                o.decimal(f.http.requestIn());
            }
        });
        FrameFields.add("http.response_for.uri", "on a response, its request's URI behind http:// and the Host "
                + "(the URI alone without a Host or for CONNECT)", Pass.HTTP, (f, o) -> {
                    byte[] u = f.http.responseForUri();
                    if (u != null) {
                        o.text(u, 0, u.length);
                    }
                });
    }

    private enum Part { METHOD, URI, HOST, VERSION, USER_AGENT, PHRASE, SERVER }

    /** A part of the current frame's request (or notification), if it shows one. */
    private static void request(FrameFields.Frame f, TsvOutput o, Part part) throws IOException {
        HttpHead h = f.http.head();
        if (h != null && h.kind != HttpHead.Kind.RESPONSE) {
            text(part(h, part), o);
        }
    }

    /** A part of the current frame's response, if it shows one. */
    private static void response(FrameFields.Frame f, TsvOutput o, Part part) throws IOException {
        HttpHead h = f.http.head();
        if (h != null && h.kind == HttpHead.Kind.RESPONSE) {
            text(part(h, part), o);
        }
    }

    private static byte[] part(HttpHead h, Part part) {
        return switch (part) {
            case METHOD -> h.method;
            case URI -> h.uri;
            case HOST -> h.host;
            case VERSION -> h.version;
            case USER_AGENT -> h.userAgent;
            case PHRASE -> h.phrase;
            case SERVER -> h.server;
        };
    }

    private static void text(byte[] b, TsvOutput o) throws IOException {
        if (b != null) {
            o.text(b, 0, b.length);
        }
    }
}
