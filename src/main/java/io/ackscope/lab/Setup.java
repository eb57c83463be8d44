package io.ackscope.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * One configuration of the seed experiment. Every configuration serves the same small body with the response header
 * and the body in two separate writes (ackscope {@code serve --split-writes}; nginx {@code sendfile on;
 * tcp_nopush off;}), so the only things that change are the server's {@code TCP_NODELAY} and the client's
 * {@code TCP_QUICKACK}: with Nagle on at the server and delayed ACKs at the client, each response after the first on
 * a connection waits for the client's delayed-ACK timer.
 *
 * @param name          short name, also the capture's file name ({@code lab-NAME.pcap.gz})
 * @param server        which server answers
 * @param serverNoDelay the server sets TCP_NODELAY (nginx: {@code tcp_nodelay on})
 * @param quickAck      the load client sets TCP_QUICKACK ({@code ackscope load --quickack})
 */
public record Setup(String name, Server server, boolean serverNoDelay, boolean quickAck) {

    /** The server under test. */
    public enum Server {
        /** {@code ackscope serve}. */
        ACKSCOPE,
        /** nginx from the distribution, from a configuration the lab writes. */
        NGINX
    }

    /**
     * The seed experiment: for each server, the stall (Nagle on), the server-side fix (TCP_NODELAY) and the
     * client-side fix (TCP_QUICKACK against the server with Nagle on).
     */
    public static List<Setup> standard(boolean withNginx) {
        List<Setup> l = new ArrayList<>(List.of(
                new Setup("serve-nagle", Server.ACKSCOPE, false, false),
                new Setup("serve-nodelay", Server.ACKSCOPE, true, false),
                new Setup("serve-nagle-quickack", Server.ACKSCOPE, false, true)));
        if (withNginx) {
            l.addAll(List.of(
                    new Setup("nginx-nodelay-off", Server.NGINX, false, false),
                    new Setup("nginx-nodelay-on", Server.NGINX, true, false),
                    new Setup("nginx-nodelay-off-quickack", Server.NGINX, false, true)));
        }
        return l;
    }

    /** Whether the setup is expected to stall: Nagle at the server and delayed ACKs at the client. */
    public boolean expectsStall() {
        return !serverNoDelay && !quickAck;
    }

    /** The capture's file name. */
    public String captureFile() {
        return "lab-" + name + ".pcap.gz";
    }

    /** The configuration in the words of its command line or nginx directives, for the table. */
    public String label() {
        String s = server == Server.ACKSCOPE
                ? "serve " + (serverNoDelay ? "--nodelay" : "--no-nodelay") + " --split-writes"
                : "nginx " + nginxDirectives().substring(0, nginxDirectives().length() - 1);
        return quickAck ? s + " + load --quickack" : s;
    }

    /** The nginx directives under test (all three, so the configuration says exactly what it relies on). */
    String nginxDirectives() {
        return "tcp_nodelay " + (serverNoDelay ? "on" : "off") + "; sendfile on; tcp_nopush off;";
    }
}
