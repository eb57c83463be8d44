package io.ackscope.load;

import jdk.net.ExtendedSocketOptions;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One load thread: a selector and its share of the connections, driven by one event loop. Nothing is allocated per
 * request: the request bytes, the read buffer, the parsers and the histograms exist before the first request, and
 * per-request rows (when kept) go into primitive arrays.
 *
 * <p><b>Closed loop</b> (no rate): each connection sends its next request as soon as the previous response is
 * complete, the way wrk does. That is what exposes the Nagle × delayed-ACK stall: every request waits for the
 * previous response, so a 40 ms stall on each response caps a connection at 25 requests per second.
 *
 * <p><b>Open loop</b> ({@code -R}): request {@code k} of connection {@code g} is due at
 * {@code start + (g + k * connections) / rate}, so the run as a whole sends {@code rate} requests per second evenly
 * spaced. A request that cannot go out on time (its connection still waits for the previous response) goes out as
 * soon as it can, and its latency is measured twice: from when it was actually written (raw) and from when it was due
 * (corrected), which is wrk2's answer to coordinated omission. HdrHistogram's
 * {@code recordValueWithExpectedInterval} would fill in the missing samples after the fact from a closed-loop
 * measurement; here the intended send times are known exactly, so the corrected histogram needs no guess. Sends are
 * scheduled with the selector's millisecond timeout, so a send can be up to about 1 ms late; that lateness is part
 * of the corrected latency, as with wrk2.
 *
 * <p><b>TCP_QUICKACK</b> ({@code quickAck}): Linux delays the ACK of a segment that arrives while the connection
 * looks interactive (it just sent us a request) by up to 40 ms, hoping to piggyback it on the next data; a server
 * with Nagle on that wrote headers and body separately holds the body until that ACK arrives. Setting TCP_QUICKACK
 * makes the kernel acknowledge at once, but the option is not sticky: the kernel leaves quick-ACK mode on its own
 * (when its quick-ACK budget is spent, or when it sees the connection as interactive again after we send). So a
 * client that relies on it has to set it again after every read, as this one does; each such call also sends at once
 * any ACK the kernel is holding back, which is what releases the server's held segment.
 */
final class LoadWorker implements Runnable {

    /** Requests-per-second sampling interval of the per-thread "Req/Sec" statistics (wrk uses 100 ms too). */
    static final long SAMPLE_NANOS = 100_000_000L;
    /** Wait after a failed connect before trying again, so a refused port does not spin the thread. */
    static final long RECONNECT_BACKOFF_NANOS = 100_000_000L;
    /** Bytes read per read() call; large enough that a few-KB response is one read. */
    static final int READ_BUFFER_BYTES = 64 * 1024;
    /** Highest latency the histograms track, in microseconds (one hour); longer ones are clamped. */
    static final long HIGHEST_LATENCY_US = 3_600_000_000L;

    private final LoadConfig config;
    private final InetSocketAddress address;
    private final LoadConnection[] conns;
    private final Selector selector;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    private final AtomicInteger connectionIds;
    private final LoadRun run;
    private final long quota;
    private final long periodNanos;
    private final double runPeriod;
    private final int firstSlot;
    private final Consumer<SelectionKey> onReady = this::ready;
    /** End of the warm-up: what completes or fails before this is not counted. */
    private long measureFrom;
    private long endNanos;

    final Histogram latency = new Histogram(HIGHEST_LATENCY_US, 3);
    /** Latency from the intended send time; null in a closed loop, where it equals {@link #latency}. */
    final Histogram corrected;
    final long[] errors = new long[LoadError.values().length];
    final RequestLog log;
    long completed;
    long failedRequests;
    long statusErrors;
    long bytesRead;
    long stopNanos;
    double[] rateSamples = new double[16];
    int rateSampleCount;
    IOException fatal;

    private long issued;
    private int outstanding;
    private long nextDue = Long.MAX_VALUE;
    private long lastSampleNanos;
    private long completedAtLastSample;

