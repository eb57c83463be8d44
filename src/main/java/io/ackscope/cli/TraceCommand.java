package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.probe.Libpcap;
import io.ackscope.probe.ProbeReply;
import io.ackscope.probe.Route;
import io.ackscope.probe.Routes;
import io.ackscope.probe.SynProber;
import io.ackscope.probe.TcpTracer;

import java.io.IOException;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code ackscope trace HOST -p PORT}: the route to HOST:PORT like {@code traceroute --tcp -p PORT -n}. */
@Parameters(commandDescription = "Trace the route to HOST:PORT with TCP SYNs of growing TTL, like "
        + "traceroute --tcp -n (needs root)")
public final class TraceCommand extends Command {

    private static final long NEIGHBOUR_WAIT_MS = 1_000;
    private static final int ICMP_UNREACHABLE = 3;

    @Parameter(description = "HOST")
    List<String> hosts = new ArrayList<>();

    @Parameter(names = {"-p", "--port"}, description = "target TCP port", required = true,
            validateWith = OptionRange.Port.class)
    int port;

    @Parameter(names = {"-m", "--max-ttl"}, description = "largest TTL tried",
            validateWith = OptionRange.Positive.class)
    int maxTtl = 30;

    @Parameter(names = {"-q", "--queries"}, description = "probes per hop", validateWith = OptionRange.Positive.class)
    int probes = 3;

    @Parameter(names = {"-w", "--wait"}, description = "how long a probe waits for its answer",
            converter = DurationConverter.class, defaultValueDescription = "1s")
    Duration wait = Duration.ofSeconds(1);

    @Override
    public int run() throws Exception {
        return run(System.out);
    }

    /** Runs the trace, printing to {@code out}; exit code 0 when the target answered. */
    int run(PrintStream out) throws Exception {
        if (hosts.size() != 1) {
            throw new ParameterException("trace takes one HOST");
        }
        InetAddress target = InetAddress.getByName(hosts.get(0));
        if (!(target instanceof Inet4Address v4)) {
            throw new IOException("trace supports IPv4 targets only");
        }
        String why = Libpcap.unavailableReason();
        if (why != null) {
            throw new IOException(why);
        }
        Route route = Routes.lookup(v4, NEIGHBOUR_WAIT_MS);
        TcpTracer tracer = new TcpTracer(route, port, maxTtl, probes, wait.toNanos());
        out.printf(Locale.ROOT, "trace to %s port %d, %d hops max, %d probes per hop, %d byte packets (%s)%n",
                target.getHostAddress(), port, maxTtl, probes, SynProber.probeIpLength(), route.describe());
        out.flush();
        boolean reached = tracer.run((ttl, replies) -> {
            out.println(hopLine(ttl, replies));
            out.flush();
        });
        return reached ? 0 : 1;
    }

    /** {@code " 2  10.0.0.1  0.120 ms  0.101 ms  *"}, the address repeated where it changes, as traceroute does. */
    static String hopLine(int ttl, ProbeReply[] replies) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%2d", ttl));
        String last = null;
        for (ProbeReply r : replies) {
            if (r == null) {
                sb.append(" *");
                continue;
            }
            if (!r.from().equals(last)) {
                sb.append("  ").append(r.from());
                if (r.isTcp()) {
                    sb.append(" [").append(ProbeReply.flagLetters(r.flags())).append(']');
                }
                last = r.from();
            }
            sb.append(String.format(Locale.ROOT, "  %.3f ms", r.rttNanos() / 1e6));
            if (r.icmpType() == ICMP_UNREACHABLE) {
                sb.append(' ').append(unreachableMark(r.icmpCode()));
            }
        }
        return sb.toString();
    }

    /** traceroute's marks for ICMP destination unreachable codes. */
    static String unreachableMark(int code) {
        return switch (code) {
            case 0 -> "!N";
            case 1 -> "!H";
            case 2 -> "!P";
            case 4 -> "!F";
            case 5 -> "!S";
            case 9, 10, 13 -> "!X";
            default -> "!<" + code + ">";
        };
    }
}
