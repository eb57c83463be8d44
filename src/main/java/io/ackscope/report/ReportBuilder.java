package io.ackscope.report;

import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables.AckDelays;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.EngineTables.Exchanges;
import io.ackscope.tables.EngineTables.LatencyEvents;
import io.ackscope.tables.EngineTables.RttSamples;
import io.ackscope.tables.EngineTables.Stalls;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.Addresses;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Computes a {@link ReportData} from the tables of an {@code analyze} output directory, streaming: one pass over
 * each table (two over {@code connections}), only the columns in {@link Tables}, filtered by a {@link ReportFilter}.
 *
 * <p>Memory is what the page shows, not one object per connection: per endpoint and source their statistics, top-N
 * lists in bounded heaps, and one {@code long} per latency value (exact percentiles, as {@code latency_summary}).
 * Per selected connection only a four-byte entry of the {@link ConnectionIndex} that joins the measurement tables to
 * their connection's endpoint, and for connections with exchanges or stalls the sums that rank the worst ones. The
 * first pass over {@code connections} aggregates and indexes; the second, after the measurements, ranks every
 * connection and keeps the worst {@link ReportData.Limits#worstConnections()} in a heap. The timeline's window
 * needs two order statistics of all connection times: {@link SmallestValues} keeps the 0.5% at each end.
 */
final class ReportBuilder {
    static final ReportData.Limits LIMITS = new ReportData.Limits(50, 4, 6, LadderReader.MAX_ROWS, 20, 100,
            TimelineBuilder.MAX_BUCKETS, 12, 10);

    private final Path dir;
    /** The tables directory as the page names it. */
    private final String shownAs;
    private final ReportFilter filter;
    private final boolean ladders;

    /** The endpoints' ordinals by name: {@link #endpointList} positions, what {@link ConnectionIndex} points to. */
    private final Map<String, Integer> endpointOrdinals = new HashMap<>();
    /** The endpoints, first seen first. */
    private final List<EndpointStats> endpointList = new ArrayList<>();
    private final ConnectionIndex index = new ConnectionIndex();
    /** Connections that pass the filter. */
    private long selected;
    /** The tables hold more than one capture source: endpoints are named with theirs. */
    private boolean manySources;
    /** The selected connections' sources, numbered as first seen: a connection's key is (ordinal, stream). */
    private final Map<String, Integer> sourceOrdinals = new HashMap<>();
    /** Bits of the stream number in a connection key; the source's ordinal is above them. */
    private static final int SOURCE_SHIFT = 40;
    private final Map<String, Long> vantage = new TreeMap<>();
    private List<ReportData.SourcePair> sourcePairs = List.of();
    private final Map<String, Long> ackMethods = new TreeMap<>();
    private long totalConnections, requests;
    private TimelineBuilder timeline;
    private final PriorityQueue<ReportData.Request> slowest = new PriorityQueue<>(
            Comparator.comparingLong(ReportBuilder::slowness));

    /** A worst-connection candidate: its row in {@code connections}, and what the filtered measurements add. */
    static final class Conn {
        long stream, key, first, last, firstFrame, packets, payload, retransmissions;
        /** The capture source, null for outputs without one. */
        String source;
        int firstFile, clientPort, serverPort;
        String client, connState, history, vantage;
        EndpointStats endpoint;
        long requests, stalls, stallMicros, maxTtfb = -1, maxResponse = -1;
        long worstStallMicros = -1, worstStallHeldFrame = -1, slowestStart = -1;
        String worstStallEvidence;
        /** The stall that {@link #worstStallEvidence} comes from was found in the {@code stalls} table. */
        boolean evidenceRead;
    }

    private ReportBuilder(Path dir, String shownAs, ReportFilter filter, boolean ladders) {
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
    static ReportData build(Path dir, String shownAs, ReportFilter filter, boolean ladders) throws IOException {
        return new ReportBuilder(dir, shownAs, filter, ladders).run();
    }

    private ReportData run() throws IOException {
        // Every table's decoder starts now, each a few row groups ahead of its reader below: while one table is
        // consumed, the next ones are already decoding (TableReader.open).
        try (TableReader.Scan connections = scan(Tables.CONNECTIONS, FIRST_PASS_COLUMNS);
             TableReader.Scan exchanges = scan(Tables.EXCHANGES, Tables.EXCHANGES_COLUMNS);
             TableReader.Scan rtt = scan(Tables.RTT_SAMPLES, Tables.RTT_SAMPLES_COLUMNS);
             TableReader.Scan acks = scan(Tables.ACK_DELAYS, Tables.ACK_DELAYS_COLUMNS);
             TableReader.Scan stalls = scan(Tables.STALLS, Tables.STALLS_COLUMNS);
             TableReader.Scan events = TableReader.exists(dir, Tables.LATENCY_EVENTS)
                     ? scan(Tables.LATENCY_EVENTS, Tables.LATENCY_EVENTS_COLUMNS) : null) {
            InputReader input = InputReader.read(dir);
            manySources = new java.util.HashSet<>(input.fileSources()).size() > 1;
            readConnections(connections, TableReader.rows(dir, Tables.CONNECTIONS));
            readExchanges(exchanges);
            // The two largest tables, consumed at once: they touch disjoint state (data RTTs and the timeline; ACK
            // delays, ACK classes and methods), and each list is still filled in table order by one thread.
            parallel(() -> readRttSamples(rtt), () -> readAckDelays(acks));
            readStalls(stalls);
            if (events != null) {
                readLatencyEvents(events);
            }
            // opened only now: decoded ahead from the start, its row groups would sit in memory the whole time
            List<Conn> worst;
            try (TableReader.Scan ranking = scan(Tables.CONNECTIONS, Tables.CONNECTIONS_COLUMNS)) {
                worst = worstConnections(ranking);
            }
            readStallEvidence(worst);
            sourcePairs = VantageReader.read(dir);
            return result(input, worst);
        }
    }

    /** The columns of {@code connections} the first pass needs (the second reads them all, for the worst few). */
    private static final List<Column> FIRST_PASS_COLUMNS = List.of(Connections.STREAM, Connections.FIRST_TIMESTAMP,
            Connections.LAST_TIMESTAMP, Connections.SYN_TIMESTAMP, Connections.INITIAL_RTT_US, Connections.VANTAGE,
            Connections.SERVER_IP, Connections.SERVER_PORT);

    /** Opens an engine table's scan, with its source column where the table has one. */
    private TableReader.Scan scan(TableSchema table, List<Column> columns) throws IOException {
        return TableReader.open(dir, table, columns, Tables.SOURCE, true);
    }

    private ReportData result(InputReader input, List<Conn> worst) {
        List<EndpointStats> eps = new ArrayList<>(endpointList);
        eps.sort(Comparator.comparingLong((EndpointStats e) -> e.requests).thenComparingLong(e -> e.connections)
                .reversed().thenComparing(e -> e.server));
        List<ReportData.Endpoint> shown = new ArrayList<>();
        for (EndpointStats e : eps.subList(0, Math.min(eps.size(), LIMITS.endpoints()))) {
            shown.add(new ReportData.Endpoint(e.server, e.connections, e.requests, e.laterRequests,
                    e.laterRequestsStalled, e.serverHeld.count, e.clientHeld.count, e.stallMicros, e.stallShare(),
                    e.distributions(), e.ackClasses, e.vantage, Findings.of(e)));
        }
        List<ReportData.Request> slow = new ArrayList<>(slowest);
        slow.sort(Comparator.comparingLong(ReportBuilder::slowness).reversed()
                .thenComparingLong(ReportData.Request::stream).thenComparingInt(ReportData.Request::index));

        return new ReportData(shownAs, filter.describe(),
                input.summary(totalConnections, selected, requests, LIMITS.files(), LIMITS.skippedReasons()),
                Findings.verdict(eps, requests, selected), shown, eps.size() - shown.size(),
                timeline == null ? new ReportData.Timeline(0, 0, new long[0], new long[0], 0, List.of())
                        : timeline.build(),
                connections(input, worst), slow, method(), LIMITS, sourcePairs);
    }

    private interface TableRead {
        void run() throws IOException;
    }

    /** Runs {@code a} on a second thread and {@code b} on this one and waits for both; a failure of either is thrown. */
    private static void parallel(TableRead a, TableRead b) throws IOException {
        java.util.concurrent.FutureTask<Void> first = new java.util.concurrent.FutureTask<>(() -> {
            a.run();
            return null;
        });
        Thread t = new Thread(first, "ackscope-report-reader");
        t.setDaemon(true);
        t.start();
        try {
            b.run();
        } finally {
            try {
                first.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading the tables");
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    private static long slowness(ReportData.Request r) {
        return r.responseMicros() != null ? r.responseMicros() : r.ttfbMicros() != null ? r.ttfbMicros() : -1;
    }

    // ---- connections -----------------------------------------------------------------------------------------

    /** Distinct server endpoints {@link #serverEndpoints} counts at most (the busiest among the first seen). */
    private static final int MAX_COUNTED_ENDPOINTS = 10_000;

    /**
     * The server endpoints of the {@code connections} table with their connection counts, busiest first, at most
     * {@code max} ("127.0.0.1:8080 (21 connections)"); table text made visible for the terminal.
     */
    static List<String> serverEndpoints(Path dir, int max) throws IOException {
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

    /** Whether a row of {@code connections} is selected: its source, its server endpoint, its time span. */
    private boolean selects(String source, String server, long first, long last) {
        return filter.selectsSource(source) && filter.selectsServer(server) && filter.overlaps(first, last);
    }

    /** The endpoint a connection counts for: with several sources, one endpoint seen from two is two endpoints. */
    private String endpointName(String server, String source) {
        return manySources && source != null ? server + " at " + source : server;
    }

    /**
     * First pass: counts, per-endpoint connection statistics and the handshake RTTs, the index of the selected
     * connections, and the timeline's window.
     *
     * @param rows the rows of the table (from its footers): bounds the order statistics the window needs
     */
    private void readConnections(TableReader.Scan scan, long rows) throws IOException {
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        // the ranks timelineWindow reads are below 0.5% of the selected connections, + 1 for rounding
        int tail = (int) Math.min(Integer.MAX_VALUE / 4, (long) (rows * 0.005) + 2);
        SmallestValues firsts = new SmallestValues(tail), lastsNegated = new SmallestValues(tail);
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Connections.STREAM), first = b.longs(Connections.FIRST_TIMESTAMP),
                    last = b.longs(Connections.LAST_TIMESTAMP), syn = b.longs(Connections.SYN_TIMESTAMP),
                    initialRtt = b.longs(Connections.INITIAL_RTT_US), serverPort = b.longs(Connections.SERVER_PORT);
            String[] vant = b.strings(Connections.VANTAGE), serverIp = b.strings(Connections.SERVER_IP);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                totalConnections++;
                String server = Addresses.endpointText(serverIp[i], (int) serverPort.values[i]);
                String src = source == null ? null : source[i];
                if (!selects(src, server, first.values[i], last.values[i])) {
                    continue;
                }
                selected++;
                int ordinal = sourceOrdinals.computeIfAbsent(src == null ? "" : src, k -> sourceOrdinals.size());
                int endpoint = endpointOrdinals.computeIfAbsent(endpointName(server, src), name -> {
                    endpointList.add(new EndpointStats(name));
                    return endpointList.size() - 1;
                });
                EndpointStats e = endpointList.get(endpoint);
                index.put(ordinal, stream.values[i], endpoint);
                e.connections++;
                e.connectionMicros += last.values[i] - first.values[i];
                e.vantage.merge(vant[i], 1L, Long::sum);
                vantage.merge(vant[i], 1L, Long::sum);
                long handshakeAt = syn.present[i] ? syn.values[i] : first.values[i];
                if (initialRtt.present[i] && filter.inWindow(handshakeAt)) {
                    e.metrics[EndpointStats.HANDSHAKE_RTT].add(initialRtt.values[i]);
                }
                firsts.add(first.values[i]);
                lastsNegated.add(-last.values[i]);
                span[0] = Math.min(span[0], first.values[i]);
                span[1] = Math.max(span[1], last.values[i]);
            }
        });
        if (selected > 0) {
            long[] window = timelineWindow(span[0], span[1], firsts, lastsNegated);
            timeline = new TimelineBuilder(Math.max(window[0], filter.sinceMicros()),
                    Math.min(window[1], filter.untilMicros() - 1));
        }
    }

    /**
     * The span the timeline covers: every selected connection, unless a few connections with clocks far from the
     * rest (a capture stamped 1970, a bogus year 2262) would squeeze everything else into one interval; then the
     * middle 99% of connections. What falls outside is counted and said on the page.
     */
    private long[] timelineWindow(long min, long max, SmallestValues firsts, SmallestValues lastsNegated) {
        long n = selected;
        long lo = firsts.get((int) (n * 0.005));
        // index j of the lasts in ascending order is index n - 1 - j of them in descending order
        long hi = -lastsNegated.get((int) (n - 1 - Math.max(0, (long) Math.ceil(n * 0.995) - 1)));
        long core = Math.max(hi - lo, 0);
        boolean outliers = (double) (max - min) > 3.0 * core + 3_600_000_000.0;
        return outliers ? new long[]{lo, hi} : new long[]{min, max};
    }

    // ---- measurements ----------------------------------------------------------------------------------------

    private void readExchanges(TableReader.Scan scan) throws IOException {
        ConnectionIndex.Measures m = index.measures;
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Exchanges.STREAM), idx = b.longs(Exchanges.EXCHANGE_INDEX),
                    start = b.longs(Exchanges.REQUEST_START), ttfb = b.longs(Exchanges.TTFB_US),
                    stall = b.longs(Exchanges.STALL_US), rstall = b.longs(Exchanges.RESPONSE_STALL_US),
                    complete = b.longs(Exchanges.COMPLETE_US), reqBytes = b.longs(Exchanges.REQUEST_BYTES),
                    respBytes = b.longs(Exchanges.RESPONSE_BYTES), status = b.longs(Exchanges.HTTP_STATUS);
            String[] method = b.strings(Exchanges.HTTP_METHOD), target = b.strings(Exchanges.HTTP_TARGET),
                    host = b.strings(Exchanges.HTTP_HOST);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!filter.inWindow(start.values[i])) {
                    continue;
                }
                int c = slot(source, i, stream.values[i]);
                if (c < 0) {
                    continue;
                }
                EndpointStats endpoint = endpointList.get(m.endpoint[c]);
                long t = ttfb.present[i] ? ttfb.values[i] : -1;
                long done = complete.present[i] ? complete.values[i] : -1;
                endpoint.exchange((int) idx.values[i], t, stall.present[i] ? stall.values[i] : 0,
                        rstall.present[i] ? rstall.values[i] : 0, done);
                requests++;
                m.requests[c]++;
                m.maxTtfb[c] = Math.max(m.maxTtfb[c], t);
                if (done > m.maxResponse[c] || done == m.maxResponse[c] && start.values[i] < m.slowestStart[c]) {
                    m.maxResponse[c] = done;
                    m.slowestStart[c] = start.values[i];
                }
                timeline.exchange(start.values[i], t, done);
                long key = done >= 0 ? done : t;
                if (slowest.size() < LIMITS.slowestRequests() || key > slowness(slowest.peek())) {
                    slowest.add(new ReportData.Request(stream.values[i], (int) idx.values[i], start.values[i],
                            endpoint.server, method[i], target[i], host[i],
                            status.present[i] ? (int) status.values[i] : null, t >= 0 ? t : null,
                            done >= 0 ? done : null,
                            (stall.present[i] ? stall.values[i] : 0) + (rstall.present[i] ? rstall.values[i] : 0),
                            reqBytes.values[i], respBytes.values[i]));
                    if (slowest.size() > LIMITS.slowestRequests()) {
                        slowest.poll();
                    }
                }
            }
        });
    }

    private void readRttSamples(TableReader.Scan scan) throws IOException {
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(RttSamples.STREAM), ts = b.longs(RttSamples.TIMESTAMP),
                    rtt = b.longs(RttSamples.RTT_US);
            String[] kind = b.strings(RttSamples.KIND);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!"DATA_ACK".equals(kind[i]) || !filter.inWindow(ts.values[i])) {
                    continue;
                }
                EndpointStats e = endpoint(source, i, stream.values[i]);
                if (e != null) {
                    e.metrics[EndpointStats.DATA_RTT].add(rtt.values[i]);
                    timeline.dataRtt(ts.values[i], rtt.values[i]);
                }
            }
        });
    }

    private void readAckDelays(TableReader.Scan scan) throws IOException {
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(AckDelays.STREAM), ts = b.longs(AckDelays.TIMESTAMP),
                    delay = b.longs(AckDelays.ACK_DELAY_US);
            String[] side = b.strings(AckDelays.ACKING_SIDE), method = b.strings(AckDelays.METHOD),
                    cls = b.strings(AckDelays.ACK_CLASS);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!filter.inWindow(ts.values[i])) {
                    continue;
                }
                EndpointStats e = endpoint(source, i, stream.values[i]);
                if (e != null) {
                    e.ackDelay(side[i], delay.values[i], cls[i]);
                    ackMethods.merge(method[i], 1L, Long::sum);
                }
            }
        });
    }

    private void readStalls(TableReader.Scan scan) throws IOException {
        ConnectionIndex.Measures m = index.measures;
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Stalls.STREAM), start = b.longs(Stalls.START_TIMESTAMP),
                    duration = b.longs(Stalls.DURATION_US), ack = b.longs(Stalls.ACK_DELAY_US),
                    gap = b.longs(Stalls.RESUME_GAP_US), held = b.longs(Stalls.HELD_FRAME);
            String[] holding = b.strings(Stalls.HOLDING_SIDE), evidence = b.strings(Stalls.EVIDENCE);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!filter.inWindow(start.values[i])) {
                    continue;
                }
                int c = slot(source, i, stream.values[i]);
                if (c < 0) {
                    continue;
                }
                long d = duration.values[i];
                endpointList.get(m.endpoint[c]).stall(stream.values[i], "SERVER".equals(holding[i]), d,
                        ack.values[i], gap.values[i], evidence[i]);
                m.stalls[c]++;
                m.stallMicros[c] += d;
                // the evidence of the worst stall is read again for the few connections shown (readStallEvidence)
                if (d > m.worstStallMicros[c]
                        || d == m.worstStallMicros[c] && held.values[i] < m.worstStallHeldFrame[c]) {
                    m.worstStallMicros[c] = d;
                    m.worstStallHeldFrame[c] = held.values[i];
                }
                timeline.stall(start.values[i]);
            }
        });
    }

    private void readLatencyEvents(TableReader.Scan scan) throws IOException {
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(LatencyEvents.STREAM),
                    start = b.longs(LatencyEvents.START_TIMESTAMP), duration = b.longs(LatencyEvents.DURATION_US);
            String[] kind = b.strings(LatencyEvents.KIND), evidence = b.strings(LatencyEvents.EVIDENCE);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!filter.inWindow(start.values[i])) {
                    continue;
                }
                EndpointStats e = endpoint(source, i, stream.values[i]);
                if (e != null) {
                    e.latencyEvent(stream.values[i], kind[i], duration.values[i], evidence[i]);
                }
            }
        });
    }

    // ---- worst connections -----------------------------------------------------------------------------------

    /** Most stall time first, then the slowest response, the slowest first byte, retransmissions, duration. */
    static final Comparator<Conn> WORST_FIRST = Comparator.comparingLong((Conn c) -> c.stallMicros)
            .thenComparingLong(c -> c.maxResponse).thenComparingLong(c -> c.maxTtfb)
            .thenComparingLong(c -> c.retransmissions).thenComparingLong(c -> c.last - c.first).reversed()
            .thenComparingLong(c -> c.stream);

    /**
     * Second pass over {@code connections}: ranks every selected connection by {@link #WORST_FIRST} with what the
     * measurements added to it, keeping the worst in a heap of {@link ReportData.Limits#worstConnections()};
     * returns them worst first. Only a connection that enters the heap is read in full.
     */
    private List<Conn> worstConnections(TableReader.Scan scan) throws IOException {
        PriorityQueue<Conn> top = new PriorityQueue<>(WORST_FIRST.reversed());
        ConnectionIndex.Measures m = index.measures;
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Connections.STREAM), first = b.longs(Connections.FIRST_TIMESTAMP),
                    last = b.longs(Connections.LAST_TIMESTAMP), serverPort = b.longs(Connections.SERVER_PORT),
                    cRetrans = b.longs(Connections.CLIENT_RETRANSMISSIONS), sRetrans = b.longs(Connections.SERVER_RETRANSMISSIONS);
            String[] serverIp = b.strings(Connections.SERVER_IP);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                String server = Addresses.endpointText(serverIp[i], (int) serverPort.values[i]);
                String src = source == null ? null : source[i];
                if (!selects(src, server, first.values[i], last.values[i])) {
                    continue;
                }
                Conn c = new Conn();
                c.stream = stream.values[i];
                c.first = first.values[i];
                c.last = last.values[i];
                c.retransmissions = cRetrans.values[i] + sRetrans.values[i];
                int ordinal = sourceOrdinals.get(src == null ? "" : src);
                int s = index.existingSlot(ordinal, c.stream);
                if (s >= 0) {
                    c.requests = m.requests[s];
                    c.stalls = m.stalls[s];
                    c.stallMicros = m.stallMicros[s];
                    c.maxTtfb = m.maxTtfb[s];
                    c.maxResponse = m.maxResponse[s];
                    c.slowestStart = m.slowestStart[s];
                    c.worstStallMicros = m.worstStallMicros[s];
                    c.worstStallHeldFrame = m.worstStallHeldFrame[s];
                }
                if (top.size() < LIMITS.worstConnections() || WORST_FIRST.compare(c, top.peek()) < 0) {
                    c.key = ((long) ordinal << SOURCE_SHIFT) | c.stream;
                    c.source = src;
                    c.endpoint = endpointList.get(endpointOrdinals.get(endpointName(server, src)));
                    details(c, b, i);
                    top.add(c);
                    if (top.size() > LIMITS.worstConnections()) {
                        top.poll();
                    }
                }
            }
        });
        List<Conn> chosen = new ArrayList<>(top);
        chosen.sort(WORST_FIRST);
        return chosen;
    }

    /** The rest of a candidate's row: what the page and its flow graph show. */
    private static void details(Conn c, TableReader.Batch b, int i) {
        c.firstFile = (int) b.longs(Connections.FIRST_FILE_INDEX).values[i];
        c.firstFrame = b.longs(Connections.FIRST_FRAME_NUMBER).values[i];
        c.packets = b.longs(Connections.CLIENT_PACKETS).values[i] + b.longs(Connections.SERVER_PACKETS).values[i];
        c.payload = b.longs(Connections.CLIENT_PAYLOAD_BYTES).values[i] + b.longs(Connections.SERVER_PAYLOAD_BYTES).values[i];
        c.clientPort = (int) b.longs(Connections.CLIENT_PORT).values[i];
        c.serverPort = (int) b.longs(Connections.SERVER_PORT).values[i];
        c.client = Addresses.endpointText(b.strings(Connections.CLIENT_IP)[i], c.clientPort);
        c.connState = b.strings(Connections.CONN_STATE)[i];
        c.history = b.strings(Connections.HISTORY)[i];
        c.vantage = b.strings(Connections.VANTAGE)[i];
    }

    /**
     * The engine's words for the longest stall of each chosen connection: the first row of {@code stalls} (in
     * table order) with the duration and held frame {@link #readStalls} ranked highest, as that pass would have
     * kept it. A pass over the stalls table, only when a chosen connection stalled.
     */
    private void readStallEvidence(List<Conn> chosen) throws IOException {
        Map<Long, Conn> stalled = new HashMap<>();
        for (Conn c : chosen) {
            if (c.worstStallMicros >= 0) {
                stalled.put(c.key, c);
            }
        }
        if (stalled.isEmpty()) {
            return;
        }
        TableReader.scan(dir, Tables.STALLS, List.of(Stalls.STREAM, Stalls.START_TIMESTAMP, Stalls.DURATION_US,
                Stalls.HELD_FRAME, Stalls.EVIDENCE), Tables.SOURCE, b -> {
            TableReader.LongColumn stream = b.longs(Stalls.STREAM), start = b.longs(Stalls.START_TIMESTAMP),
                    duration = b.longs(Stalls.DURATION_US), held = b.longs(Stalls.HELD_FRAME);
            String[] evidence = b.strings(Stalls.EVIDENCE);
            String[] source = sources(b);
            for (int i = 0; i < b.rows; i++) {
                int ordinal = sourceOrdinal(source, i);
                Conn c = ordinal < 0 ? null : stalled.get(((long) ordinal << SOURCE_SHIFT) | stream.values[i]);
                if (c != null && !c.evidenceRead && filter.inWindow(start.values[i])
                        && duration.values[i] == c.worstStallMicros && held.values[i] == c.worstStallHeldFrame) {
                    c.worstStallEvidence = evidence[i];
                    c.evidenceRead = true;
                }
            }
        });
    }

    private List<ReportData.Connection> connections(InputReader input, List<Conn> chosen) {
        List<LadderReader.Want> wants = new ArrayList<>();
        for (Conn c : chosen) {
            wants.add(new LadderReader.Want(c.stream, c.firstFile, c.firstFrame, c.clientPort, c.serverPort, c.packets,
                    c.last, c.worstStallHeldFrame, c.worstStallHeldFrame >= 0 ? -1 : c.slowestStart));
        }
        List<ReportData.Ladder> graphs = ladders ? LadderReader.read(input.paths(), input.seekIndexes(),
                input.fileFrames(), input.fileSources(), wants)
                : LadderReader.unavailable(wants, "flow graphs were not requested");
        List<ReportData.Connection> out = new ArrayList<>();
        for (int i = 0; i < chosen.size(); i++) {
            Conn c = chosen.get(i);
            out.add(new ReportData.Connection(c.stream, c.client, c.endpoint.server, c.first, c.last - c.first,
                    c.packets, c.payload, c.requests, c.stalls, c.stallMicros, c.maxTtfb >= 0 ? c.maxTtfb : null,
                    c.maxResponse >= 0 ? c.maxResponse : null, c.retransmissions, c.connState, c.history,
                    c.vantage, why(c), c.worstStallEvidence, graphs.get(i)));
        }
        return out;
    }

    private static String why(Conn c) {
        if (c.stallMicros > 0) {
            return Format.plural(c.stalls, "stall", "stalls") + " cost " + Format.duration(c.stallMicros);
        }
        if (c.maxResponse >= 0) {
            return "slowest response " + Format.duration(c.maxResponse);
        }
        if (c.maxTtfb >= 0) {
            return "slowest first byte " + Format.duration(c.maxTtfb);
        }
        if (c.retransmissions > 0) {
            return Format.plural(c.retransmissions, "retransmission", "retransmissions");
        }
        return "longest connection, " + Format.duration(c.last - c.first);
    }

    // ---- method ----------------------------------------------------------------------------------------------

    private ReportData.Method method() {
        long total = 0;
        String top = "UNKNOWN";
        long topN = -1;
        for (Map.Entry<String, Long> e : vantage.entrySet()) {
            total += e.getValue();
            if (e.getValue() > topN) {
                topN = e.getValue();
                top = e.getKey();
            }
        }
        String share = total == 0 ? "" : " (" + Format.count(topN) + " of " + Format.plural(total, "connection",
                "connections") + ")";
        String text = switch (top) {
            case "LOCAL" -> "Both ends of the connections were on the capturing host" + share
                    + ": every delay is seen directly, with no network path in between.";
            case "NEAR_CLIENT" -> "The capture was taken next to the clients" + share + ": the clients' ACK delays "
                    + "are read directly; the servers' are estimated by subtracting the path RTT.";
            case "NEAR_SERVER" -> "The capture was taken next to the servers" + share + ": the servers' ACK delays "
                    + "are read directly; the clients' are estimated by subtracting the path RTT.";
            case "IN_BETWEEN" -> "The capture was taken on the path between clients and servers" + share
                    + ": ACK delays of both sides are estimated by subtracting the RTT of the leg to that host.";
            default -> total == 0 ? "No connections selected." : "The handshakes were not captured" + share
                    + ", so the vantage point cannot be inferred; ACK delays are upper bounds (they include the "
                    + "path).";
        };
        List<String> notes = List.of(
                "Vantage point: inferred per connection from the two handshake legs (SYN → SYN/ACK is the path to "
                        + "the server and back, SYN/ACK → ACK the path to the client and back); the leg to the "
                        + "near host is only that host's processing time.",
                "Handshake RTT: the sum of both legs as seen at the capture point (tshark's "
                        + "tcp.analysis.initial_rtt).",
                "Data RTT: from a data segment to the ACK that covers its end (tshark's tcp.analysis.ack_rtt), "
                        + "both directions. It includes the receiver's ACK delay, so delayed ACKs show up in it.",
                "ACK delay: for every ACK that newly acknowledges data, the time since the oldest data it "
                        + "acknowledges arrived at the acking host. Read directly where the capture is next to "
                        + "that host (DIRECT), else the path RTT is subtracted (ESTIMATED); without a handshake "
                        + "it is an upper bound (UNCORRECTED).",
                "Time to first byte: first request segment to first response segment, at the capture point. "
                        + "Response time: first request segment to the last response segment before the next "
                        + "request.",
                "Stall (Nagle × delayed ACK): a side has a small segment unacknowledged and sends nothing more "
                        + "although more data is ready; the peer's ACK comes after a delayed-ACK timer, and the "
                        + "next data segment leaves within about a millisecond of that ACK.",
                "Share of time lost to stalls: stall time inside request/response exchanges divided by their "
                        + "total response time, per server endpoint.",
                "Percentiles are nearest-rank over every value (the smallest value with at least that share of "
                        + "the values at or below it), the same as the latency_summary table. Histograms count "
                        + "the same values in " + LIMITS.histogramBinsPerDecade() + " logarithmic bins per decade "
                        + "(one per microsecond below 10 µs).");
        return new ReportData.Method(vantage, text, ackMethods, notes);
    }

    /** The batch's source column, or null when the table has none (an output from before sources). */
    private static String[] sources(TableReader.Batch b) {
        return b.has(EngineTables.SOURCE) ? b.strings(EngineTables.SOURCE) : null;
    }

    /** The ordinal of a row's source: 0 for a table without sources, -1 for a source with no selected connection. */
    private int sourceOrdinal(String[] source, int row) {
        if (source == null) {
            return 0;
        }
        Integer ordinal = sourceOrdinals.get(source[row]);
        return ordinal == null ? -1 : ordinal;
    }

    /** The endpoint of a row's connection, or null when the connection is not selected. */
    private EndpointStats endpoint(String[] source, int row, long stream) {
        int ordinal = sourceOrdinal(source, row);
        int e = ordinal < 0 ? -1 : index.endpoint(ordinal, stream);
        return e < 0 ? null : endpointList.get(e);
    }

    /** The measures slot of a row's connection (made on first use), or -1 when it is not selected. */
    private int slot(String[] source, int row, long stream) {
        int ordinal = sourceOrdinal(source, row);
        return ordinal < 0 ? -1 : index.slot(ordinal, stream);
    }
}
