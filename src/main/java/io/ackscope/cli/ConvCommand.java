package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureProblem;
import io.ackscope.capture.CaptureReader;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ArchiveFeeder;
import io.ackscope.tcp.CaptureFeeder;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.EngineConfig;
import io.ackscope.tcp.SideStats;
import io.ackscope.tcp.TcpEngine;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ackscope conv -r INPUT...}: the TCP connection table as TSV, in tshark {@code -z conv,tcp} row order (most
 * frames first, then order of first appearance), with exact byte counts and ackscope's columns after tshark's.
 * Several files or directories are read as {@code analyze} reads them ({@link LocalArchive}): each capture source
 * as one capture; with more than one source, the rows come source by source, each with a last {@code source}
 * column, and relative times and stream numbers are the source's own. One pipe or standard input ({@code -}) is
 * read once, as one capture. Rows wait in a temporary file ({@link ConvRows}), so the heap holds the engine's open
 * connections and 20 bytes per row. When the engine emitted unanswered attempts before the end (see
 * {@code EngineConfig}), a line on standard error says how many.
 */
@Parameters(commandNames = "conv", commandDescription = "Print the TCP connection table as TSV (tshark conv,tcp row "
        + "order, exact byte counts, then stream, conn_state, history, initial RTT and vantage point)")
public final class ConvCommand extends Command {

    @Parameter(names = {"-r", "--read"}, required = true, description = "Capture file or directory (pcap or pcapng, "
            + "optionally gzip/zstd/bzip2-compressed; repeat -r for several: read as analyze reads them; a FIFO, "
            + "/dev/stdin or - for standard input, alone)")
    List<String> files;

    @Parameter(names = "--source-by", description = LocalArchive.SOURCE_BY)
    String sourceBy;

    @Parameter(names = "--strict", description = "Exit with status 3 if a capture is damaged or cut short")
    boolean strict;

    private final PrintStream out;
    private final PrintStream err;

    public ConvCommand() {
        this(System.out, System.err);
    }

    ConvCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static final String HEADER = "address_a\tport_a\taddress_b\tport_b\tframes_b_to_a\tbytes_b_to_a\tframes_a_to_b"
            + "\tbytes_a_to_b\tframes_total\tbytes_total\trel_start\tduration\tstream\tconn_state\thistory"
            + "\tinitial_rtt\tvantage";

    private static final String WHAT = "the table covers the frames before it";

    @Override
    public int run() throws IOException, CaptureException, CommandFailure {
        return LocalArchive.isStream(files) ? runStream(files.get(0)) : runArchive();
    }

    /** Every source's table, one after the other, each in tshark's order. */
    private int runArchive() throws IOException, CommandFailure {
        Archive archive = LocalArchive.list(files, sourceBy);
        boolean several = archive.sources().size() > 1;
        out.println(several ? HEADER + "\tsource" : HEADER);
        ArchiveFeeder feeder = new ArchiveFeeder(archive, ArchiveStore.local());
        SourceRows current = new SourceRows();
        long[] rows = {0};
        try {
            feeder.run(source -> {
                current.printAndClose(out, rows);
                int first = 0;
                while (archive.files().get(first).source() != source) {
                    first++;
                }
                return current.open(archive.files().get(first).firstNanos(),
                        several ? TerminalText.escape(archive.sources().get(source)) : null);
            });
            current.printAndClose(out, rows);
        } finally {
            current.discard();
        }
        out.flush();
        evictions(rows[0], feeder.attemptsEvicted());
        return LocalArchive.report(feeder, "conv", WHAT, strict, err);
    }

    /** One source's rows while its engine runs: a sink that writes them to a {@link ConvRows}. */
    private static final class SourceRows {
        private ConvRows rows;
        private IOException failed;

        AnalysisSink open(long t0, String source) {
            try {
                rows = new ConvRows();
            } catch (IOException e) {
                failed = e;
            }
            StringBuilder sb = new StringBuilder(256);
            return new AnalysisSink() {
                @Override
                public void onConnection(ConnectionRecord c) {
                    if (failed == null) {
                        try {
                            row(c, t0, sb);
                            if (source != null) {
                                sb.append('\t').append(source);
                            }
                            rows.add(c.id().stream(), frames(c), sb);
                        } catch (IOException e) {
                            failed = e;
                        }
                    }
                }
            };
        }

