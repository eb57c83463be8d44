package io.ackscope.report;

import io.ackscope.tables.TableFiles;
import io.ackscope.tables.Column;
import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.Addresses;
import io.ackscope.tcp.Cause;
import io.ackscope.tcp.CauseRanking;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The latency causes of the selected endpoints, as {@code analyze} ranked them in the {@code findings} table: what
 * the page leads with. The report does not rank causes itself; it reads the table and applies the
 * one rule {@code diagnose} applies ({@link CauseRanking#isVerdict}, {@link CauseRanking#costOrder}).
 *
 * <p>Evidence: a row names frame numbers, not connections. The readers report the frames they see ({@link #seen}:
 * a connection's first frame, a stall's three frames, and, only when a row is still without its connection, the
 * ACK frames of {@code ack_delays} and {@code rtt_samples}, {@link #readFrames}), and a row's evidence connection
 * is the one that carries its first frame found (the costliest occurrence's): the connection whose flow graph the
 * page draws for it. A cause of a version newer than this one (a name {@link Cause} does not know) is shown by its
 * name, without fixes.
 */
final class CauseFindings {
    /** Causes the page lists at most (the costliest). */
    static final int MAX_ROWS = 40;
    /**
     * Flow graphs the page draws at most for the evidence of verdict-level causes: every one of them on any real
     * run (a run's verdict causes are a few per endpoint), while a pathological one cannot make the page re-read
     * the captures without bound.
     */
    static final int MAX_VERDICT_GRAPHS = 24;

    /** One row of {@code findings}; its endpoint is known once the selection is ({@link #attach}). */
    static final class Row {
        EndpointStats endpoint;
        final String source, server, causeName;
        /** Null for a name this version does not know. */
        final Cause cause;
        final long connections, requests, events, count, timeLostMicros;
        final double share;
        final long[] frames;
        /** The connection of the first frame found (a {@link Selection#key}), and that frame; -1 when none. */
        long evidenceKey = -1, evidenceFrame = -1;
        /** The page draws the evidence connection's flow graph. */
        boolean drawn;
        /** Its endpoint's {@code findings.explained_share}; NaN in outputs that lack the column. */
        double explainedShare = Double.NaN;

        Row(String source, String server, String causeName, long connections, long requests, long events,
            long count, long timeLostMicros, double share, long[] frames) {
            this.source = source;
            this.server = server;
            this.causeName = causeName;
            this.cause = cause(causeName);
            this.connections = connections;
            this.requests = requests;
            this.events = events;
            this.count = count;
            this.timeLostMicros = timeLostMicros;
            this.share = share;
            this.frames = frames;
        }

        boolean verdict() {
            return CauseRanking.isVerdict(share);
        }

        int ordinal() {
            return cause == null ? -1 : cause.ordinal();
        }
    }

    private static Cause cause(String name) {
        try {
            return Cause.valueOf(name);
        } catch (IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }

    /** Costliest first, by the ranking's own order. */
    static int costOrder(Row a, Row b) {
        return CauseRanking.costOrder(a.timeLostMicros, a.events, a.ordinal(), b.timeLostMicros, b.events,
                b.ordinal());
    }

    /** Whether the output has the table at all (outputs of older versions do not). */
    final boolean present;
    /** The rows of the selected endpoints, costliest first, at most {@link #MAX_ROWS} (after {@link #attach}). */
    List<Row> rows = List.of();
    /** Rows beyond {@link #MAX_ROWS}. */
    int notShown;
    /** The rows that pass the filter's source and server, before the selection is known. */
    private final List<Row> read;
    /** The wanted evidence frames of every source, sorted: a cheap first test for {@link #seen}. */
    private final long[] wanted;
    /** Per source, evidence frame to the key of its connection. */
    private final Map<String, Map<Long, Long>> found = new HashMap<>();
    /** The keys of the connections that carry an evidence frame. */
    private final java.util.Set<Long> evidenceKeys = new java.util.HashSet<>();

    private final Selection sel;

    private CauseFindings(Selection sel, boolean present, List<Row> read) {
        this.sel = sel;
        this.present = present;
        this.read = read;
        this.wanted = read.stream().flatMapToLong(r -> Arrays.stream(r.frames)).sorted().distinct().toArray();
    }

    /**
     * Keeps the rows whose endpoint has a selected connection (once the first pass over {@code connections} has
     * made the selection), costliest first, at most {@link #MAX_ROWS}, and adds their time lost to the endpoints.
     */
    void attach() {
        List<Row> all = new ArrayList<>();
        for (Row r : read) {
            r.endpoint = sel.endpoint(sel.endpointName(r.server, r.source));
            if (r.endpoint != null) {
                all.add(r);
            }
        }
        all.sort(CauseFindings::costOrder);
        rows = new ArrayList<>(all.subList(0, Math.min(all.size(), MAX_ROWS)));
        notShown = all.size() - rows.size();
        for (Row r : all) {
            if (!Double.isNaN(r.explainedShare)) {
                r.endpoint.explainedShare = r.explainedShare;
            }
        }
        for (Row r : rows) {
            r.endpoint.causes.add(r);
            r.endpoint.timeLostMicros += r.timeLostMicros;
            if (r.verdict()) {
                r.endpoint.verdictMicros += r.timeLostMicros;
            }
        }
    }

    /**
     * Reads the rows of {@code findings} that pass the filter's source and server; before the first pass over
     * {@code connections}, so that pass can report the connections' first frames ({@link #seen}).
     */
    static CauseFindings read(TableFiles dir, Selection sel) throws IOException {
        List<Row> all = new ArrayList<>();
        if (!TableReader.exists(dir, Tables.FINDINGS)) {
            return new CauseFindings(sel, false, all);
        }
        TableReader.scan(dir, Tables.FINDINGS, Tables.FINDINGS_COLUMNS, List.of(FindingsTable.EXPLAINED_SHARE), b -> {
            String[] source = b.strings(FindingsTable.SOURCE), ip = b.strings(FindingsTable.SERVER_IP),
                    cause = b.strings(FindingsTable.CAUSE);
            TableReader.LongColumn port = b.longs(FindingsTable.SERVER_PORT),
                    conns = b.longs(FindingsTable.CONNECTIONS), requests = b.longs(FindingsTable.REQUESTS),
                    events = b.longs(FindingsTable.EVENTS), count = b.longs(FindingsTable.COUNT),
                    lost = b.longs(FindingsTable.TIME_LOST_US);
            double[] share = b.doubles(FindingsTable.SHARE).exact;
            long[][] frames = b.longLists(FindingsTable.EVIDENCE_FRAMES);
            double[] explained = b.has(FindingsTable.EXPLAINED_SHARE)
                    ? b.doubles(FindingsTable.EXPLAINED_SHARE).exact : null;
            for (int i = 0; i < b.rows; i++) {
                String server = Addresses.endpointText(ip[i], (int) port.values[i]);
                if (sel.filter.selectsSource(source[i]) && sel.filter.selectsServer(server)) {
                    Row r = new Row(source[i], server, cause[i], conns.values[i], requests.values[i],
                            events.values[i], count.values[i], lost.values[i], share[i],
                            frames[i] == null ? new long[0] : frames[i]);
                    if (explained != null) {
                        r.explainedShare = explained[i];
                    }
                    all.add(r);
                }
            }
        });
        return new CauseFindings(sel, true, all);
    }

    /**
     * A frame of connection {@code stream} of {@code source} was seen; kept when a row names it as evidence and the
     * connection is selected. Cheap for the frames no row names (a binary search); callable from two readers at
     * once while the selection does not change.
     */
    void seen(String source, long frame, long stream) {
        if (frame < 0 || Arrays.binarySearch(wanted, frame) < 0) {
            return;
        }
        int ordinal = sel.sourceOrdinal(source);
        if (ordinal < 0 || sel.index.endpoint(ordinal, stream) < 0) {
            return;
        }
        synchronized (found) {
            found.computeIfAbsent(source == null ? "" : source, k -> new HashMap<>())
                    .putIfAbsent(frame, Selection.key(ordinal, stream));
            evidenceKeys.add(Selection.key(ordinal, stream));
        }
    }

    /**
     * Finds the evidence connections the measurement passes did not: the stalls' frames and the connections' first
     * frames name the Nagle and handshake causes; loss, spurious retransmissions and new causes name data and ACK
     * frames, looked up here in {@code ack_delays}, then {@code rtt_samples} (two columns each), only while some
     * row is still unresolved.
     */
    void readFrames(TableFiles dir) throws IOException {
        for (Map.Entry<TableSchema, List<Column>> e : Tables.EVIDENCE_COLUMNS) {
            if (!unresolved()) {
                return;
            }
            Column stream = e.getValue().get(0), frame = e.getValue().get(1);
            TableReader.scan(dir, e.getKey(), e.getValue(), Tables.SOURCE, b -> {
                TableReader.LongColumn s = b.longs(stream), f = b.longs(frame);
                String[] source = Selection.sources(b);
                for (int i = 0; i < b.rows; i++) {
                    seen(source == null ? null : source[i], f.values[i], s.values[i]);
                }
            });
        }
    }

    /** Whether a row with evidence frames has none found yet. */
    private boolean unresolved() {
        for (Row r : rows) {
            Map<Long, Long> m = found.getOrDefault(r.source == null ? "" : r.source, Map.of());
            boolean any = r.frames.length == 0;
            for (long f : r.frames) {
                any |= m.containsKey(f);
            }
            if (!any) {
                return true;
            }
        }
        return false;
    }

    /** Whether connection {@code key} carries a frame some row names as evidence. */
    boolean names(long key) {
        synchronized (found) {
            return evidenceKeys.contains(key);
        }
    }

    /**
     * Resolves each row's evidence connection (once every reader has reported its frames); returns the connections
     * to draw, each once, in the order of their causes (costliest first): the evidence of every verdict-level cause
     * (at least {@link CauseRanking#VERDICT_SHARE} of its endpoint's response time), at most
     * {@link #MAX_VERDICT_GRAPHS}, so every "see it" link of a cause that matters opens a graph; then that of the
     * causes below it while fewer than {@code max} are chosen.
     */
    Map<Long, Long> evidenceConnections(int max) {
        Map<Long, Long> focus = new LinkedHashMap<>();
        for (Row r : rows) {
            Map<Long, Long> m = found.getOrDefault(r.source == null ? "" : r.source, Map.of());
            for (long f : r.frames) {
                Long key = m.get(f);
                if (key != null) {
                    r.evidenceKey = key;
                    r.evidenceFrame = f;
                    break;
                }
            }
            boolean room = r.verdict() ? focus.size() < MAX_VERDICT_GRAPHS : focus.size() < max;
            if (r.evidenceKey >= 0 && (focus.containsKey(r.evidenceKey) || room)) {
                focus.putIfAbsent(r.evidenceKey, r.evidenceFrame);
            }
        }
        return focus;
    }

    /** Marks the rows whose evidence connection the page draws. */
    void drawn(java.util.Set<Long> keys) {
        for (Row r : rows) {
            r.drawn = r.evidenceKey >= 0 && keys.contains(r.evidenceKey);
        }
    }

    /** The rows as the page shows them. */
    List<ReportData.CauseRow> shown() {
        List<ReportData.CauseRow> l = new ArrayList<>();
        for (Row r : rows) {
            l.add(shown(r));
        }
        return l;
    }

    /** The row's fix in one line; a stall's for the delaying host's timer class (the stalls' median ACK delay). */
    static String oneLineFix(Row r) {
        if (r.cause == null) {
            return "";
        }
        EndpointStats.Held held = r.cause == Cause.NAGLE_SERVER_HELD ? r.endpoint.serverHeld
                : r.cause == Cause.NAGLE_CLIENT_HELD ? r.endpoint.clientHeld : null;
        return held == null || held.count == 0 ? r.cause.oneLineFix()
                : Findings.timer(held.ackDelay.percentile(0.5)).oneLineFix(r.cause);
    }

    static ReportData.CauseRow shown(Row r) {
        List<Long> frames = new ArrayList<>();
        for (long f : r.frames) {
            frames.add(f);
        }
        return new ReportData.CauseRow(r.endpoint.server, r.causeName,
                r.cause == null ? r.causeName : r.cause.title(), r.verdict(), r.share, r.timeLostMicros, r.requests,
                r.connections, r.events, r.count, oneLineFix(r), frames,
                r.drawn ? r.evidenceFrame : null, r.drawn ? Selection.anchor(r.evidenceKey) : null);
    }
}