    /**
     * Allocates everything the run needs and opens the selector, so that none of it happens on the clock.
     *
     * @param firstSlot run-wide number of this worker's first connection slot, which fixes the slots' phase in the
     *                  open-loop schedule
     */
    LoadWorker(int index, LoadConfig config, int slots, int firstSlot, long quota, AtomicInteger connectionIds,
               LoadRun run) throws IOException {
        this.config = config;
        this.address = config.target().address();
        this.connectionIds = connectionIds;
        this.run = run;
        this.quota = quota;
        this.firstSlot = firstSlot;
        this.corrected = config.openLoop() ? new Histogram(HIGHEST_LATENCY_US, 3) : null;
        this.log = config.recordRequests() ? new RequestLog(index, (int) Math.min(quota, 1 << 16)) : null;
        this.runPeriod = config.openLoop() ? 1e9 / config.rate() : 0;
        this.periodNanos = (long) (runPeriod * config.connections());
        this.conns = new LoadConnection[slots];
        for (int i = 0; i < slots; i++) {
            conns[i] = new LoadConnection(config.target().newRequestBuffer());
        }
        this.selector = Selector.open();
    }

    /** Fixes the run's start (shared by all workers); call once, before the worker's thread starts. */
    void startAt(long runStartNanos) {
        this.measureFrom = runStartNanos + config.warmupNanos();
        this.endNanos = measureFrom + config.durationNanos();
        for (int i = 0; i < conns.length; i++) {
            conns[i].nextIntended = runStartNanos + (long) (runPeriod * (firstSlot + i));
        }
    }

    @Override
    public void run() {
        try {
            loop();
        } catch (IOException e) {
            fatal = e;
        } finally {
            stopNanos = System.nanoTime();
            for (LoadConnection c : conns) {
                close(c);
            }
            closeSelector();
        }
    }

    /** Wakes the selector so that the loop sees {@link LoadRun#cancelled()} at once. */
    void wakeup() {
        selector.wakeup();
    }

    /** Closes the selector (at the end of the run, or when the run could not start). */
    void closeSelector() {
        try {
            selector.close();
        } catch (IOException e) {
            // closing at the end of the run: nothing left to report it to
        }
    }

    private void loop() throws IOException {
        long now = System.nanoTime();
        lastSampleNanos = Math.max(now, measureFrom);
        long nextSample = lastSampleNanos + SAMPLE_NANOS;
        for (LoadConnection c : conns) {
            open(c, now);
        }
        while (!run.cancelled()) {
            now = System.nanoTime();
            if (now >= endNanos || (issued >= quota && outstanding == 0)) {
                break;
            }
            if (now >= nextSample) {
                sample(now);
                nextSample = Math.max(nextSample + SAMPLE_NANOS, now + 1);
            }
            if (now >= nextDue) {
                nextDue = Long.MAX_VALUE;
                for (LoadConnection c : conns) {
                    due(c, now);
                }
            }
            long wake = Math.min(Math.min(endNanos, nextSample), nextDue);
            long waitMillis = Math.max(1, (wake - now + 999_999) / 1_000_000);
            selector.select(onReady, waitMillis);
        }
        if (System.nanoTime() - lastSampleNanos >= SAMPLE_NANOS / 2) {
            sample(System.nanoTime());
        }
    }

    private void sample(long now) {
        if (rateSampleCount == rateSamples.length) {
            rateSamples = Arrays.copyOf(rateSamples, rateSampleCount * 2);
        }
        rateSamples[rateSampleCount++] = (completed - completedAtLastSample) * 1e9 / (now - lastSampleNanos);
        completedAtLastSample = completed;
        lastSampleNanos = now;
    }

    private void schedule(LoadConnection c, long at) {
        c.deadline = at;
        if (at < nextDue) {
            nextDue = at;
        }
    }

