package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.report.Format;
import io.ackscope.tcp.CaptureFeeder;
import io.ackscope.tcp.Cause;
import io.ackscope.tcp.CauseRanking;
import io.ackscope.tcp.ConnectionCauses;
import io.ackscope.tcp.TcpEngine;
import io.ackscope.tcp.AckClass;
import io.ackscope.tcp.ArchiveFeeder;
import io.ackscope.tcp.Diagnosis;
import io.ackscope.tcp.EndpointDiagnosis;
import io.ackscope.tcp.ValueCounts;
import io.ackscope.tcp.Side;
import io.ackscope.tcp.CapturePoint;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ackscope diagnose -r FILE}: per server endpoint, the verdict and the latency causes ranked by time lost
 * (docs/causes.md, "Ranking"), then latency distributions and the findings in words a person can act on.
 */
@Parameters(commandNames = "diagnose", commandDescription = "Explain where TCP latency comes from, per server "
        + "endpoint: the latency causes ranked by time lost, with evidence frames and fixes; RTT, ACK delay and time-to-first-byte distributions, Nagle x delayed-ACK stalls, "
        + "retransmission timeouts and zero-window waits, with fixes")
public final class DiagnoseCommand extends Command {

    @Parameter(names = {"-r", "--read"}, required = true, description = "Capture file(s) or directories (repeat -r "
            + "for several), read as analyze reads them: each capture source's files in time order as one capture; "
            + "a FIFO, /dev/stdin or - for standard input, alone")
    List<String> files = new ArrayList<>();

    @Parameter(names = "--source-by", description = LocalArchive.SOURCE_BY)
    String sourceBy;

    @Parameter(names = {"--top"}, description = "Show at most this many server endpoints (busiest first)",
            validateWith = OptionRange.Positive.class)
    int top = 20;

    @Parameter(names = "--strict", description = "Exit with status 3 if a capture is damaged or cut short")
    boolean strict;

    private final PrintStream out;
    private final PrintStream err;

    public DiagnoseCommand() {
        this(System.out, System.err);
    }

    DiagnoseCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public int run() throws IOException, CaptureException, CommandFailure {
        return LocalArchive.isStream(files) ? runStream(files.get(0)) : runArchive();
    }

    private static final String WHAT = "analysed the frames before it";

    /** Each capture source as one capture, one section per source when there are several. */
    private int runArchive() throws IOException, CommandFailure {
        Archive archive = LocalArchive.list(files, sourceBy);
        List<Diagnosis> diagnoses = new ArrayList<>();
        ArchiveFeeder feeder = new ArchiveFeeder(archive, ArchiveStore.local());
        feeder.run(source -> {
            Diagnosis d = new Diagnosis(archive.sources().get(source));
            diagnoses.add(d);
            return d;
        });
        int exit = LocalArchive.report(feeder, "diagnose", WHAT, strict, err);
        int sources = archive.sources().size();
        out.printf(Locale.ROOT, "%s, %s, %s%s%n%n", Format.plural(feeder.frames(), "frame", "frames"),
                Format.plural(feeder.tcpSegments(), "TCP segment", "TCP segments"),
                Format.plural(feeder.connections(), "connection", "connections"),
                sources > 1 ? " in " + sources + " capture sources" : "");
        for (int s = 0; s < diagnoses.size(); s++) {
            if (sources > 1) {
                out.println("== source " + TerminalText.escape(archive.sources().get(s)) + " ==");
                out.println();
            }
            endpoints(diagnoses.get(s));
        }
        out.flush();
        return exit;
    }

    /** One pipe or standard input, read once as one capture. */
    private int runStream(String file) throws IOException, CaptureException, CommandFailure {
        Diagnosis diagnosis = new Diagnosis();
        TcpEngine engine = new TcpEngine(diagnosis);
        CaptureFeeder feeder = new CaptureFeeder();
        int exit = EXIT_OK;
        try (CaptureReader r = CaptureInput.open(file)) {
            try {
                feeder.feed(r, 0, engine);
            } catch (CaptureException e) {
                exit = CaptureInput.damaged(err, "diagnose", e, WHAT, strict);
            }
            if (r.tailProblem() != null) {
                exit = Math.max(exit, CaptureInput.cutShort(err, "diagnose", file, r.tailProblem(), WHAT, strict));
            }
        }
        engine.finish();
        out.printf(Locale.ROOT, "%s, %s, %s%n%n", Format.plural(feeder.frames(), "frame", "frames"),
                Format.plural(feeder.tcpSegments(), "TCP segment", "TCP segments"),
                Format.plural(engine.connections(), "connection", "connections"));
        endpoints(diagnosis);
        out.flush();
        return exit;
    }

