package io.ackscope.load;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The one URL a load run sends its requests to, resolved once. Only {@code http://} is spoken; the address is the
 * one the user named (no redirects are followed, nothing else is contacted).
 */
public final class Target {

    private final String url;
    private final InetSocketAddress address;
    /** {@code GET path HTTP/1.1} with a Host header and the user's headers, as wrk sends them. */
    private final byte[] request;

    private Target(String url, InetSocketAddress address, byte[] request) {
        this.url = url;
        this.address = address;
        this.request = request;
    }

    /** Parses {@code http://host[:port][/path][?query]} and resolves the host. */
    public static Target parse(String url) throws UnknownHostException {
        return parse(url, List.of());
    }

    /**
     * As {@link #parse(String)}, with extra request headers given as wrk's {@code -H} takes them
     * ({@code "Name: value"}). As in wrk, a {@code Host} header replaces the one made from the URL; the others are
     * added in the order given. A name that is not an RFC 9110 token, or a value holding a control character (CR and
     * LF included, so no header can smuggle a second request), is refused.
     */
    public static Target parse(String url, List<String> headers) throws UnknownHostException {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + url);
        }
        if (!"http".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("only http:// URLs are supported: " + url);
        }
        String host = uri.getHost();
        if (host == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("expected http://host[:port][/path][?query]: " + url);
        }
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path = path + "?" + uri.getRawQuery();
        }
        String hostHeader = uri.getPort() < 0 ? host : host + ":" + port;
        String hostName = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(hostName), port);
        StringBuilder extra = new StringBuilder();
        for (String h : headers) {
            int colon = h.indexOf(':');
            String name = colon > 0 ? h.substring(0, colon) : "";
            String value = colon > 0 ? h.substring(colon + 1).strip() : "";
            if (!isToken(name) || !isFieldValue(value)) {
                throw new IllegalArgumentException("not a header line (Name: value): " + h);
            }
            if (name.equalsIgnoreCase("Host")) {
                hostHeader = value;
            } else {
                extra.append(name).append(": ").append(value).append("\r\n");
            }
        }
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\n" + extra + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        return new Target(url, address, request);
    }

    /** RFC 9110 §5.6.2 token: one or more tchar. */
    private static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean tchar = c < 128 && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
            if (!tchar) {
                return false;
            }
        }
        return true;
    }

    /** RFC 9110 §5.5 field value: visible characters, spaces and tabs, obs-text; no CR, LF or other controls. */
    private static boolean isFieldValue(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                return false;
            }
        }
        return true;
    }

    /** The URL as given. */
    public String url() {
        return url;
    }

    /** Resolved host and port. */
    public InetSocketAddress address() {
        return address;
    }

    /** A new direct buffer holding the request bytes, ready to write; callers rewind it for each request. */
    public ByteBuffer newRequestBuffer() {
        ByteBuffer b = ByteBuffer.allocateDirect(request.length);
        b.put(request).flip();
        return b;
    }

    @Override
    public String toString() {
        return url;
    }
}
