package io.ackscope.load;

import jdk.net.ExtendedSocketOptions;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Loads the socket, socket-option and parser classes before the first connection needs them. With ackscope's large
 * class path, loading them on first use takes milliseconds to tens of milliseconds on a busy machine, and that would
 * show up as latency of the first requests (in the load generator) or of the first responses (in the target server),
 * indistinguishable from a network delay.
 */
final class Warmup {

    private Warmup() {
    }

    /** Opens (without connecting) and closes one socket channel with the options we use, and frames two messages. */
    static void loadSocketAndParserClasses(boolean quickAck) throws IOException {
        try (SocketChannel ch = SocketChannel.open()) {
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (quickAck) {
                ch.setOption(ExtendedSocketOptions.TCP_QUICKACK, true);
            }
        }
        HttpParser.responses().feed(ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
        HttpParser.requests().feed(ascii("GET / HTTP/1.1\r\n\r\n"));
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }
}
