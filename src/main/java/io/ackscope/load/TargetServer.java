package io.ackscope.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * An HTTP/1.1 keep-alive server whose write pattern is explicit, to reproduce (or rule out) the Nagle × delayed-ACK
 * stall. Every request gets {@code 200 OK} with a body of {@code bodySize} bytes, after {@code thinkNanos}.
 *
 * <p>With {@code splitWrites} the status line and headers go out in one {@code write()} and the body in a second,
 * the way nginx sends a static file with {@code sendfile on}. With Nagle's algorithm on ({@code noDelay} false) the
 * kernel sends the headers at once but holds the body (smaller than a segment) until the headers are acknowledged;
 * a client that delays its ACK (Linux does, by 40 ms and more, on a connection that looks interactive) then waits
 * that long for each response after the first on a connection (a new connection starts in quick-ACK mode); on
 * Linux 6.x loopback that is 44 to 50 ms. With {@code noDelay}, or with headers and body in one
 * write (a single buffer, or one gathering {@code writev}), nothing is held and there is no stall.
 *
 * <p>One thread, one selector. Requests are framed with {@link HttpParser#requests()}; pipelined requests are
 * answered in order, one at a time. A malformed request closes its connection. The response bytes are built once;
 * each connection writes through its own two views of them, so serving allocates nothing per request.
 */
public final class TargetServer implements AutoCloseable {

    /** Upper bound on the body size. */
    public static final int MAX_BODY_BYTES = 64 * 1024 * 1024;
    /** Upper bound on the think time: one minute. */
    public static final long MAX_THINK_NANOS = 60_000_000_000L;
    /** Connections open at once; more are accepted and closed at once. */
    public static final int MAX_CONNECTIONS = 10_000;
    private static final int READ_BUFFER_BYTES = 16 * 1024;

    /**
     * How the server answers.
     *
     * @param bind        address to listen on (loopback unless the user says otherwise)
     * @param port        port, 0 for any free one
     * @param noDelay     set TCP_NODELAY on accepted connections
     * @param splitWrites headers and body in two write() calls instead of one
     * @param bodySize    bytes of response body
     * @param thinkNanos  delay between a complete request and its response
     */
    public record Options(InetAddress bind, int port, boolean noDelay, boolean splitWrites, int bodySize,
                          long thinkNanos) {
        public Options {
            if (bind == null) {
                throw new IllegalArgumentException("no bind address");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 to 65535: " + port);
            }
            if (bodySize < 0 || bodySize > MAX_BODY_BYTES) {
                throw new IllegalArgumentException("body size must be 0 to " + MAX_BODY_BYTES + ": " + bodySize);
            }
            if (thinkNanos < 0 || thinkNanos > MAX_THINK_NANOS) {
                throw new IllegalArgumentException("think time must be 0 to 60s");
            }
        }

        /** The write pattern in words, as printed on start. */
        public String writePattern() {
            return (splitWrites ? "headers and body in 2 write() calls" : "headers and body in 1 write()")
                    + ", TCP_NODELAY " + (noDelay ? "on" : "off");
        }

        /** Whether this pattern makes a delayed-ACK client stall (Nagle holds the second write). */
        public boolean stalls() {
            return splitWrites && !noDelay && bodySize > 0;
        }
    }

    private final Options options;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final Thread thread;
    private final ArrayDeque<Conn> thinking = new ArrayDeque<>();
    private final Consumer<SelectionKey> onReady = this::ready;
    /** Layout: [headers with Connection: close][headers][body]; views of it are what connections write. */
    private final ByteBuffer response;
    private final int closeHeadersEnd;
    private final int headersEnd;

    private volatile boolean stopping;
    private volatile long requests;
    private volatile long connections;
    private volatile long badRequests;
    private long deadlineNanos = Long.MAX_VALUE;
    private int open;

    private TargetServer(Options options) throws IOException {
        this.options = options;
        String base = "HTTP/1.1 200 OK\r\nServer: ackscope\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: " + options.bodySize() + "\r\n";
        byte[] closeHeaders = (base + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] headers = (base + "\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocateDirect(closeHeaders.length + headers.length + options.bodySize());
        b.put(closeHeaders).put(headers);
        for (int i = 0; i < options.bodySize(); i++) {
            b.put((byte) (i % 64 == 63 ? '\n' : 'a' + i % 26));
        }
        this.response = b.flip().asReadOnlyBuffer();
        this.closeHeadersEnd = closeHeaders.length;
        this.headersEnd = closeHeaders.length + headers.length;
        Warmup.loadSocketAndParserClasses(false);
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
        try {
            server.bind(new InetSocketAddress(options.bind(), options.port()), 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            server.close();
            selector.close();
            throw e;
        }
        this.thread = new Thread(this::run, "ackscope-serve");
    }

    /** Binds and starts serving on a thread of its own. */
    public static TargetServer start(Options options) throws IOException {
        TargetServer s = new TargetServer(options);
        s.thread.start();
        return s;
    }

    /** Stops by itself this long after now (the {@code --duration} of {@code ackscope serve}). */
    public TargetServer stopAfter(long nanos) {
        deadlineNanos = System.nanoTime() + nanos;
        selector.wakeup();
        return this;
    }

    public Options options() {
        return options;
    }

    /** The bound address, with the actual port when 0 was asked for. */
    public InetSocketAddress address() {
        return new InetSocketAddress(options.bind(), server.socket().getLocalPort());
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    /** Requests answered so far. */
    public long requests() {
        return requests;
    }

    /** Connections accepted so far. */
    public long connections() {
        return connections;
    }

    /** Connections closed because their request could not be framed. */
    public long badRequests() {
        return badRequests;
    }

    /** Waits until the server stopped (after {@link #stopAfter} or {@link #close}). */
    public void await() throws InterruptedException {
        thread.join();
    }

    /** Stops serving, closes every connection and waits for the server thread. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        selector.wakeup();
        thread.join();
    }

    private void run() {
        try {
            while (!stopping) {
                long now = System.nanoTime();
                if (now >= deadlineNanos) {
                    break;
                }
                while (!thinking.isEmpty() && thinking.peekFirst().dueAt <= now) {
                    respond(thinking.pollFirst());
                }
                long wake = Math.min(deadlineNanos, thinking.isEmpty() ? Long.MAX_VALUE : thinking.peekFirst().dueAt);
                long waitMillis = wake == Long.MAX_VALUE ? 0 : Math.max(1, (wake - now + 999_999) / 1_000_000);
                selector.select(onReady, waitMillis);
            }
        } catch (IOException e) {
            // the selector itself failed: nothing can be served any more; fall through and close everything
        } finally {
            for (SelectionKey k : selector.keys()) {
                closeQuietly(k);
            }
            try {
                selector.close();
                server.close();
            } catch (IOException e) {
                // shutting down: nothing left to serve, nobody to report to
            }
        }
    }

    private void ready(SelectionKey k) {
        if (!k.isValid()) {
            return;
        }
        if (k.isAcceptable()) {
            accept();
            return;
        }
        Conn c = (Conn) k.attachment();
        try {
            if (k.isWritable()) {
                if (writeResponse(c) && afterResponse(c)) {
                    process(c);
                }
            } else if (k.isReadable()) {
                if (c.channel.read(c.in) < 0) {
                    close(c);
                } else {
                    process(c);
                }
            }
        } catch (IOException e) {
            close(c); // reset or broken pipe: the client went away
        }
    }

    private void accept() {
        try {
            SocketChannel ch;
            while ((ch = server.accept()) != null) {
                connections++;
                if (open >= MAX_CONNECTIONS) {
                    ch.close();
                    continue;
                }
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, options.noDelay());
                Conn c = new Conn(ch, response);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                open++;
            }
        } catch (IOException e) {
            // accept failed (out of descriptors, or the client reset first); the listener stays up
        }
    }

    /**
     * Frames what is buffered and answers complete requests one at a time, in order, until the buffer holds no
     * complete request, a response waits for its think time, or a write would block.
     */
    private void process(Conn c) throws IOException {
        while (c.in.position() > 0) {
            c.in.flip();
            HttpParser.Progress p = c.parser.feed(c.in);
            c.in.compact();
            if (p == HttpParser.Progress.MALFORMED) {
                badRequests++;
                close(c);
                return;
            }
            if (p == HttpParser.Progress.NEED_MORE) {
                return;
            }
            requests++;
            c.closeAfter = !c.parser.keepAlive();
            c.head = c.parser.isHead();
            c.parser.reset();
            if (options.thinkNanos() > 0) {
                c.key.interestOps(0);
                c.dueAt = System.nanoTime() + options.thinkNanos();
                thinking.addLast(c); // constant think time: due times come in arrival order
                return;
            }
            if (!startResponse(c) || !afterResponse(c)) {
                return;
            }
        }
    }

    /** Answers a request whose think time is over. */
    private void respond(Conn c) {
        if (!c.channel.isOpen()) {
            return;
        }
        try {
            if (startResponse(c) && afterResponse(c)) {
                process(c);
            }
        } catch (IOException e) {
            close(c);
        }
    }

    /** Points the connection's views at the response and writes; true when all of it is out. */
    private boolean startResponse(Conn c) throws IOException {
        int hStart = c.closeAfter ? 0 : closeHeadersEnd;
        int hEnd = c.closeAfter ? closeHeadersEnd : headersEnd;
        int end = response.limit();
        if (c.head || options.bodySize() == 0) {
            c.setViews(hStart, hEnd, 0, 0);
        } else if (options.splitWrites() || c.closeAfter) {
            c.setViews(hStart, hEnd, headersEnd, end); // two writes, or one gathering write
        } else {
            c.setViews(hStart, end, 0, 0); // headers and body are contiguous: one write
        }
        if (writeResponse(c)) {
            return true;
        }
        c.key.interestOps(SelectionKey.OP_WRITE);
        return false;
    }

    /** Writes what it can; true when the whole response is out. */
    private boolean writeResponse(Conn c) throws IOException {
        if (!options.splitWrites() && c.second.hasRemaining()) {
            c.channel.write(c.both); // one writev for headers and body
            return !c.second.hasRemaining();
        }
        if (c.first.hasRemaining()) {
            c.channel.write(c.first);
            if (c.first.hasRemaining()) {
                return false;
            }
        }
        if (c.second.hasRemaining()) {
            c.channel.write(c.second); // the second write() that Nagle holds back
        }
        return !c.second.hasRemaining();
    }

    /** After a complete response: closes if asked to, else reads again; true when more requests may follow. */
    private boolean afterResponse(Conn c) {
        if (c.closeAfter) {
            close(c);
            return false;
        }
        c.key.interestOps(SelectionKey.OP_READ);
        return true;
    }

    private void close(Conn c) {
        if (c.key.isValid()) {
            open--;
        }
        closeQuietly(c.key);
    }

    private static void closeQuietly(SelectionKey k) {
        k.cancel();
        try {
            k.channel().close();
        } catch (IOException e) {
            // dropping the connection either way
        }
    }

    /** One accepted connection. */
    private static final class Conn {
        final SocketChannel channel;
        final HttpParser parser = HttpParser.requests();
        final ByteBuffer in = ByteBuffer.allocate(READ_BUFFER_BYTES);
        final ByteBuffer first;
        final ByteBuffer second;
        final ByteBuffer[] both;
        SelectionKey key;
        boolean closeAfter;
        boolean head;
        long dueAt;

        Conn(SocketChannel channel, ByteBuffer response) {
            this.channel = channel;
            this.first = response.duplicate();
            this.second = response.duplicate();
            this.both = new ByteBuffer[] {first, second};
            second.limit(0);
        }

        void setViews(int firstStart, int firstEnd, int secondStart, int secondEnd) {
            first.limit(firstEnd).position(firstStart);
            second.limit(secondEnd).position(secondStart);
        }
    }
}
