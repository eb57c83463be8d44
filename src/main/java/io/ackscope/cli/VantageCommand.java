package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.capture.CaptureException;
import io.ackscope.vantage.HostTimes;
import io.ackscope.vantage.MatchedConnection;
import io.ackscope.vantage.PairAnalysis;
import io.ackscope.vantage.PointReader;
import io.ackscope.vantage.PointSegments;
import io.ackscope.vantage.SourcePair;
import io.ackscope.vantage.VantagePair;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code ackscope vantage -r A -r B}: two captures of the same traffic taken at two points (say the client host and
 * the server), lined up in one JVM ({@link PairAnalysis}): which point is nearer the clients, the clock offset with
 * its bound and drift, one-way delays and loss per direction, the client's ACK delay seen from both points, and the
 * connections both saw. Prints "no connection in common" when there is no pair.
 */
@Parameters(commandNames = "vantage", commandDescription = "Line up two captures of the same traffic taken at two "
        + "points: clock offset, one-way delays, loss per direction, the client's ACK delay from both sides")
public final class VantageCommand extends Command {

    @Parameter(names = {"-r", "--read"}, required = true, description = "A capture file (pcap or pcapng, optionally "
            + "compressed); exactly two: one per capture point")
    List<String> files;

    @Parameter(names = "--strict", description = "Exit with status 3 if a capture is damaged or cut short")
    boolean strict;

    private final PrintStream out;
    private final PrintStream err;

    public VantageCommand() {
        this(System.out, System.err);
    }

    VantageCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public int run() throws IOException, CaptureException, CommandFailure {
        if (files.size() != 2) {
            throw new CommandFailure(EXIT_USAGE, "-r", "give exactly two captures, one per point (got "
                    + files.size() + ")");
        }
        PointSegments p = PointReader.read(files.get(0), List.of(Path.of(files.get(0))));
        PointSegments q = PointReader.read(files.get(1), List.of(Path.of(files.get(1))));
        VantagePair pair = PairAnalysis.analyze(p, q);
        if (pair == null) {
            out.println("no connection in common");
        } else {
            print(pair);
        }
        out.flush();
        int exit = EXIT_OK;
        for (PointSegments point : List.of(p, q)) {
            for (String damage : point.damage()) {
                err.println(TerminalText.escape("ackscope vantage: " + damage + " (the pair covers the frames before"
                        + " it)"));
                exit = strict ? EXIT_DAMAGED : exit;
            }
        }
        return exit;
    }

    private void print(VantagePair pair) {
        SourcePair s = pair.summary();
        line("source_a", TerminalText.escape(s.sourceA()) + " (nearer the clients)");
        line("source_b", TerminalText.escape(s.sourceB()));
        line("connections", Long.toString(s.connections()));
        line("clock_offset", String.format(Locale.ROOT, "%+.3f ms +/- %.3f ms (B's clock minus A's), drift %.1f ppm"
                + " (%d windows)", s.clockOffsetUs() / 1e3, s.clockOffsetErrorUs() / 1e3, s.driftPpm(),
                pair.clock().windows()));
        line("one_way_a_to_b", String.format(Locale.ROOT, "p50 %.3f ms, p99 %.3f ms", s.oneWayAtoBP50Us() / 1e3,
                s.oneWayAtoBP99Us() / 1e3));
        line("one_way_b_to_a", String.format(Locale.ROOT, "p50 %.3f ms, p99 %.3f ms", s.oneWayBtoAP50Us() / 1e3,
                s.oneWayBtoAP99Us() / 1e3));
        line("lost_a_to_b", Long.toString(s.lostAtoB()));
        line("lost_b_to_a", Long.toString(s.lostBtoA()));
        line("only_downstream", Long.toString(pair.onlyDownstream()));
        HostTimes acks = pair.ackDelays();
        HostTimes stalls = acks.marked();
        HostTimes turns = pair.turnarounds();
        line("client_ack_delay", String.format(Locale.ROOT, "p50 %.3f ms at A (the client's own), %.3f ms at B "
                + "(%d ACKs; round trip between the points %.3f ms)", acks.atAP50Us() / 1e3, acks.atBP50Us() / 1e3,
                acks.samples(), acks.pathRttP50Us() / 1e3));
        line("stall_ack_delay", String.format(Locale.ROOT, "p50 %.3f ms at A, %.3f ms at B (%d ACKs that released "
                + "held server data)", stalls.atAP50Us() / 1e3, stalls.atBP50Us() / 1e3, stalls.samples()));
        line("server_turnaround", String.format(Locale.ROOT, "p50 %.3f ms at B (the server's own), %.3f ms at A "
                + "(%d requests)", turns.atBP50Us() / 1e3, turns.atAP50Us() / 1e3, turns.samples()));
        if (!pair.delaysBounded()) {
            out.println("note: the offset's bound is wider than 1 ms, so the one-way delays rest on both directions'"
                    + " smallest delays being equal (docs/vantage.md)");
        }
        out.println();
        out.println("stream_a\tstream_b\tclient\tserver\tthrough_nat\tmatched\tlost_a_to_b\tlost_b_to_a");
        for (MatchedConnection c : pair.connections()) {
            out.println(c.streamA() + "\t" + c.streamB() + "\t" + TerminalText.escape(c.client()) + "\t"
                    + TerminalText.escape(c.server()) + "\t" + c.throughNat() + "\t" + c.matchedSegments() + "\t"
                    + c.lostAtoB() + "\t" + c.lostBtoA());
        }
    }

    private void line(String key, String value) {
        out.println(String.format(Locale.ROOT, "%-18s %s", key, value));
    }
}
