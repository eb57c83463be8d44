package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.lab.Lab;
import io.ackscope.lab.LabTable;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ackscope lab}: the Nagle × delayed-ACK seed experiment end to end on loopback (see {@link Lab}), with its
 * before/after table. {@code jobs/lab-delayed-ack} runs it. Exit codes: 0 when every configuration came out as
 * expected (stall with Nagle on and delayed ACKs, none with either fix), 1 otherwise or on failure, 2 for a usage
 * error.
 */
@Parameters(commandDescription = "Run the Nagle x delayed-ACK experiment on loopback (ackscope serve and nginx, "
        + "each without and with the fixes): serve, capture, load, analyse; print the before/after table and keep "
        + "the captures (as root)")
public final class LabCommand extends Command {

    @Parameter(names = "--out", description = "Directory for the captures and their README.md")
    String out = "sample-pcaps";

    @Parameter(names = "--analysis", description = "Output directory of ackscope analyze: its tables and "
            + "report.html (replaced on each run)")
    String analysis = "out/lab";

    @Parameter(names = {"-d", "--duration"}, description = "Load duration per configuration",
            converter = DurationConverter.class, defaultValueDescription = "3s")
    Duration duration = Duration.ofSeconds(3);

    @Parameter(names = {"-c", "--connections"}, description = "Load connections (one thread)")
    int connections = 4;

    @Parameter(names = "--body-size", description = "Response body bytes")
    int bodySize = 1024;

    @Parameter(names = {"-s", "--snaplen"}, description = "Bytes kept of each captured packet")
    int snaplen = 160;

    @Parameter(names = "--max-packets", description = "Packets kept per capture at most")
    int maxPackets = 20_000;

    @Parameter(names = "--nginx", description = "Run the nginx configurations: auto (when installed), yes (fail "
            + "when missing), no")
    String nginx = "auto";

    @Parameter(names = "--port-base", description = "First 127.0.0.1 port (the configurations take consecutive "
            + "ports); 0 picks free ports")
    int portBase;

    @Parameter(names = "--only", description = "Run only these configurations (comma-separated): serve-nagle, "
            + "serve-nodelay, serve-nagle-quickack, nginx-nodelay-off, nginx-nodelay-on, nginx-nodelay-off-quickack")
    List<String> only = new ArrayList<>();

    @Parameter(names = "--no-readme", description = "Leave OUT/README.md alone")
    boolean noReadme;

    private final PrintStream console;

    public LabCommand() {
        this(System.out);
    }

    LabCommand(PrintStream console) {
        this.console = console;
    }

    @Override
    public int run() throws Exception {
        Lab.NginxMode mode = switch (nginx.toLowerCase(Locale.ROOT)) {
            case "auto" -> Lab.NginxMode.AUTO;
            case "yes" -> Lab.NginxMode.REQUIRE;
            case "no" -> Lab.NginxMode.SKIP;
            default -> throw new ParameterException("--nginx takes auto, yes or no, not " + nginx);
        };
        Lab.Options options;
        try {
            options = new Lab.Options(Lab.Options.sameJvm(), Path.of(out), Path.of(analysis), duration.toNanos(),
                    connections, bodySize, snaplen, maxPackets, mode, portBase, only, !noReadme, commandLine());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(e.getMessage());
        }
        Lab.Result result;
        Lab lab = new Lab(options, console);
        // closed in this order: the lab (children stopped, work directory deleted), then the signal handler, which
        // holds the JVM's exit after Ctrl-C until the lab is closed
        try (StopOnSignal signal = new StopOnSignal(lab::abort)) {
            try (lab) {
                result = lab.run();
            }
        }
        console.println();
        console.print(LabTable.text(result));
        console.println("captures in " + Path.of(out).toAbsolutePath().normalize()
                + (noReadme ? "" : " (README.md updated)"));
        if (result.report() != null) {
            console.println("report: " + result.report());
        }
        boolean expected = true;
        for (Lab.Run r : result.runs()) {
            expected &= (r.verdict() == Lab.Verdict.STALL) == r.setup().expectsStall()
                    && r.verdict() != Lab.Verdict.DISAGREE;
        }
        return expected ? 0 : 1;
    }

    /** The lab's options as a command line, for the README of the captures. */
    private String commandLine() {
        StringBuilder sb = new StringBuilder("jobs/lab-delayed-ack");
        sb.append(" -d ").append(duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s"
                : duration.toMillis() + "ms");
        sb.append(" -c ").append(connections).append(" --body-size ").append(bodySize).append(" -s ").append(snaplen)
                .append(" --max-packets ").append(maxPackets).append(" --nginx ").append(nginx);
        if (!only.isEmpty()) {
            sb.append(" --only ").append(String.join(",", only));
        }
        if (portBase != 0) {
            sb.append(" --port-base ").append(portBase);
        }
        return sb.toString();
    }
}
