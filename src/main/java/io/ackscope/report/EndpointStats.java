package io.ackscope.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Everything the report accumulates for one server endpoint while it reads the tables. */
final class EndpointStats {
    /** The latency metrics, in the order the page shows them. */
    static final String[][] METRICS = {
            {"ttfb", "Time to first byte", "request start → first response byte"},
            {"response", "Response time", "request start → last response byte"},
            {"handshake_rtt", "Handshake RTT", "SYN → SYN/ACK → ACK"},
            {"data_rtt", "Data RTT", "data segment → the ACK that covers it"},
            {"ack_delay", "ACK delay", "data arrival → its ACK, both sides"},
    };
    static final int TTFB = 0, RESPONSE = 1, HANDSHAKE_RTT = 2, DATA_RTT = 3, ACK_DELAY = 4;

    /** ACK classes as the tables spell them, in the order the page shows them. */
    static final String[] ACK_CLASSES = {"IMMEDIATE", "EVERY_SECOND_SEGMENT", "PIGGYBACKED", "DELAYED_40MS",
            "DELAYED_200MS", "DELAYED_OTHER"};

    final String server;
    long connections;
    long requests, laterRequests, laterRequestsStalled, firstRequestsStalled;
    long exchangeMicros, exchangeStallMicros, stallBeforeFirstByteMicros, stallAfterFirstByteMicros;
    long connectionMicros;
    long stallMicros;
    final LongList[] metrics = new LongList[METRICS.length];
    final LongList responseStalled = new LongList(), responseClean = new LongList();
    /** Stalls where the server's data waited (the client delayed its ACK), and the other way round. */
    final Held serverHeld = new Held(), clientHeld = new Held();
    final Map<String, Map<String, Long>> ackClasses = new TreeMap<>();
    final Map<String, Long> vantage = new TreeMap<>();
    /** Its rows of the {@code findings} table, costliest first ({@link CauseFindings}). */
    final List<CauseFindings.Row> causes = new ArrayList<>();
    /** Time lost to all its causes, and to those at or above the verdict threshold. */
    long timeLostMicros, verdictMicros;
    /** The share 0-1 of its response time its causes explain together ({@code findings}); NaN when unknown. */
    double explainedShare = Double.NaN;

    /**
     * The order endpoints are shown, charted and given cards in: where time was lost first (to causes that may be a
     * verdict, then to any), then the busiest, then by name.
     */
    static final Comparator<EndpointStats> MOST_LOST_FIRST = Comparator
            .comparingLong((EndpointStats e) -> e.verdictMicros).thenComparingLong(e -> e.timeLostMicros)
            .thenComparingLong(e -> e.requests).thenComparingLong(e -> e.connections).reversed()
            .thenComparing(e -> e.server);

    /** Waits of one kind: how many, how long, and the longest as an example. */
    static class Waits {
        long count, micros, maxMicros = -1, exampleStream = -1;
        String example;

        void add(long stream, long duration, String evidence) {
            count++;
            micros += duration;
            // Ties go to the lower stream, so the example does not depend on the order rows were written in.
            if (duration > maxMicros || duration == maxMicros && stream < exampleStream) {
                maxMicros = duration;
                exampleStream = stream;
                example = evidence;
            }
        }
    }

    /** Stalls where one side's data was held: the peer's ACK delays, the resume gaps, the timer bands. */
    static final class Held extends Waits {
        final LongList ackDelay = new LongList(), resumeGap = new LongList();
        long in40Band, in200Band;
    }

    EndpointStats(String server) {
        this.server = server;
        for (int i = 0; i < metrics.length; i++) {
            metrics[i] = new LongList();
        }
        for (String side : new String[]{"CLIENT", "SERVER"}) {
            Map<String, Long> m = new LinkedHashMap<>();
            for (String c : ACK_CLASSES) {
                m.put(c, 0L);
            }
            ackClasses.put(side, m);
        }
    }

    void exchange(int index, long ttfb, long stallBefore, long stallAfter, long complete) {
        requests++;
        boolean stalled = stallBefore > 0 || stallAfter > 0;
        if (index > 0) {
            laterRequests++;
            if (stalled) {
                laterRequestsStalled++;
            }
        } else if (stalled) {
            firstRequestsStalled++;
        }
        if (ttfb >= 0) {
            metrics[TTFB].add(ttfb);
        }
        if (complete >= 0) {
            metrics[RESPONSE].add(complete);
            exchangeMicros += complete;
            (stalled ? responseStalled : responseClean).add(complete);
        }
        stallBeforeFirstByteMicros += Math.max(0, stallBefore);
        stallAfterFirstByteMicros += Math.max(0, stallAfter);
        exchangeStallMicros += Math.max(0, stallBefore) + Math.max(0, stallAfter);
    }

    void ackDelay(String side, long micros, String ackClass) {
        metrics[ACK_DELAY].add(micros);
        ackClasses.computeIfAbsent(side, k -> new LinkedHashMap<>()).merge(ackClass, 1L, Long::sum);
    }

    void stall(long stream, boolean serverHeldData, long duration, long ackDelay, long resumeGap, String evidence) {
        stallMicros += duration;
        Held h = serverHeldData ? serverHeld : clientHeld;
        h.add(stream, duration, evidence);
        h.ackDelay.add(ackDelay);
        h.resumeGap.add(resumeGap);
        h.in40Band += ackDelay >= 36_000 && ackDelay <= 50_000 ? 1 : 0;
        h.in200Band += ackDelay >= 180_000 && ackDelay <= 230_000 ? 1 : 0;
    }

    /** Share of time lost to stalls (see {@link ReportData.Endpoint#stallShare()}). */
    double stallShare() {
        if (exchangeMicros > 0) {
            return Math.min(1.0, (double) exchangeStallMicros / exchangeMicros);
        }
        return connectionMicros > 0 ? Math.min(1.0, (double) stallMicros / connectionMicros) : 0;
    }

    long stalls() {
        return serverHeld.count + clientHeld.count;
    }

    List<ReportData.Distribution> distributions() {
        List<ReportData.Distribution> out = new ArrayList<>();
        for (int i = 0; i < METRICS.length; i++) {
            out.add(distribution(METRICS[i][0], METRICS[i][1], METRICS[i][2], metrics[i]));
        }
        return out;
    }

    static ReportData.Distribution distribution(String metric, String label, String detail, LongList v) {
        if (v.size() == 0) {
            return new ReportData.Distribution(metric, label, detail, 0, null, null, null, null, 0, new long[0]);
        }
        long[] all = new long[LatencyBins.count()];
        int[] range = {Integer.MAX_VALUE, -1};
        v.forEach((value, count) -> {
            int b = LatencyBins.bin(value);
            all[b] += count;
            range[0] = Math.min(range[0], b);
            range[1] = Math.max(range[1], b);
        });
        int first = range[0], last = range[1];
        return new ReportData.Distribution(metric, label, detail, v.size(), v.percentile(0.5), v.percentile(0.9),
                v.percentile(0.99), v.max(), first, java.util.Arrays.copyOfRange(all, first, last + 1));
    }
}
