package io.ackscope.tcp;

import java.util.List;

/**
 * The latency causes the engine finds, and the one catalogue of what to change for each: the report lists
 * {@link #fixes} under each finding and in its verdict, {@code diagnose} prints {@link #fixInOneLine} in its
 * findings ({@link Diagnosis.Endpoint#findings}). A new cause gets its fixes here, beside its detection; the
 * report's finding kinds are these names.
 */
public enum Cause {
    /** Responses wait for the client's delayed ACK: the server sends with Nagle on. */
    NAGLE_SERVER_HELD(
            "TCP_NODELAY on the server (nginx: tcp_nodelay on), or TCP_QUICKACK on the client, or send the response "
                    + "in one write (nginx: tcp_nopush on; TCP_CORK).",
            "Turn on TCP_NODELAY on the server's sockets, so a small write is sent at once instead of waiting for "
                    + "the previous one to be acknowledged (nginx: tcp_nodelay on; most application servers have "
                    + "a similar setting).",
            "Or send each response in one piece: with sendfile, nginx's tcp_nopush on (TCP_CORK) makes headers and "
                    + "body leave together; in your own code, build the response in one buffer or use writev().",
            "Or, if only the clients can be changed: set TCP_QUICKACK on the client socket after each read (Linux), "
                    + "so the client acknowledges at once instead of after its delayed-ACK timer."),
    /** Requests wait for the server's delayed ACK: the client sends with Nagle on. */
    NAGLE_CLIENT_HELD(
            "TCP_NODELAY on the client, or TCP_QUICKACK on the server, or write each request in one call.",
            "Turn on TCP_NODELAY on the client's sockets, so the second part of a request is sent at once.",
            "Or write each request in one call (one buffer, or writev()), so there is no second part to hold back.",
            "Or, if only the server can be changed: set TCP_QUICKACK on the server socket after each read (Linux), "
                    + "so the server acknowledges at once."),
    /** A sender waited for its retransmission timer. */
    RETRANSMISSION_TIMEOUT(
            "look for loss on the path, or tail loss at the end of responses",
            "Look for packet loss on the path (interface errors and drops, congested links).",
            "Loss of the last segments of a response is repaired faster with tail loss probes "
                    + "(RACK-TLP, on by default in current Linux)."),
    /** A receiver advertised a zero window and its peer waited. */
    ZERO_WINDOW(
            null,
            "Find out why the receiving application is slow to read (CPU, blocking work on the "
                    + "reading thread), or give it larger socket buffers.");

    /** What to change, one step a line, most effective first: the report's words. */
    public final List<String> fixes;
    /** The fixes as {@code diagnose} words them in its one-line findings; null where it names none. */
    public final String fixInOneLine;

    Cause(String fixInOneLine, String... fixes) {
        this.fixInOneLine = fixInOneLine;
        this.fixes = List.of(fixes);
    }
}
