package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.probe.ConnectProber;
import io.ackscope.probe.Libpcap;
import io.ackscope.probe.ProbeReply;
import io.ackscope.probe.Route;
import io.ackscope.probe.Routes;
import io.ackscope.probe.RttStats;
import io.ackscope.probe.SynProber;
import org.pcap4j.core.PcapNativeException;

import java.io.IOException;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code ackscope probe HOST -p PORT}: times TCP handshakes like {@code hping3 -S -p PORT -c COUNT}. */
@Parameters(commandDescription = "Time TCP handshakes to HOST:PORT like hping3 -S: raw SYNs with --syn (root), "
        + "else connect()")
public final class ProbeCommand extends Command {

    /** How long the next hop may take to answer ARP before raw probing gives up. */
    private static final long NEIGHBOUR_WAIT_MS = 1_000;

    @Parameter(description = "HOST")
    List<String> hosts = new ArrayList<>();

    @Parameter(names = {"-p", "--port"}, description = "target TCP port", required = true,
            validateWith = OptionRange.Port.class)
    int port;

    @Parameter(names = {"-c", "--count"}, description = "probes to send", validateWith = OptionRange.Positive.class)
    int count = 4;

    @Parameter(names = {"-i", "--interval"}, description = "time between probes (1s, 200ms, 0.5; "
            + "hping3's u200000 is 200,000 us)",
            converter = DurationConverter.class, defaultValueDescription = "1s")
    Duration interval = Duration.ofSeconds(1);

    @Parameter(names = "--timeout", description = "how long a probe waits for its answer",
            converter = DurationConverter.class, defaultValueDescription = "1s")
    Duration timeout = Duration.ofSeconds(1);

    @Parameter(names = {"-S", "--syn"}, description = "craft SYNs and read answers through libpcap (needs root); "
            + "falls back to timing connect() when that is not possible")
    boolean syn;

    @Override
    public int run() throws Exception {
        return run(System.out);
    }

    /** Runs the probes, printing to {@code out}; exit code 0 when at least one probe was answered. */
    int run(PrintStream out) throws IOException, InterruptedException, PcapNativeException,
            org.pcap4j.core.NotOpenException {
        if (hosts.size() != 1) {
            throw new ParameterException("probe takes one HOST");
        }
        InetAddress target = InetAddress.getByName(hosts.get(0));
        String name = target.getHostAddress();
        RttStats stats = null;
        if (syn) {
            String whyNot = rawUnavailable(target);
            Route route = null;
            SynProber prober = null;
            if (whyNot == null) {
                try {
                    route = Routes.lookup((Inet4Address) target, NEIGHBOUR_WAIT_MS);
                    prober = SynProber.open(route, port, count, interval.toNanos(), timeout.toNanos());
                } catch (IOException | PcapNativeException e) {
                    whyNot = e.getMessage();
                    if (whyNot != null && whyNot.toLowerCase(Locale.ROOT).contains("permi")) {
                        whyNot += " (needs root or CAP_NET_RAW)";
                    }
                }
            }
            if (prober != null) {
                try (SynProber p = prober) {
                    out.printf(Locale.ROOT, "PROBE %s port %d (%s): raw SYN, %d bytes, %s%n", name, port,
                            route.describe(), SynProber.probeIpLength(), Libpcap.version());
                    out.flush();
                    stats = p.run(r -> printRaw(out, r));
                }
            } else {
                out.printf(Locale.ROOT, "PROBE %s port %d: timing connect(): raw SYN probes unavailable: %s%n",
                        name, port, whyNot);
            }
        } else {
            out.printf(Locale.ROOT, "PROBE %s port %d: timing connect() (--syn for raw SYN probes)%n", name, port);
        }
        if (stats == null) {
            out.flush();
            stats = new ConnectProber(target, port, count, interval.toNanos(), timeout.toNanos())
                    .run(r -> printConnect(out, r));
        }
        out.printf(Locale.ROOT, "%n--- %s probe statistics ---%n", name);
        out.printf(Locale.ROOT, "%d packets transmitted, %d packets received, %.0f%% packet loss%n",
                stats.sentCount(), stats.receivedCount(), stats.lossPercent());
        if (stats.receivedCount() > 0) {
            out.printf(Locale.ROOT, "round-trip min/avg/max = %.3f/%.3f/%.3f ms%n", ms(stats.minNanos()),
                    ms(stats.avgNanos()), ms(stats.maxNanos()));
        }
        out.flush();
        return stats.receivedCount() > 0 ? 0 : 1;
    }

    /** Null when raw probes can be tried for {@code target}, else why not. */
    private static String rawUnavailable(InetAddress target) {
        if (!(target instanceof Inet4Address)) {
            return "raw SYN probes support IPv4 targets only";
        }
        return Libpcap.unavailableReason();
    }

    private static void printRaw(PrintStream out, ProbeReply r) {
        out.printf(Locale.ROOT, "len=%d ip=%s ttl=%d %sid=%d sport=%d flags=%s seq=%d win=%d rtt=%.3f ms%n",
                r.ipLength(), r.from(), r.ttl(), r.dontFragment() ? "DF " : "", r.ipId(), r.srcPort(),
                ProbeReply.flagLetters(r.flags()), r.seq(), r.window(), ms(r.rttNanos()));
        out.flush();
    }

    /**
     * A connect() probe sees no packet, only whether connect() succeeded or was refused: it says that, not the
     * flags a SYN/ACK or RST would have had.
     */
    private static void printConnect(PrintStream out, ProbeReply r) {
        out.printf(Locale.ROOT, "ip=%s port=%d connect=%s seq=%d rtt=%.3f ms%n", r.from(), r.srcPort(),
                r.isSynAck() ? "open" : "refused", r.seq(), ms(r.rttNanos()));
        out.flush();
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }
}