    /** The server endpoints of one capture, busiest first, at most --top of them. */
    private void endpoints(Diagnosis diagnosis) {
        List<EndpointDiagnosis> eps = diagnosis.endpoints();
        if (eps.isEmpty()) {
            out.println("No TCP connections found.");
            out.println();
        }
        int shown = 0;
        for (EndpointDiagnosis e : eps) {
            if (shown++ == top) {
                out.printf(Locale.ROOT, "... %s more (use --top)%n",
                        Format.plural(eps.size() - top, "server endpoint", "server endpoints"));
                break;
            }
            print(e);
        }
    }

    private void print(EndpointDiagnosis e) {
        out.printf(Locale.ROOT, "Server %s: %s, %s; capture point: %s%n", e.server(),
                Format.plural(e.connections(), "connection", "connections"),
                Format.plural(e.exchanges(), "request", "requests"), capturePoints(e.capturePoints()));
        causes(e);
        out.println("  latency               p50        p90        p99        max     count");
        row("handshake RTT", e.handshakeRtt());
        row("data RTT", e.dataRtt());
        row("client ACK delay", e.clientAckDelay());
        row("server ACK delay", e.serverAckDelay());
        row("time to first byte", e.ttfb());
        row("response complete", e.responseComplete());
        row("stall", e.stallDuration());
        row("client think", e.clientThink());
        out.printf(Locale.ROOT, "  client ACKs: %s%n", classes(e.ackClasses(Side.ORIGINATOR)));
        out.printf(Locale.ROOT, "  server ACKs: %s%n", classes(e.ackClasses(Side.RESPONDER)));
        out.printf(Locale.ROOT, "  stalls: %d held by the server, %d held by the client, %s in total%n",
                e.serverHeldStalls(), e.clientHeldStalls(), Diagnosis.ms(e.stallMicros() * 1000));
        out.println("  diagnosis:");
        for (String f : e.findings()) {
            out.println("  - " + f);
        }
        out.println();
    }

    /**
     * The causes that are findings, costliest first (the rows of the {@code findings} table), with their share of
     * the endpoint's response time, evidence frames and fix; the first one of at least 1% is the verdict, and
     * without one the verdict is that no cause was found.
     */
    private void causes(EndpointDiagnosis e) {
        List<Map.Entry<Cause, ConnectionCauses.Tally>> ranked = e.causes();
        Map.Entry<Cause, ConnectionCauses.Tally> verdict = ranked.isEmpty()
                || !CauseRanking.isVerdict(e.share(ranked.get(0).getValue())) ? null : ranked.get(0);
        out.printf(Locale.ROOT, "  verdict: %s%n", verdict == null ? "no cause found"
                : verdict.getKey().name() + ", " + percent(e.share(verdict.getValue())) + " of the response time");
        if (e.responseMicros() > 0) {
            double explained = e.explainedShare();
            out.printf(Locale.ROOT, "  causes found explain %s of the response time; %s unattributed%n",
                    percent(explained), percent(1 - explained));
        }
        if (ranked.isEmpty()) {
            return;
        }
        out.printf(Locale.ROOT, "  causes by time lost (share of %s response time; under %s: listed, not the "
                + "verdict):%n", Diagnosis.ms(e.responseMicros() * 1000), percent(CauseRanking.VERDICT_SHARE));
        int rank = 0;
        for (Map.Entry<Cause, ConnectionCauses.Tally> en : ranked) {
            ConnectionCauses.Tally t = en.getValue();
            out.printf(Locale.ROOT, "  %2d. %-24s %8s %14s  %s on %s, count %d%n", ++rank, en.getKey().name(),
                    percent(e.share(t)), Diagnosis.ms(t.timeLostMicros() * 1000),
                    Format.plural(t.events(), "event", "events"),
                    Format.plural(t.connections(), "connection", "connections"), t.count());
            out.printf(Locale.ROOT, "      evidence frames: %s%n", frames(t.frames()));
            out.printf(Locale.ROOT, "      fix: %s%n", e.oneLineFix(en.getKey()));
        }
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.2f%%", 100 * share);
    }

    private static String frames(long[] frames) {
        StringBuilder sb = new StringBuilder();
        for (long f : frames) {
            sb.append(sb.length() == 0 ? "" : ", ").append(f);
        }
        return sb.toString();
    }

    /** Nearest-rank percentiles and the maximum, exact to the µs (the tables' definition: {@link ValueCounts}). */
    private void row(String name, ValueCounts h) {
        if (h.count() == 0) {
            out.printf(Locale.ROOT, "  %-18s %10s %10s %10s %10s %9d%n", name, "-", "-", "-", "-", 0);
            return;
        }
        out.printf(Locale.ROOT, "  %-18s %10s %10s %10s %10s %9d%n", name, msShort(h.percentile(0.5)),
                msShort(h.percentile(0.9)), msShort(h.percentile(0.99)), msShort(h.max()), h.count());
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

    private static String capturePoints(Map<CapturePoint, Long> v) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<CapturePoint, Long> en : v.entrySet()) {
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
