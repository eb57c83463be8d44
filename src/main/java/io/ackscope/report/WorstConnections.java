package io.ackscope.report;

import io.ackscope.tables.TableFiles;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.EngineTables.Stalls;
import io.ackscope.tables.TableReader;
import io.ackscope.tcp.Addresses;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The connections the page draws as flow graphs: first the evidence of the costliest causes (the connection each
 * {@code findings} row's first evidence frame belongs to, {@link CauseFindings}), so every cause's "see it" link
 * has a graph to open; then, in the places left, the worst by {@link #WORST_FIRST}. A second pass over
 * {@code connections} ranks every selected connection with what the measurements added to it in a bounded heap;
 * only a connection that enters the heap (or is evidence) is read in full.
 */
final class WorstConnections {
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
        /** The frame a cause's evidence names, to centre the flow graph on; -1 when not evidence. */
        long evidenceFrame = -1;
        String worstStallEvidence;
        /** The stall that {@link #worstStallEvidence} comes from was found in the {@code stalls} table. */
        boolean evidenceRead;
    }

    /** Most stall time first, then the slowest response, the slowest first byte, retransmissions, duration. */
    static final Comparator<Conn> WORST_FIRST = Comparator.comparingLong((Conn c) -> c.stallMicros)
            .thenComparingLong(c -> c.maxResponse).thenComparingLong(c -> c.maxTtfb)
            .thenComparingLong(c -> c.retransmissions).thenComparingLong(c -> c.last - c.first).reversed()
            .thenComparingLong(c -> c.stream);

    /** What a connection without measurements has: the defaults of a new candidate (never changed). */
    private static final Conn UNMEASURED = new Conn();

    private final Selection sel;
    private final CauseFindings causes;
    private final int limit;

    WorstConnections(Selection sel, CauseFindings causes, int limit) {
        this.sel = sel;
        this.causes = causes;
        this.limit = limit;
    }

    /**
     * Second pass over {@code connections}: the evidence connections of the causes first (in the order of their
     * causes: every verdict-level cause's, {@link CauseFindings#evidenceConnections}, even beyond {@code limit}),
     * then the worst of the others while fewer than {@code limit} are chosen. Marks the causes whose evidence is
     * drawn.
     */
    List<Conn> choose(TableReader.Scan scan) throws IOException {
        PriorityQueue<Conn> top = new PriorityQueue<>(WORST_FIRST.reversed());
        Map<Long, Conn> evidence = new HashMap<>();
        ConnectionIndex.Measures m = sel.index.measures;
        // the candidate last ranked out (or the one the heap dropped), filled again for the next row: most rows are
        // neither evidence nor among the worst, so one object serves them all
        Conn[] spare = {null};
        // most rows have the server endpoint of the row before (the column's strings come from its dictionary)
        String[] lastServerIp = {null};
        long[] lastServerPort = {-1};
        String[] lastServer = {null};
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Connections.STREAM), first = b.longs(Connections.FIRST_TIME),
                    last = b.longs(Connections.LAST_TIME), serverPort = b.longs(Connections.SERVER_PORT),
                    cRetrans = b.longs(Connections.CLIENT_RETRANSMISSIONS),
                    sRetrans = b.longs(Connections.SERVER_RETRANSMISSIONS);
            String[] serverIp = b.strings(Connections.SERVER_IP);
            String[] source = Selection.sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (serverIp[i] != lastServerIp[0] || serverPort.values[i] != lastServerPort[0]) {
                    lastServerIp[0] = serverIp[i];
                    lastServerPort[0] = serverPort.values[i];
                    lastServer[0] = Addresses.endpointText(serverIp[i], (int) serverPort.values[i]);
                }
                String server = lastServer[0];
                String src = source == null ? null : source[i];
                if (!sel.selects(src, server, first.values[i], last.values[i])) {
                    continue;
                }
                int ordinal = sel.sourceOrdinal(src);
                Conn c = measured(spare[0], stream.values[i], first.values[i], last.values[i],
                        cRetrans.values[i] + sRetrans.values[i], m, sel.index.existingSlot(ordinal, stream.values[i]));
                long key = Selection.key(ordinal, c.stream);
                boolean isEvidence = causes.names(key);
                boolean worse = top.size() < limit || WORST_FIRST.compare(c, top.peek()) < 0;
                if (isEvidence || worse) {
                    c.key = key;
                    c.source = src;
                    c.endpoint = sel.endpoint(sel.endpointName(server, src));
                    details(c, b, i);
                }
                spare[0] = null;
                if (isEvidence) {
                    evidence.put(key, c);
                } else if (worse) {
                    top.add(c);
                    if (top.size() > limit) {
                        spare[0] = top.poll();
                    }
                } else {
                    spare[0] = c;
                }
            }
        });
        List<Conn> chosen = new ArrayList<>();
        Map<Long, Long> focus = causes.evidenceConnections(limit);
        for (Map.Entry<Long, Long> f : focus.entrySet()) {
            Conn c = evidence.remove(f.getKey());
            if (c != null) {
                c.evidenceFrame = f.getValue();
                chosen.add(c);
            }
        }
        // evidence of causes beyond the bound competes with the others
        List<Conn> rest = new ArrayList<>(top);
        rest.addAll(evidence.values());
        rest.sort(WORST_FIRST);
        for (Conn c : rest) {
            if (chosen.size() < limit) {
                chosen.add(c);
            }
        }
        java.util.Set<Long> drawn = new java.util.HashSet<>();
        for (Conn c : chosen) {
            drawn.add(c.key);
        }
        causes.drawn(drawn);
        return chosen;
    }

    /**
     * A selected connection with what the measurements added to it: {@code reuse} filled again (a candidate no
     * longer kept), or a new one when null.
     */
    private static Conn measured(Conn reuse, long stream, long first, long last, long retransmissions,
                                 ConnectionIndex.Measures m, int s) {
        Conn c = reuse == null ? new Conn() : reuse;
        if (s < 0) {
            Conn none = UNMEASURED;
            c.requests = none.requests;
            c.stalls = none.stalls;
            c.stallMicros = none.stallMicros;
            c.maxTtfb = none.maxTtfb;
            c.maxResponse = none.maxResponse;
            c.slowestStart = none.slowestStart;
            c.worstStallMicros = none.worstStallMicros;
            c.worstStallHeldFrame = none.worstStallHeldFrame;
        } else {
            c.requests = m.requests[s];
            c.stalls = m.stalls[s];
            c.stallMicros = m.stallMicros[s];
            c.maxTtfb = m.maxTtfb[s];
            c.maxResponse = m.maxResponse[s];
            c.slowestStart = m.slowestStart[s];
            c.worstStallMicros = m.worstStallMicros[s];
            c.worstStallHeldFrame = m.worstStallHeldFrame[s];
        }
        c.stream = stream;
        c.first = first;
        c.last = last;
        c.retransmissions = retransmissions;
        return c;
    }

    /** The rest of a candidate's row: what the page and its flow graph show. */
    private static void details(Conn c, TableReader.Batch b, int i) {
        c.firstFile = (int) b.longs(Connections.FIRST_FILE_INDEX).values[i];
        c.firstFrame = b.longs(Connections.FIRST_FRAME).values[i];
        c.packets = b.longs(Connections.CLIENT_PACKETS).values[i] + b.longs(Connections.SERVER_PACKETS).values[i];
        c.payload = b.longs(Connections.CLIENT_PAYLOAD_BYTES).values[i]
                + b.longs(Connections.SERVER_PAYLOAD_BYTES).values[i];
        c.clientPort = (int) b.longs(Connections.CLIENT_PORT).values[i];
        c.serverPort = (int) b.longs(Connections.SERVER_PORT).values[i];
        c.client = Addresses.endpointText(b.strings(Connections.CLIENT_IP)[i], c.clientPort);
        c.connState = b.strings(Connections.CONN_STATE)[i];
        c.history = b.strings(Connections.HISTORY)[i];
        c.vantage = b.strings(Connections.VANTAGE)[i];
    }

    /**
     * The engine's words for the longest stall of each chosen connection: the first row of {@code stalls} (in
     * table order) with the duration and held frame {@link Measurements#readStalls} ranked highest, as that pass
     * would have kept it. A pass over the stalls table, only when a chosen connection stalled.
     */
    void readStallEvidence(TableFiles dir, List<Conn> chosen) throws IOException {
        Map<Long, Conn> stalled = new HashMap<>();
        for (Conn c : chosen) {
            if (c.worstStallMicros >= 0) {
                stalled.put(c.key, c);
            }
        }
        if (stalled.isEmpty()) {
            return;
        }
        TableReader.scan(dir, Tables.STALLS, List.of(Stalls.STREAM, Stalls.HELD_TIME, Stalls.DURATION_US,
                Stalls.HELD_FRAME, Stalls.EVIDENCE), Tables.SOURCE, b -> {
            TableReader.LongColumn stream = b.longs(Stalls.STREAM), start = b.longs(Stalls.HELD_TIME),
                    duration = b.longs(Stalls.DURATION_US), held = b.longs(Stalls.HELD_FRAME);
            String[] evidence = b.strings(Stalls.EVIDENCE);
            String[] source = Selection.sources(b);
            for (int i = 0; i < b.rows; i++) {
                int ordinal = sel.sourceOrdinal(source, i);
                Conn c = ordinal < 0 ? null : stalled.get(Selection.key(ordinal, stream.values[i]));
                if (c != null && !c.evidenceRead && sel.filter.inWindow(start.values[i])
                        && duration.values[i] == c.worstStallMicros && held.values[i] == c.worstStallHeldFrame) {
                    c.worstStallEvidence = evidence[i];
                    c.evidenceRead = true;
                }
            }
        });
    }

    /**
     * The flow graph of each chosen connection (or why it has none), in their order: {@code ladders} re-reads the
     * capture files. Reads only {@code input} and the chosen connections' own fields, so it may run beside the
     * passes over the measurement tables.
     */
    static List<ReportData.Ladder> graphs(InputReader input, List<Conn> chosen, boolean ladders) {
        List<LadderReader.Want> wants = new ArrayList<>();
        for (Conn c : chosen) {
            long focus = c.evidenceFrame >= 0 ? c.evidenceFrame : c.worstStallHeldFrame;
            wants.add(new LadderReader.Want(c.stream, input.position(c.source, c.firstFile), c.firstFrame,
                    c.clientPort, c.serverPort, c.packets,
                    c.last, focus, focus >= 0 ? -1 : c.slowestStart));
        }
        return ladders ? LadderReader.read(input.paths(), input.seekIndexes(), input.fileFrames(),
                input.fileSources(), wants) : LadderReader.unavailable(wants, "flow graphs were not requested");
    }

    /** The chosen connections as the page shows them, each with its flow graph ({@link #graphs}, same order). */
    static List<ReportData.Connection> shown(List<Conn> chosen, List<ReportData.Ladder> graphs) {
        List<ReportData.Connection> out = new ArrayList<>();
        for (int i = 0; i < chosen.size(); i++) {
            Conn c = chosen.get(i);
            out.add(new ReportData.Connection(Selection.anchor(c.key), c.stream, c.client, c.endpoint.server,
                    c.first, c.last - c.first, c.packets, c.payload, c.requests, c.stalls, c.stallMicros,
                    c.maxTtfb >= 0 ? c.maxTtfb : null, c.maxResponse >= 0 ? c.maxResponse : null, c.retransmissions,
                    c.connState, c.history, c.vantage, why(c), c.worstStallEvidence, graphs.get(i)));
        }
        return out;
    }

    private static String why(Conn c) {
        String evidence = c.evidenceFrame >= 0 ? "evidence (frame " + c.evidenceFrame + ")" : null;
        String worst;
        if (c.stallMicros > 0) {
            worst = Format.plural(c.stalls, "stall", "stalls") + " cost " + Format.duration(c.stallMicros);
        } else if (c.maxResponse >= 0) {
            worst = "slowest response " + Format.duration(c.maxResponse);
        } else if (c.maxTtfb >= 0) {
            worst = "slowest first byte " + Format.duration(c.maxTtfb);
        } else if (c.retransmissions > 0) {
            worst = Format.plural(c.retransmissions, "retransmission", "retransmissions");
        } else {
            worst = "longest connection, " + Format.duration(c.last - c.first);
        }
        return evidence == null ? worst : evidence + "; " + worst;
    }
}
