package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.CaptureText;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ArchiveFeeder;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.SideStats;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code ackscope conv -r INPUT...}: the TCP connection table as TSV, in tshark {@code -z conv,tcp} row order (most
 * frames first, then order of first appearance), with exact byte counts and ackscope's columns after tshark's.
 * Several files or directories are read as {@code analyze} reads them ({@link LocalArchive}): each capture source
 * as one capture; with more than one source, the rows come source by source, each with a last {@code source}
 * column, and relative times and stream numbers are the source's own.
 */
@Parameters(commandNames = "conv", commandDescription = "Print the TCP connection table as TSV (tshark conv,tcp row "
        + "order, exact byte counts, then stream, conn_state, history, initial RTT and vantage point)")
public final class ConvCommand extends Command {

    @Parameter(names = {"-r", "--read"}, required = true, description = "Capture file or directory (pcap or pcapng, "
            + "optionally gzip/zstd/bzip2-compressed; repeat -r for several: read as analyze reads them)")
    List<String> files;

    @Parameter(names = "--source-by", description = LocalArchive.SOURCE_BY)
    String sourceBy;

    private final PrintStream out;

    public ConvCommand() {
        this(System.out);
    }

    ConvCommand(PrintStream out) {
        this.out = out;
    }

    static final String HEADER = "address_a\tport_a\taddress_b\tport_b\tframes_b_to_a\tbytes_b_to_a\tframes_a_to_b"
            + "\tbytes_a_to_b\tframes_total\tbytes_total\trel_start\tduration\tstream\tconn_state\thistory"
            + "\tinitial_rtt\tvantage";

    @Override
    public int run() throws IOException {
        Archive archive = LocalArchive.list(files, sourceBy);
        List<List<ConnectionRecord>> bySource = new ArrayList<>();
        ArchiveFeeder feeder = new ArchiveFeeder(archive, ArchiveStore.local());
        feeder.run(source -> {
            List<ConnectionRecord> rows = new ArrayList<>();
            bySource.add(rows);
            return new AnalysisSink() {
                @Override
                public void onConnection(ConnectionRecord c) {
                    rows.add(c);
                }
            };
        });
        int damaged = LocalArchive.report(feeder, "conv", System.err);
        boolean several = archive.sources().size() > 1;
        out.println(several ? HEADER + "\tsource" : HEADER);
        StringBuilder sb = new StringBuilder(256);
        int first = 0;
        for (int s = 0; s < bySource.size(); s++) {
            List<ConnectionRecord> rows = bySource.get(s);
            rows.sort(Comparator.comparingLong(ConvCommand::frames).reversed()
                    .thenComparingLong(c -> c.id().stream()));
            while (archive.files().get(first).source() != s) {
                first++;
            }
            long t0 = archive.files().get(first).firstNanos();
            String source = CaptureText.terminal(archive.sources().get(s));
            for (ConnectionRecord c : rows) {
                SideStats a = c.firstFromOriginator() ? c.orig() : c.resp();
                SideStats b = c.firstFromOriginator() ? c.resp() : c.orig();
                sb.setLength(0);
                sb.append(a.address()).append('\t').append(a.port()).append('\t')
                        .append(b.address()).append('\t').append(b.port()).append('\t')
                        .append(b.packets()).append('\t').append(b.frameBytes()).append('\t')
                        .append(a.packets()).append('\t').append(a.frameBytes()).append('\t')
                        .append(a.packets() + b.packets()).append('\t').append(a.frameBytes() + b.frameBytes())
                        .append('\t').append(seconds(c.firstNanos() - t0, 9)).append('\t')
                        .append(seconds(c.durationNanos(), 4)).append('\t')
                        .append(c.id().stream()).append('\t').append(c.connState()).append('\t')
                        .append(c.history()).append('\t')
                        .append(c.initialRttNanos() < 0 ? "" : seconds(c.initialRttNanos(), 9)).append('\t')
                        .append(c.vantage());
                if (several) {
                    sb.append('\t').append(source);
                }
                out.println(sb);
            }
        }
        return damaged == 0 ? 0 : 1;
    }

    private static long frames(ConnectionRecord c) {
        return c.orig().packets() + c.resp().packets();
    }

    /** Seconds with a fixed number of decimals, like tshark prints relative times. */
    static String seconds(long nanos, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", nanos / 1e9);
    }
}
