package io.ackscope.load;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The one URL a load run sends its requests to, resolved once. Only {@code http://} is spoken; the address is the
 * one the user named (no redirects are followed, nothing else is contacted).
 */
public final class Target {

    private final String url;
    private final InetSocketAddress address;
    /** {@code GET path HTTP/1.1} with a Host header and nothing else, as wrk sends by default. */
    private final byte[] request;

    private Target(String url, InetSocketAddress address, byte[] request) {
        this.url = url;
        this.address = address;
        this.request = request;
    }

    /** Parses {@code http://host[:port][/path][?query]} and resolves the host. */
    public static Target parse(String url) throws UnknownHostException {
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
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        return new Target(url, address, request);
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
