package io.ackscope.report;

import io.ackscope.tables.TableFiles;
import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.Addresses;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Computes a {@link ReportData} from the tables of an {@code analyze} output directory, streaming: one pass over
 * each table (two over {@code connections}), only the columns in {@link Tables}, filtered by a {@link ReportFilter}.
 * The order of the passes is this class's job; each pass is its own class: {@link ConnectionPass} (which
 * connections, the timeline's periods), {@link CauseFindings} (the causes, read from {@code findings}),
 * {@link Measurements} (latencies, stalls, the causes' evidence frames), {@link WorstConnections} (the flow graphs).
 *
 * <p>Memory is what the page shows, not one object per connection: per endpoint and source their statistics, top-N
 * lists in bounded heaps, and one {@code long} per latency value (exact percentiles, as {@code latency_summary}).
 * Per selected connection only a four-byte entry of the {@link ConnectionIndex} that joins the measurement tables to
 * their connection's endpoint, and for connections with exchanges or stalls the sums that rank the worst ones.
 */
final class ReportBuilder {
    static final ReportData.Limits LIMITS = new ReportData.Limits(50, 4, 6, LadderReader.MAX_ROWS, 20, 100,
            TimelineBuilder.MAX_BUCKETS, 12, 10);

    private final TableFiles dir;
    /** The tables directory as the page names it. */
    private final String shownAs;
    private final ReportFilter filter;
    private final boolean ladders;

    private ReportBuilder(TableFiles dir, String shownAs, ReportFilter filter, boolean ladders) {
        this.dir = dir;
        this.shownAs = shownAs;
        this.filter = filter;
        this.ladders = ladders;
    }

    /**
     * Builds the report data.
     *
     * @param shownAs the tables directory as the page names it
     * @param ladders re-read the capture files for the worst connections' flow graphs (when they are readable)
     */
    static ReportData build(TableFiles dir, String shownAs, ReportFilter filter, boolean ladders) throws IOException {
        return new ReportBuilder(dir, shownAs, filter, ladders).run();
    }

    private ReportData run() throws IOException {
        // Every table's decoder starts now, each a few row groups ahead of its reader below: while one table is
        // consumed, the next ones are already decoding (TableReader.open).
        try (TableReader.Scan connections = scan(Tables.CONNECTIONS, ConnectionPass.COLUMNS);
             TableReader.Scan exchanges = scan(Tables.EXCHANGES, Tables.EXCHANGES_COLUMNS);
             TableReader.Scan rtt = scan(Tables.RTT_SAMPLES, Tables.RTT_SAMPLES_COLUMNS);
             TableReader.Scan acks = scan(Tables.ACK_DELAYS, Tables.ACK_DELAYS_COLUMNS);
             TableReader.Scan stalls = scan(Tables.STALLS, Tables.STALLS_COLUMNS)) {
            InputReader input = InputReader.read(dir);
            Selection sel = new Selection(filter, new java.util.HashSet<>(input.fileSources()).size() > 1);
            CauseFindings causes = CauseFindings.read(dir, sel);
            ConnectionPass pass = new ConnectionPass(sel, causes);
            TimelineBuilder timeline = pass.read(connections, TableReader.rows(dir, Tables.CONNECTIONS));
            causes.attach();
            Measurements m = new Measurements(sel, timeline, causes);
            m.readExchanges(exchanges);
            m.readStalls(stalls);
            causes.readFrames(dir);
            // The worst connections rank by what the exchanges and stalls say (not the RTTs or ACK delays), so they
            // are chosen before the two largest tables are read, and their flow graphs, a sweep over the capture
            // files, are drawn on a thread of their own meanwhile.
            // The ranking scan is opened only now: decoded ahead from the start, its row groups would sit in memory
            // the whole time.
            WorstConnections worst = new WorstConnections(sel, causes, LIMITS.worstConnections());
            List<WorstConnections.Conn> chosen;
            try (TableReader.Scan ranking = scan(Tables.CONNECTIONS, Tables.CONNECTIONS_COLUMNS)) {
                chosen = worst.choose(ranking);
            }
            worst.readStallEvidence(dir, chosen);
            FutureTask<List<ReportData.Ladder>> graphs = start("ackscope-report-graphs",
                    () -> WorstConnections.graphs(input, chosen, ladders));
            try {
                // The two largest tables, consumed at once: they touch disjoint state (data RTTs and the timeline;
                // ACK delays, ACK classes and methods), and each list is still filled in table order by one thread.
                FutureTask<Void> rttRead = start("ackscope-report-reader", () -> {
                    m.readRttSamples(rtt);
                    return null;
                });
                try {
                    m.readAckDelays(acks);
                } catch (IOException | RuntimeException | Error e) {
                    joinAfter(rttRead, e);
                    throw e;
                }
                join(rttRead);
            } catch (IOException | RuntimeException | Error e) {
                joinAfter(graphs, e);     // no sweep outlives its report
                throw e;
            }
            return result(input, sel, pass, causes, m, timeline, WorstConnections.shown(chosen, join(graphs)),
                    VantageReader.read(dir));
        }
    }

    /** Opens an engine table's scan, with its source column where the table has one. */
    private TableReader.Scan scan(TableSchema table, List<Column> columns) throws IOException {
        return TableReader.open(dir, table, columns, Tables.SOURCE, true);
    }

    private ReportData result(InputReader input, Selection sel, ConnectionPass pass, CauseFindings causes,
                              Measurements m, TimelineBuilder timeline, List<ReportData.Connection> drawn,
                              List<ReportData.SourcePair> sourcePairs) {
        List<EndpointStats> eps = new ArrayList<>(sel.endpoints);
        eps.sort(EndpointStats.MOST_LOST_FIRST);
        List<ReportData.Endpoint> shown = new ArrayList<>();
        for (EndpointStats e : eps.subList(0, Math.min(eps.size(), LIMITS.endpoints()))) {
            shown.add(new ReportData.Endpoint(e.server, e.connections, e.requests, e.laterRequests,
                    e.laterRequestsStalled, e.serverHeld.count, e.clientHeld.count, e.stallMicros, e.stallShare(),
                    e.timeLostMicros, e.distributions(), e.ackClasses, e.vantage, Findings.of(e)));
        }
        ReportData.Input in = input.summary(sel.totalConnections, sel.selected, m.requests, LIMITS.files(),
                LIMITS.skippedReasons());
        return new ReportData(shownAs, filter.describe(), in,
                VerdictText.withSources(VerdictText.of(causes, eps, m.requests, sel.selected), in.sources()),
                causes.shown(), causes.notShown,
                causes.present, shown, eps.size() - shown.size(),
                timeline == null ? new ReportData.Timeline(0, 0, new long[0], new long[0], 0, List.of(), List.of())
                        : timeline.build(),
                drawn, m.slowest(), MethodNotes.of(pass.vantage, m.ackMethods), LIMITS, sourcePairs);
    }

    private interface Work<T> {
        T run() throws IOException;
    }

    /** Starts {@code work} on a daemon thread named {@code name}; {@link #join} gives its result. */
    private static <T> FutureTask<T> start(String name, Work<T> work) {
        FutureTask<T> task = new FutureTask<>(work::run);
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
        return task;
    }

    /**
     * Waits for {@code task} after {@code failure} ended the work beside it (the caller throws that failure); the
     * task's own failure is added to it as suppressed.
     */
    private static void joinAfter(FutureTask<?> task, Throwable failure) {
        try {
            join(task);
        } catch (IOException | RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
    }

    /** Waits for {@code task} and gives its result, or throws its failure as it was thrown. */
    private static <T> T join(FutureTask<T> task) throws IOException {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while reading the tables");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Distinct server endpoints {@link #serverEndpoints} counts at most (the busiest among the first seen). */
    private static final int MAX_COUNTED_ENDPOINTS = 10_000;

    /**
     * The server endpoints of the {@code connections} table with their connection counts, busiest first, at most
     * {@code max} ("127.0.0.1:8080 (21 connections)"); table text made visible for the terminal.
     */
    static List<String> serverEndpoints(TableFiles dir, int max) throws IOException {
        Map<String, Long> counts = new HashMap<>();
        TableReader.scan(dir, Tables.CONNECTIONS, List.of(Connections.SERVER_IP, Connections.SERVER_PORT), b -> {
            String[] ip = b.strings(Connections.SERVER_IP);
            TableReader.LongColumn port = b.longs(Connections.SERVER_PORT);
            for (int i = 0; i < b.rows; i++) {
                String server = Addresses.endpointText(ip[i], (int) port.values[i]);
                if (counts.size() < MAX_COUNTED_ENDPOINTS || counts.containsKey(server)) {
                    counts.merge(server, 1L, Long::sum);
                }
            }
        });
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(max)
                .map(e -> Text.visible(e.getKey(), Text.MAX_CHARS) + " ("
                        + Format.plural(e.getValue(), "connection", "connections") + ")")
                .toList();
    }
}
