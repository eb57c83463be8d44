package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The class of delayed-ACK timer that held a Nagle × delayed-ACK stall, told from the stalls' ACK delays: the fix
 * on the delaying host depends on its stack, and the timer's length names the likely stacks (docs/causes.md,
 * "Which delayed-ACK timer"). Linux delays an ACK by {@code icsk_ack.ato}, 40 ms ({@code TCP_DELACK_MIN}) at
 * first; in {@code tcp_send_delayed_ack} that is capped by max(smoothed RTT, 40 ms) and by 200 ms
 * ({@code TCP_DELACK_MAX}), and the timer doubles {@code ato} each time it fires outside ping-pong mode
 * ({@code tcp_delack_timer_handler}), so on a path with a round trip of 200 ms or more a Linux receiver delays its
 * ACKs by up to 200 ms too. Windows' timer is 200 ms ({@code TcpDelAckTicks} 2); macOS and other BSD-derived
 * stacks delay by 100 ms or more.
 */
public enum DelayedAckTimer {
    /** Linux's delayed-ACK timer at its minimum (40 ms), or FreeBSD's (40 ms). */
    CLASS_40MS("the 40 ms delayed-ACK timer of Linux (TCP_DELACK_MIN) or FreeBSD",
            "TCP_QUICKACK on the %s after each read (Linux)"),
    /** A timer of 100 ms or more: Windows (200 ms), macOS, or Linux on a path with a long round trip. */
    CLASS_200MS("a 200 ms-class delayed-ACK timer: Windows (200 ms), macOS, or Linux on a long path (its timer "
            + "grows with the round trip up to 200 ms, TCP_DELACK_MAX)",
            "on the %s, per stack: Windows TcpAckFrequency = 1 (registry, per interface) or "
                    + "SIO_TCP_SET_ACK_FREQUENCY on the socket, macOS sysctl net.inet.tcp.delayed_ack=0, Linux "
                    + "TCP_QUICKACK after each read");

    /**
     * A typical (median) ACK delay at or above this is the 200 ms class: twice the top of the 40 ms band
     * ({@link AckClass#BAND_40_HIGH}), which a 40 ms timer does not reach even on a loaded host, and below
     * the 100 ms of the shortest BSD-derived timers.
     */
    public static final long CLASS_200_FROM_NANOS = 100_000_000L;

    /** What the timer is, in words. */
    public final String words;
    private final String delayingHostFix;

    DelayedAckTimer(String words, String delayingHostFix) {
        this.words = words;
        this.delayingHostFix = delayingHostFix;
    }

    /** The class of a stall whose typical (median) ACK delay is {@code ackDelayNanos}. */
    public static DelayedAckTimer of(long ackDelayNanos) {
        return ackDelayNanos >= CLASS_200_FROM_NANOS ? CLASS_200MS : CLASS_40MS;
    }

    /** The fix on the host that delays its ACKs ({@code host}: "client" or "server"), for its stack. */
    public String delayingHostFix(String host) {
        return String.format(Locale.ROOT, delayingHostFix, host);
    }

    /**
     * The one-line fix of a Nagle × delayed-ACK cause held by this timer: the cause's own line for the 40 ms
     * timer ({@link Cause#fixInOneLine}); for the 200 ms class the holder's fixes and the delaying host's per
     * stack, since TCP_QUICKACK exists only on Linux.
     */
    public String oneLineFix(Cause nagle) {
        if (this == CLASS_40MS) {
            return nagle.oneLineFix();
        }
        return nagle == Cause.NAGLE_CLIENT_HELD
                ? "TCP_NODELAY on the client, or write each request in one call; or " + delayingHostFix("server")
                + "."
                : "TCP_NODELAY on the server (nginx: tcp_nodelay on), or send the response in one write (nginx: "
                + "tcp_nopush on; TCP_CORK); or " + delayingHostFix("client") + ".";
    }

    /**
     * The report's fixes for a Nagle × delayed-ACK cause held by this timer: the cause's list ({@link Cause#fixes}),
     * its last step (TCP_QUICKACK, Linux only) replaced by the delaying host's per stack for the 200 ms class.
     */
    public List<String> fixes(Cause nagle) {
        if (this == CLASS_40MS) {
            return nagle.fixes;
        }
        List<String> l = new ArrayList<>(nagle.fixes.subList(0, nagle.fixes.size() - 1));
        String host = nagle == Cause.NAGLE_CLIENT_HELD ? "server" : "client";
        l.add("Or, if only the " + host + " can be changed, make it acknowledge at once: "
                + delayingHostFix(host) + ".");
        return List.copyOf(l);
    }
}
