package io.ackscope.load;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection slot of a {@link LoadWorker}: the TCP connection currently open in it (a slot opens a new one
 * after an error or a close) and the request in flight. Plain mutable state, touched only by its worker's thread.
 */
final class LoadConnection {

    /** Not connected; {@link #deadline} is when to try again. */
    static final int CLOSED = 0;
    /** Connect in progress; {@link #deadline} is the connect timeout. */
    static final int CONNECTING = 1;
    /** Connected, no request in flight; {@link #deadline} is the next scheduled send (open loop) or never. */
    static final int IDLE = 2;
    /** Request partly written; {@link #deadline} is the request timeout. */
    static final int WRITING = 3;
    /** Request written, response not complete; {@link #deadline} is the request timeout. */
    static final int AWAITING = 4;

    final HttpParser parser = HttpParser.responses();
    /** This slot's own view of the request bytes, rewound for each request. */
    final ByteBuffer request;

    SocketChannel channel;
    SelectionKey key;
    int state = CLOSED;
    /** When this slot next needs attention, whatever its state; Long.MAX_VALUE for never. */
    long deadline = Long.MAX_VALUE;

    /** Run-wide number of the TCP connection currently in this slot. */
    int id = -1;
    int localPort;
    /** Requests sent on the current TCP connection before the one in flight. */
    int seqOnConnection;

    /** When the request in flight should have been sent (open loop) or was sent (closed loop). */
    long intendedStart;
    /** When the request in flight was written. */
    long actualStart;
    /** Open loop: intended send time of the next request on this slot. */
    long nextIntended;

    LoadConnection(ByteBuffer request) {
        this.request = request;
    }

    boolean inFlight() {
        return state == WRITING || state == AWAITING;
    }
}
