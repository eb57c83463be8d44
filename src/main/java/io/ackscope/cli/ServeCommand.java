package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.load.TargetServer;
import io.ackscope.report.Format;

import java.net.InetAddress;
import java.time.Duration;

/**
 * {@code ackscope serve -p PORT}: an HTTP/1.1 keep-alive target with an explicit write pattern (see
 * {@link TargetServer}). {@code --no-nodelay --split-writes} reproduces the Nagle × delayed-ACK stall, 40 ms and
 * more per response after the first on a connection; {@code --nodelay} or one write per response does not.
 *
 * <p>Prints the address and write pattern on start (a JSON line with {@code --json}, so a script can start it on
 * port 0 and read the port), and the counts when it stops: on SIGINT/SIGTERM or after {@code --duration}. Exit codes:
 * 0 after a clean stop, 1 if the port cannot be bound, 2 for a usage error.
 */
@Parameters(commandDescription = "HTTP/1.1 keep-alive target server with an explicit write pattern")
public final class ServeCommand extends Command {

    @Parameter(names = {"-p", "--port"}, description = "Port to listen on (0 = any free port)", required = true,
            validateWith = OptionRange.ListenPort.class)
    private Integer port;   // required: no default to show

    @Parameter(names = "--bind", description = "Address to listen on")
    private String bind = "127.0.0.1";

    @Parameter(names = "--nodelay", description = "Set TCP_NODELAY on connections; on unless --no-nodelay is given")
    private Boolean nodelay;   // null when not given, so the help shows no "Default: false"

    @Parameter(names = "--no-nodelay", description = "Leave Nagle's algorithm on")
    private boolean noNodelay;

    @Parameter(names = "--split-writes", description = "Write headers and body in two write() calls, as nginx "
            + "does with sendfile")
    private boolean splitWrites;

    @Parameter(names = "--body-size", description = "Response body size in bytes",
            validateWith = OptionRange.NonNegative.class)
    private int bodySize = 4096;

    @Parameter(names = "--think-time", description = "Delay before each response (e.g. 5ms)",
            converter = DurationConverter.class, defaultValueDescription = "0")
    private Duration thinkTime = Duration.ZERO;

    @Parameter(names = "--duration", description = "Stop after this long (default: until SIGINT/SIGTERM)",
            converter = DurationConverter.class)
    private Duration duration;

    @Parameter(names = "--json", description = "Print start and stop as JSON lines")
    private boolean json;

    @Override
    public int run() throws Exception {
        TargetServer.Options options;
        try {
            if (Boolean.TRUE.equals(nodelay) && noNodelay) {
                throw new IllegalArgumentException("--nodelay and --no-nodelay exclude each other");
            }
            options = new TargetServer.Options(InetAddress.getByName(bind), port, !noNodelay, splitWrites,
                    bodySize, thinkTime.toNanos());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(e.getMessage());
        }
        TargetServer server = TargetServer.start(options);
        if (duration != null) {
            server.stopAfter(duration.toNanos());
        }
        try (StopOnSignal signal = new StopOnSignal(() -> stopQuietly(server))) {
            printStart(server);
            server.await();
            if (json) {
                System.out.println(event("stopped").put("requests", server.requests())
                        .put("connections", server.connections()).put("bad_requests", server.badRequests()));
            } else {
                System.out.println("ackscope serve: stopped after "
                        + Format.plural(server.requests(), "request", "requests") + " on "
                        + Format.plural(server.connections(), "connection", "connections") + " ("
                        + server.badRequests() + " malformed)");
            }
            System.out.flush();
        }
        return 0;
    }

    private void printStart(TargetServer server) {
        TargetServer.Options o = server.options();
        String host = server.address().getAddress().getHostAddress();
        if (json) {
            System.out.println(event("listening").put("address", host).put("port", server.port())
                    .put("nodelay", o.noDelay()).put("split_writes", o.splitWrites()).put("body_size", o.bodySize())
                    .put("think_time_ns", o.thinkNanos()));
        } else {
            System.out.println("ackscope serve: listening on " + (host.contains(":") ? "[" + host + "]" : host) + ":"
                    + server.port() + ", " + o.bodySize() + "-byte body, " + o.writePattern()
                    + (o.thinkNanos() > 0 ? ", think time " + o.thinkNanos() / 1_000_000.0 + " ms" : ""));
            if (o.stalls()) {
                System.out.println("  expect a delayed-ACK stall (~40 ms) per response after the first on a "
                        + "connection, unless the client ACKs at once (TCP_QUICKACK)");
            }
        }
        System.out.flush();
    }

    /** One {@code --json} line: an object whose first key is {@code event} (its text is the compact JSON). */
    private static com.fasterxml.jackson.databind.node.ObjectNode event(String name) {
        return io.ackscope.json.Json.MAPPER.createObjectNode().put("event", name);
    }

    private static void stopQuietly(TargetServer server) {
        try {
            server.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
