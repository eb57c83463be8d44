package io.ackscope.tcp;

import java.util.List;

/**
 * The latency causes the engine finds, and the one catalogue of what to change for each: the report lists
 * {@link #fixes} under each finding and in its verdict, {@code diagnose} prints {@link #fixInOneLine} in its
 * findings ({@link EndpointDiagnosis#findings}). A new cause gets its fixes here, beside its detection; the
 * report's finding kinds are these names.
 *
 * <p>Two families: the stall and wait kinds the tables carry today ({@link #NAGLE_SERVER_HELD},
 * {@link #NAGLE_CLIENT_HELD}, {@link #RETRANSMISSION_TIMEOUT}, {@link #ZERO_WINDOW}), and the per-connection
 * {@link CauseEvent}s of {@link CauseDetector} (handshake retransmissions and the recovery episodes, classified by
 * the rules in docs/causes.md). {@code RETRANSMISSION_TIMEOUT} is the older, coarser kind (a retransmission the
 * sender's timer sent after at least the minimum RTO, one per firing); {@link #RTO} is the classified episode.
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
    /** A sender waited for its retransmission timer (the tables' coarse latency-event kind). */
    RETRANSMISSION_TIMEOUT(
            "look for loss on the path, or tail loss at the end of responses",
            "Look for packet loss on the path (interface errors and drops, congested links).",
            "Loss of the last segments of a response is repaired faster with tail loss probes "
                    + "(RACK-TLP, on by default in current Linux)."),
    /** The receiver advertised a zero window: its application did not read; the sender waited for it. */
    ZERO_WINDOW(
            null,
            "Find out why the receiving application is slow to read (CPU, blocking work on the "
                    + "reading thread), or give it larger socket buffers."),
    /** The originator's SYN was retransmitted: the connect waited for the SYN retransmission timer (1 s on Linux). */
    SYN_RETRANSMISSION(
            "find where SYNs are lost: the server's listen queue (backlog, SYN cookies), a firewall, the path",
            "Check the server's listen queue: accept-queue overflows (netstat -s: 'times the listen queue of a "
                    + "socket overflowed') drop SYNs; raise the backlog (listen(), net.core.somaxconn) or accept "
                    + "faster.",
            "Look for a firewall or rate limiter dropping SYNs, and for loss on the path."),
    /** The responder retransmitted its SYN/ACK on its own timer (not in answer to a retransmitted SYN). */
    SYNACK_RETRANSMISSION(
            "find where SYN/ACKs or the handshake's last ACK are lost",
            "Look for loss on the path from the server to the client, or for a middlebox dropping the handshake's "
                    + "last ACK."),
    /** Loss repaired by a retransmission triggered by duplicate ACKs or SACK (RFC 5681 fast retransmit, RACK). */
    FAST_RETRANSMIT(
            "look for loss on the path",
            "Look for packet loss on the path (interface errors and drops, congested links, policers)."),
    /** Loss at the tail of a flight, repaired by a tail-loss probe sent before any RTO could fire (RFC 8985). */
    TAIL_LOSS_PROBE(
            "look for loss on the path at the end of responses",
            "Look for packet loss on the path; tail losses already cost only a probe timeout (RACK-TLP)."),
    /** Loss repaired only after a retransmission timeout (RFC 6298), possibly backed off; count = backoffs. */
    RTO(
            "look for loss on the path; repeated timeouts mean a path that loses many packets in a row",
            "Look for packet loss on the path (interface errors and drops, congested links, policers).",
            "Keep RACK-TLP on (Linux default) so tail losses are probed before the retransmission timer fires."),
    /** Retransmitted data the receiver already had (already ACKed, or reported by a D-SACK, RFC 2883). */
    SPURIOUS_RETRANSMISSION(
            null,
            "Spurious retransmissions mean the sender's timer fired before the ACK came back: look for delay "
                    + "spikes (queueing) on the path rather than loss."),
    /**
     * A sender filled its peer's receive window again and again while the peer kept reading: the window is smaller
     * than the path's bandwidth x delay ({@link WindowLimitDetector}); side = the receiver whose window it is.
     */
    RECEIVER_WINDOW_LIMITED(
            "give the receiving side a larger receive buffer (do not set a small SO_RCVBUF; let Linux autotune it, "
                    + "net.ipv4.tcp_rmem) and keep window scaling on",
            "Give the receiving side larger socket receive buffers: remove a small fixed SO_RCVBUF (setting one "
                    + "turns off Linux's receive-buffer autotuning), or raise net.ipv4.tcp_rmem's maximum (and "
                    + "net.core.rmem_max) to at least the path's bandwidth x round-trip time.",
            "Keep TCP window scaling on (RFC 7323; net.ipv4.tcp_window_scaling = 1) on both ends and on every "
                    + "middlebox: without it no window exceeds 64 KB.",
            "If the receiving application reads slowly, that is a different cause (zero windows): find out why it "
                    + "does not read."),
    /** The server had the request (it acknowledged it, or the capture is at the server) and answered late. */
    SERVER_PROCESSING(
            "profile the server's handling of these requests (the network delivered them at once)",
            "The network delivered each request at once and the server took the rest: profile the application "
                    + "(slow queries, locks, a full worker pool, garbage collection) for the requests listed.",
            "Cache or precompute the slow responses, or add server capacity."),
    /** The path's round trip is most of the time to first byte: the client is far from the server. */
    NETWORK_DELAY(
            "bring the server and its clients closer (a nearer region, a CDN edge) or save round trips",
            "Most of each request's time is the round trip between client and server: serve it from nearer "
                    + "(another region, a CDN or edge cache).",
            "Or spend fewer round trips per request: keep connections open, send requests in parallel, avoid "
                    + "redirects and chains of dependent requests."),
    /** Round trips rose far above the path's minimum: packets waited in a queue (bufferbloat). */
    QUEUEING_DELAY(
            "find the queue that fills (a bulk transfer sharing a slow link); use AQM (fq_codel, cake) or pacing",
            "Packets waited in a queue on the path: find the link that is full (a bulk transfer sharing it) and "
                    + "limit its queue with active queue management (fq_codel or cake on the bottleneck).",
            "Or pace the bulk senders (fq qdisc, BBR) or shape them below the link rate so the queue stays short."),
    /** A new connection for each request: every request pays a handshake before it can be sent. */
    CONNECTION_CHURN(
            "reuse connections (HTTP keep-alive, a connection pool) instead of one per request",
            "Each request opened its own connection and waited a handshake round trip before it could be sent: "
                    + "keep connections open (HTTP keep-alive, Connection: close removed) and pool them in the "
                    + "client.",
            "Short connections also leave TIME_WAIT sockets at the side that closes first; with many of them, "
                    + "port reuse collides (a SYN answered by the old connection's state)."),
    /**
     * A response after an idle period left in round-trip-spaced flights: the server's congestion window restarted
     * from the initial window (RFC 5681 4.1) ({@link IdleRestartDetector}); count = round trips beyond the first.
     */
    SLOW_START_AFTER_IDLE(
            "keep the server's congestion window over idle periods (Linux: net.ipv4.tcp_slow_start_after_idle = 0)",
            "The server's congestion window restarted from the initial window after each idle period, so each "
                    + "response after a pause waited for round trips of ACKs: on Linux, set "
                    + "net.ipv4.tcp_slow_start_after_idle = 0 on the server (the window then survives idle "
                    + "periods; on a path shared with others, its first flight can be a larger burst).",
            "Or keep the connection from idling longer than its retransmission timeout, or send the large "
                    + "responses on connections that are busy.",
            "Or raise the initial window on the server's route (ip route change ... initcwnd 20 initrwnd 20), "
                    + "which also shortens every new connection's first response."),
    /**
     * A connection's first response left in more round-trip-spaced, ACK-clocked flights than an initial window of 10
     * segments (RFC 6928) would need, its first flight smaller than 10 segments ({@link InitialWindow}); count = the
     * round trips beyond what IW10 needs.
     */
    SMALL_INITIAL_WINDOW(
            "raise the server's initial congestion window to 10 segments (Linux: ip route change ... initcwnd 10)",
            "The server's first flight on each new connection was smaller than 10 segments, so every first "
                    + "response waited extra round trips for ACKs: on Linux, look for an initcwnd below 10 on the "
                    + "route to the clients (ip route show) and raise it (ip route change ... initcwnd 10; 10 is the "
                    + "default since Linux 2.6.39, RFC 6928).",
            "Check that the client's receive window is not what is small: a route's initrwnd or a client with a "
                    + "small initial window caps the first flight too (raise initrwnd with initcwnd).",
            "Older kernels and some appliances (load balancers, proxies terminating TCP) start from 2-4 segments: "
                    + "upgrade or configure them; a middlebox that clamps the MSS makes each of the 10 segments "
                    + "smaller. TCP_NOTSENT_LOWAT and socket buffers do not change the initial window.",
            "Or reuse connections (keep-alive, a pool), so that fewer responses are a connection's first.");

    /** What to change, one step a line, most effective first: the report's words. */
    public final List<String> fixes;
    /** The fixes as {@code diagnose} words them in its one-line findings; null where it names none. */
    public final String fixInOneLine;

    /**
     * The cause in a few words, for a reader who does not know the name: the report's titles. A cause without
     * words here is named from its constant ("NEW_CAUSE" reads "New cause"), so a new detector shows at once.
     */
    public String title() {
        return switch (this) {
            case NAGLE_SERVER_HELD -> "Responses wait for the client's delayed ACK (Nagle × delayed ACK)";
            case NAGLE_CLIENT_HELD -> "Requests wait for the server's delayed ACK (Nagle × delayed ACK)";
            case RETRANSMISSION_TIMEOUT -> "Retransmission timeouts";
            case ZERO_WINDOW -> "Receiver stopped reading (zero window)";
            case SYN_RETRANSMISSION -> "Connection setup waited for a SYN retransmission";
            case SYNACK_RETRANSMISSION -> "Connection setup waited for a SYN/ACK retransmission";
            case FAST_RETRANSMIT -> "Loss repaired by fast retransmit";
            case TAIL_LOSS_PROBE -> "Tail loss repaired by a tail-loss probe";
            case RTO -> "Loss repaired only after a retransmission timeout";
            case SPURIOUS_RETRANSMISSION -> "Spurious retransmissions";
            case SLOW_START_AFTER_IDLE -> "Responses after idle wait for the congestion window (slow start after idle)";
            case SMALL_INITIAL_WINDOW ->
                    "First responses wait for a congestion window below 10 segments (small initial window)";
            default -> words(name());
        };
    }

    /** "SOME_NAME" as "Some name". */
    static String words(String name) {
        String s = name.replace('_', ' ').toLowerCase(java.util.Locale.ROOT);
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The fix in one line: {@link #fixInOneLine}, or the first of {@link #fixes} where there is none. */
    public String oneLineFix() {
        return fixInOneLine != null ? fixInOneLine : fixes.isEmpty() ? "" : fixes.get(0);
    }

    Cause(String fixInOneLine, String... fixes) {
        this.fixInOneLine = fixInOneLine;
        this.fixes = List.of(fixes);
    }
}