        /** Prints the source read last (its engine has finished), in tshark's order. */
        void printAndClose(PrintStream out, long[] count) {
            if (rows == null) {
                return;
            }
            try {
                if (failed != null) {
                    throw failed;
                }
                rows.print(out);
                count[0] += rows.rows();
                rows.close();
                rows = null;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void discard() throws IOException {
            if (rows != null) {
                rows.close();
            }
        }
    }

    /** One pipe or standard input, read once as one capture. */
    private int runStream(String file) throws IOException, CaptureException, CommandFailure {
        CaptureFeeder feeder = new CaptureFeeder();
        CaptureException damage = null;
        CaptureProblem tail;
        TcpEngine engine;
        try (ConvRows rows = new ConvRows()) {
            StringBuilder sb = new StringBuilder(256);
            IOException[] failed = {null};
            engine = new TcpEngine(new AnalysisSink() {
                @Override
                public void onConnection(ConnectionRecord c) {
                    if (failed[0] == null) {
                        try {
                            rows.add(c.id().stream(), frames(c), row(c, feeder.firstTimestampNanos(), sb));
                        } catch (IOException e) {
                            failed[0] = e;
                        }
                    }
                }
            });
            try (CaptureReader r = CaptureInput.open(file)) {
                try {
                    feeder.feed(r, 0, engine);
                } catch (CaptureException e) {
                    damage = e;
                }
                tail = r.tailProblem();
            }
            engine.finish();
            if (failed[0] != null) {
                throw failed[0];
            }
            out.println(HEADER);
            rows.print(out);
            out.flush();
            evictions(rows.rows(), engine.attemptsEvicted());
        }
        if (damage != null) {
            return CaptureInput.damaged(err, "conv", damage, WHAT, strict);
        }
        if (tail != null) {
            return CaptureInput.cutShort(err, "conv", file, tail, WHAT, strict);
        }
        return EXIT_OK;
    }

    private void evictions(long rows, long evicted) {
        if (evicted > 0) {
            err.printf(Locale.ROOT, "ackscope conv: %d connections; %d unanswered connection attempts "
                            + "were emitted before the end of the capture, after %d s without a packet%n",
                    rows, evicted, EngineConfig.DEFAULTS.attemptTimeoutNanos() / 1_000_000_000L);
        }
    }

    /** The TSV row of {@code c} (without newline), built in {@code sb}. */
    private static StringBuilder row(ConnectionRecord c, long t0, StringBuilder sb) {
        SideStats a = c.firstFromOriginator() ? c.orig() : c.resp();
        SideStats b = c.firstFromOriginator() ? c.resp() : c.orig();
        sb.setLength(0);
        sb.append(a.address()).append('\t').append(a.port()).append('\t')
                .append(b.address()).append('\t').append(b.port()).append('\t')
                .append(b.packets()).append('\t').append(b.frameBytes()).append('\t')
                .append(a.packets()).append('\t').append(a.frameBytes()).append('\t')
                .append(a.packets() + b.packets()).append('\t').append(a.frameBytes() + b.frameBytes()).append('\t')
                .append(seconds(c.firstNanos() - t0, 9)).append('\t')
                .append(seconds(c.durationNanos(), 4)).append('\t')
                .append(c.id().stream()).append('\t').append(c.connState()).append('\t')
                .append(c.history()).append('\t')
                .append(c.initialRttNanos() < 0 ? "" : seconds(c.initialRttNanos(), 9)).append('\t')
                .append(c.capturePoint());
        return sb;
    }

    private static long frames(ConnectionRecord c) {
        return c.orig().packets() + c.resp().packets();
    }

    /** Seconds with a fixed number of decimals, like tshark prints relative times. */
    static String seconds(long nanos, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", nanos / 1e9);
    }
}