    /** Acts on a slot whose deadline has come, or notes its deadline for the next wake-up. */
    private void due(LoadConnection c, long now) {
        if (c.deadline > now) {
            if (c.deadline < nextDue) {
                nextDue = c.deadline;
            }
            return;
        }
        switch (c.state) {
            case LoadConnection.CLOSED:
                open(c, now);
                return;
            case LoadConnection.CONNECTING:
                fail(c, LoadError.CONNECT, now);
                return;
            case LoadConnection.IDLE:
                send(c);
                return;
            default:
                fail(c, LoadError.TIMEOUT, now);
        }
    }

    private void ready(SelectionKey k) {
        LoadConnection c = (LoadConnection) k.attachment();
        if (c.key != k || !k.isValid()) {
            return;
        }
        int ops = k.readyOps();
        if ((ops & SelectionKey.OP_CONNECT) != 0) {
            finishConnect(c);
            return;
        }
        if ((ops & SelectionKey.OP_WRITE) != 0 && c.state == LoadConnection.WRITING) {
            writeRest(c);
        }
        if ((ops & SelectionKey.OP_READ) != 0 && c.key == k) {
            read(c);
        }
    }

    private void open(LoadConnection c, long now) {
        c.state = LoadConnection.CONNECTING;
        try {
            SocketChannel ch = SocketChannel.open();
            c.channel = ch;
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, config.noDelay());
            if (config.quickAck()) {
                ch.setOption(ExtendedSocketOptions.TCP_QUICKACK, true);
            }
            if (ch.connect(address)) {
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                connected(c, now);
            } else {
                c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
                schedule(c, now + config.timeoutNanos());
            }
        } catch (IOException e) {
            fail(c, LoadError.CONNECT, now);
        }
    }

    private void finishConnect(LoadConnection c) {
        try {
            if (c.channel.finishConnect()) {
                c.key.interestOps(SelectionKey.OP_READ);
                connected(c, System.nanoTime());
            }
        } catch (IOException e) {
            fail(c, LoadError.CONNECT, System.nanoTime());
        }
    }

    private void connected(LoadConnection c, long now) throws IOException {
        c.id = connectionIds.getAndIncrement();
        c.localPort = ((InetSocketAddress) c.channel.getLocalAddress()).getPort();
        c.seqOnConnection = 0;
        c.state = LoadConnection.IDLE;
        c.deadline = Long.MAX_VALUE;
        next(c, now);
    }

    /** After a connect or a response: the next request now (closed loop, or open loop running late) or when due. */
    private void next(LoadConnection c, long now) {
        if (periodNanos > 0 && c.nextIntended > now) {
            schedule(c, c.nextIntended);
        } else {
            send(c);
        }
    }

    private void send(LoadConnection c) {
        if (issued >= quota) {
            c.state = LoadConnection.IDLE;
            c.deadline = Long.MAX_VALUE;
            return;
        }
        long now = System.nanoTime();
        issued++;
        outstanding++;
        c.actualStart = now;
        if (periodNanos > 0) {
            c.intendedStart = c.nextIntended;
            c.nextIntended += periodNanos;
        } else {
            c.intendedStart = now;
        }
        c.parser.reset();
        ByteBuffer req = c.request;
        req.rewind();
        c.state = LoadConnection.AWAITING;
        schedule(c, now + config.timeoutNanos());
        try {
            c.channel.write(req);
        } catch (IOException e) {
            fail(c, LoadError.WRITE, now);
            return;
        }
        if (req.hasRemaining()) {
            c.state = LoadConnection.WRITING;
            c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private void writeRest(LoadConnection c) {
        try {
            c.channel.write(c.request);
        } catch (IOException e) {
            fail(c, LoadError.WRITE, System.nanoTime());
            return;
        }
        if (!c.request.hasRemaining()) {
            c.state = LoadConnection.AWAITING;
            c.key.interestOps(SelectionKey.OP_READ);
        }
    }

    private void read(LoadConnection c) {
        ByteBuffer buf = readBuffer;
        while (true) {
            buf.clear();
            int n;
            try {
                n = c.channel.read(buf);
                if (n > 0 && config.quickAck()) {
                    // Not sticky: re-arm after every read (see the class comment). This also flushes a held ACK.
                    c.channel.setOption(ExtendedSocketOptions.TCP_QUICKACK, true);
                }
            } catch (IOException e) {
                fail(c, LoadError.READ, System.nanoTime());
                return;
            }
            long now = System.nanoTime();
            if (n < 0) {
                endOfStream(c, now);
                return;
            }
            if (n == 0) {
                return;
            }
            if (now >= measureFrom) {
                bytesRead += n;
            }
            if (!c.inFlight()) {
                fail(c, LoadError.PARSE, now); // bytes nobody asked for
                return;
            }
            buf.flip();
            switch (c.parser.feed(buf)) {
                case COMPLETE:
                    if (buf.hasRemaining()) {
                        fail(c, LoadError.PARSE, now); // more than one response to one request
                    } else {
                        complete(c, now);
                    }
                    return;
                case MALFORMED:
                    fail(c, LoadError.PARSE, now);
                    return;
                default:
                    if (n < buf.capacity()) {
                        return; // socket drained for now
                    }
            }
        }
    }

    private void endOfStream(LoadConnection c, long now) {
        if (!c.inFlight()) {
            close(c); // the server closed an idle connection: not an error, open another
            open(c, now);
        } else if (c.parser.started() && c.parser.onEof() == HttpParser.Progress.COMPLETE) {
            complete(c, now); // body delimited by the close
        } else {
            fail(c, LoadError.READ, now);
        }
    }

    private void complete(LoadConnection c, long now) {
        outstanding--;
        if (now >= measureFrom) {
            record(c, now);
        }
        c.seqOnConnection++;
        c.state = LoadConnection.IDLE;
        c.deadline = Long.MAX_VALUE;
        if (c.parser.keepAlive()) {
            next(c, now);
        } else {
            close(c);
            open(c, now);
        }
    }

    private void record(LoadConnection c, long now) {
        completed++;
        int status = c.parser.status();
        if (status < 200 || status > 399) {
            statusErrors++;
        }
        latency.recordValue(Math.min((now - c.actualStart) / 1000, HIGHEST_LATENCY_US));
        if (corrected != null) {
            corrected.recordValue(Math.min((now - c.intendedStart) / 1000, HIGHEST_LATENCY_US));
        }
        if (log != null) {
            log.add(c.id, c.localPort, c.seqOnConnection, c.intendedStart, c.actualStart, now, status,
                    c.parser.messageBytes(), null);
        }
    }

    /**
     * Counts the failure (unless still warming up), drops the request in flight (if any), and schedules a new
     * connection: on the next turn of the loop (never from here, so that a server that resets every connection
     * cannot recurse us into the ground), or after a back-off if the connect itself failed.
     */
    private void fail(LoadConnection c, LoadError kind, long now) {
        boolean measuring = now >= measureFrom;
        if (measuring) {
            errors[kind.ordinal()]++;
        }
        if (c.inFlight()) {
            outstanding--;
        }
        if (c.inFlight() && measuring) {
            failedRequests++;
            if (log != null) {
                log.add(c.id, c.localPort, c.seqOnConnection, c.intendedStart, c.actualStart, now,
                        c.parser.status(), c.parser.messageBytes(), kind);
            }
        }
        close(c);
        schedule(c, kind == LoadError.CONNECT ? now + RECONNECT_BACKOFF_NANOS : now);
    }

    private void close(LoadConnection c) {
        c.state = LoadConnection.CLOSED;
        c.deadline = Long.MAX_VALUE;
        if (c.key != null) {
            c.key.cancel();
            c.key = null;
        }
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException e) {
                // the connection is being dropped either way; a failed close leaves nothing to do
            }
            c.channel = null;
        }
    }
}
