package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.CaptureText;
import io.ackscope.tcp.AckClass;
import io.ackscope.tcp.ArchiveFeeder;
import io.ackscope.tcp.Diagnosis;
import io.ackscope.tcp.Side;
import io.ackscope.tcp.Vantage;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ackscope diagnose -r FILE}: per server endpoint, latency distributions and the latency causes found, in
 * words a person can act on.
 */
@Parameters(commandNames = "diagnose", commandDescription = "Explain where TCP latency comes from, per server "
        + "endpoint: RTT, ACK delay and time-to-first-byte distributions, Nagle x delayed-ACK stalls, "
        + "retransmission timeouts and zero-window waits, with fixes")
public final class DiagnoseCommand extends Command {

    @Parameter(names = {"-r", "--read"}, required = true, description = "Capture file(s) or directories (repeat -r "
            + "for several), read as analyze reads them: each capture source's files in time order as one capture")
    List<String> files = new ArrayList<>();

    @Parameter(names = "--source-by", description = LocalArchive.SOURCE_BY)
    String sourceBy;

    @Parameter(names = {"--top"}, description = "Show at most this many server endpoints (busiest first)")
    int top = 20;

    private final PrintStream out;

    public DiagnoseCommand() {
        this(System.out);
    }

    DiagnoseCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public int run() throws IOException {
        Archive archive = LocalArchive.list(files, sourceBy);
        List<Diagnosis> diagnoses = new ArrayList<>();
        ArchiveFeeder feeder = new ArchiveFeeder(archive, ArchiveStore.local());
        feeder.run(source -> {
            Diagnosis d = new Diagnosis();
            diagnoses.add(d);
            return d;
        });
        int damaged = LocalArchive.report(feeder, "diagnose", out);
        out.printf(Locale.ROOT, "%d frames, %d TCP segments, %d connections%s%n%n", feeder.frames(),
                feeder.tcpSegments(), feeder.connections(), archive.sources().size() > 1
                        ? " in " + archive.sources().size() + " capture sources" : "");
        for (int s = 0; s < diagnoses.size(); s++) {
            if (diagnoses.size() > 1) {
                out.println("== source " + CaptureText.terminal(archive.sources().get(s)) + " ==");
                out.println();
            }
            List<Diagnosis.Endpoint> eps = diagnoses.get(s).endpoints();
            if (eps.isEmpty()) {
                out.println("No TCP connections found.");
                out.println();
            }
            int shown = 0;
            for (Diagnosis.Endpoint e : eps) {
                if (shown++ == top) {
                    out.printf(Locale.ROOT, "... %d more server endpoints (use --top)%n", eps.size() - top);
                    break;
                }
                print(e);
            }
        }
        return damaged == 0 ? 0 : 1;
    }

    private void print(Diagnosis.Endpoint e) {
        out.printf(Locale.ROOT, "Server %s: %d connections, %d requests; capture point: %s%n", e.server,
                e.connections, e.exchanges, vantage(e.vantage));
        out.println("  latency               p50        p90        p99        max     count");
        row("handshake RTT", e.handshakeRtt);
        row("data RTT", e.dataRtt);
        row("client ACK delay", e.clientAckDelay);
        row("server ACK delay", e.serverAckDelay);
        row("time to first byte", e.ttfb);
        row("response complete", e.responseComplete);
        row("stall", e.stallDuration);
        out.printf(Locale.ROOT, "  client ACKs: %s%n", classes(e.ackClasses[Side.ORIGINATOR.ordinal()]));
        out.printf(Locale.ROOT, "  server ACKs: %s%n", classes(e.ackClasses[Side.RESPONDER.ordinal()]));
        out.printf(Locale.ROOT, "  stalls: %d held by the server, %d held by the client, %s in total%n",
                e.serverHeldStalls, e.clientHeldStalls, Diagnosis.ms(e.stallNanos));
        out.println("  diagnosis:");
        for (String f : e.findings()) {
            out.println("  - " + f);
        }
        out.println();
    }

    private void row(String name, Histogram h) {
        if (h.getTotalCount() == 0) {
            out.printf(Locale.ROOT, "  %-18s %10s %10s %10s %10s %9d%n", name, "-", "-", "-", "-", 0);
            return;
        }
        out.printf(Locale.ROOT, "  %-18s %10s %10s %10s %10s %9d%n", name, msShort(h.getValueAtPercentile(50)),
                msShort(h.getValueAtPercentile(90)), msShort(h.getValueAtPercentile(99)), msShort(h.getMaxValue()),
                h.getTotalCount());
    }

    private static String msShort(long micros) {
        return String.format(Locale.ROOT, "%.3fms", micros / 1000.0);
    }

    private static String classes(long[] counts) {
        StringBuilder sb = new StringBuilder();
        for (AckClass c : AckClass.values()) {
            if (counts[c.ordinal()] > 0) {
                if (sb.length() > 0) {
                    sb.append(", ");
                }
                sb.append(counts[c.ordinal()]).append(' ').append(c.name().toLowerCase(Locale.ROOT));
            }
        }
        return sb.length() == 0 ? "none measured" : sb.toString();
    }

    private static String vantage(Map<Vantage, Long> v) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Vantage, Long> en : v.entrySet()) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            String words = switch (en.getKey()) {
                case NEAR_CLIENT -> "near the client (client ACK delays direct, server's estimated)";
                case NEAR_SERVER -> "near the server (server ACK delays direct, client's estimated)";
                case IN_BETWEEN -> "between the hosts (ACK delays estimated by subtracting path RTT)";
                case LOCAL -> "on the host of both ends (all delays direct)";
                case UNKNOWN -> "unknown, no handshake (ACK delays uncorrected)";
            };
            sb.append(words).append(" x").append(en.getValue());
        }
        return sb.length() == 0 ? "-" : sb.toString();
    }
}
