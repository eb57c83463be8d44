package io.ackscope.report;

import io.ackscope.tables.TableFiles;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.VantageTables;
import io.ackscope.tables.VantageTables.HostTimes;
import io.ackscope.tables.VantageTables.OneWayDelays;
import io.ackscope.tables.VantageTables.SourcePairs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The page's "two vantage points" data from the tables of two or more sources: the {@code source_pairs} rows, each
 * with its {@code host_times} rows and the one-way delays of {@code one_way_delays} binned per direction
 * ({@link LatencyBins}; the table is streamed, nothing per row is kept). Outputs from before these tables, or of
 * one source, give no pair. The page's server and time filter does not apply here: the pairs are of the whole input.
 */
final class VantageReader {
    private VantageReader() {
    }

    /** Pairs shown, and server endpoints per pair. */
    static final int MAX_PAIRS = 20;
    static final int MAX_SERVERS = 20;
    /** Segments of the two-point flow graph: half before the worst one, half from it on. */
    static final int FLOW_ROWS = 40;

    /** One pair while it is read. */
    private static final class Pair {
        final String[] row = new String[2];
        long connections, offset, error, lostAB, lostBA;
        double drift;
        boolean split;
        Long p50AB, p99AB, p50BA, p99BA;
        final long[][] bins = new long[2][LatencyBins.count()];
        final long[] count = new long[2];
        final long[] max = {Long.MIN_VALUE, Long.MIN_VALUE};
        final List<ReportData.HostSplit> servers = new ArrayList<>();
        /** The segment with the largest one-way delay: its connection (uid at A) and frame at A. */
        String worstUid;
        long worstFrame;
        long worstDelay = Long.MIN_VALUE;
        final java.util.ArrayDeque<ReportData.Crossing> flow = new java.util.ArrayDeque<>();
        long streamA, streamB;
        int after = -1;
    }

    static List<ReportData.SourcePair> read(TableFiles dir) throws IOException {
        if (!TableReader.exists(dir, VantageTables.SOURCE_PAIRS) || TableReader.rows(dir, VantageTables.SOURCE_PAIRS)
                == 0) {
            return List.of();
        }
        Map<String, Pair> pairs = new LinkedHashMap<>();
        TableReader.scan(dir, VantageTables.SOURCE_PAIRS, Tables.SOURCE_PAIRS_COLUMNS, b -> {
            String[] a = b.strings(SourcePairs.SOURCE_A);
            String[] bb = b.strings(SourcePairs.SOURCE_B);
            for (int i = 0; i < b.rows && pairs.size() < MAX_PAIRS; i++) {
                Pair p = new Pair();
                p.row[0] = a[i];
                p.row[1] = bb[i];
                p.connections = b.longs(SourcePairs.CONNECTIONS).values[i];
                p.offset = b.longs(SourcePairs.CLOCK_OFFSET_US).values[i];
                p.error = b.longs(SourcePairs.CLOCK_OFFSET_ERROR_US).values[i];
                p.lostAB = b.longs(SourcePairs.LOST_A_TO_B).values[i];
                p.lostBA = b.longs(SourcePairs.LOST_B_TO_A).values[i];
                p.split = b.longs(SourcePairs.DELAYS_SPLIT).values[i] != 0;
                p.drift = b.longs(SourcePairs.DRIFT_PPM).values[i];      // a DOUBLE column, read rounded
                p.p50AB = value(b.longs(SourcePairs.ONE_WAY_A_TO_B_P50_US), i);
                p.p99AB = value(b.longs(SourcePairs.ONE_WAY_A_TO_B_P99_US), i);
                p.p50BA = value(b.longs(SourcePairs.ONE_WAY_B_TO_A_P50_US), i);
                p.p99BA = value(b.longs(SourcePairs.ONE_WAY_B_TO_A_P99_US), i);
                pairs.put(key(a[i], bb[i]), p);
            }
        });
        TableReader.scan(dir, VantageTables.HOST_TIMES, Tables.HOST_TIMES_COLUMNS, b -> {
            String[] a = b.strings(HostTimes.SOURCE_A);
            String[] bb = b.strings(HostTimes.SOURCE_B);
            String[] ip = b.strings(HostTimes.SERVER_IP);
            for (int i = 0; i < b.rows; i++) {
                Pair p = pairs.get(key(a[i], bb[i]));
                if (p != null && p.servers.size() < MAX_SERVERS) {
                    p.servers.add(new ReportData.HostSplit(
                            io.ackscope.tcp.Addresses.endpointText(ip[i],
                                    (int) b.longs(HostTimes.SERVER_PORT).values[i]),
                            b.longs(HostTimes.CONNECTIONS).values[i],
                            value(b.longs(HostTimes.CLIENT_ACK_DELAY_P50_US), i),
                            value(b.longs(HostTimes.STALL_ACK_DELAY_P50_US), i),
                            value(b.longs(HostTimes.ONE_WAY_A_TO_B_P50_US), i),
                            value(b.longs(HostTimes.ONE_WAY_B_TO_A_P50_US), i),
                            value(b.longs(HostTimes.SERVER_TURNAROUND_P50_US), i),
                            value(b.longs(HostTimes.SERVER_TURNAROUND_AT_A_P50_US), i)));
                }
            }
        });
        TableReader.scan(dir, VantageTables.ONE_WAY_DELAYS, Tables.ONE_WAY_DELAYS_COLUMNS, b -> {
            String[] a = b.strings(OneWayDelays.SOURCE_A);
            String[] bb = b.strings(OneWayDelays.SOURCE_B);
            String[] dir2 = b.strings(OneWayDelays.DIRECTION);
            long[] us = b.longs(OneWayDelays.DELAY_US).values;
            Pair last = null;
            for (int i = 0; i < b.rows; i++) {
                Pair p = last != null && last.row[0].equals(a[i]) && last.row[1].equals(bb[i]) ? last
                        : pairs.get(key(a[i], bb[i]));
                if (p != null) {
                    int d = "A_TO_B".equals(dir2[i]) ? 0 : 1;
                    p.bins[d][LatencyBins.bin(us[i])]++;
                    p.count[d]++;
                    p.max[d] = Math.max(p.max[d], us[i]);
                    if (us[i] > p.worstDelay) {
                        p.worstDelay = us[i];
                        p.worstUid = b.strings(OneWayDelays.UID_A)[i];
                        p.worstFrame = b.longs(OneWayDelays.A_FRAME).values[i];
                    }
                    last = p;
                }
            }
        });
        TableReader.scan(dir, VantageTables.ONE_WAY_DELAYS, Tables.ONE_WAY_FLOW_COLUMNS, b -> flowRows(pairs, b));
        List<ReportData.SourcePair> out = new ArrayList<>();
        for (Pair p : pairs.values()) {
            out.add(new ReportData.SourcePair(p.row[0], p.row[1], p.connections, p.offset, p.error, p.drift, p.split,
                    p.lostAB, p.lostBA, distribution(p, 0, p.p50AB, p.p99AB), distribution(p, 1, p.p50BA, p.p99BA),
                    List.copyOf(p.servers), flow(p)));
        }
        return out;
    }

    /** Keeps the rows of each pair's worst connection around its worst segment (rows in A's order). */
    private static void flowRows(Map<String, Pair> pairs, TableReader.Batch b) {
        String[] a = b.strings(OneWayDelays.SOURCE_A);
        String[] bb = b.strings(OneWayDelays.SOURCE_B);
        String[] uid = b.strings(OneWayDelays.UID_A);
        String[] direction = b.strings(OneWayDelays.DIRECTION);
        long[] frame = b.longs(OneWayDelays.A_FRAME).values;
        for (int i = 0; i < b.rows; i++) {
            Pair p = pairs.get(key(a[i], bb[i]));
            if (p == null || p.worstUid == null || !p.worstUid.equals(uid[i]) || p.after >= FLOW_ROWS / 2) {
                continue;
            }
            long delay = b.longs(OneWayDelays.DELAY_US).values[i];
            long aTime = b.longs(OneWayDelays.A_TIME).values[i];
            boolean aToB = "A_TO_B".equals(direction[i]);
            p.flow.addLast(new ReportData.Crossing(aToB, aTime, aToB ? aTime + delay : aTime - delay, delay,
                    b.longs(OneWayDelays.SEQ).values[i], (int) b.longs(OneWayDelays.PAYLOAD_LENGTH).values[i],
                    frame[i], b.longs(OneWayDelays.B_FRAME).values[i]));
            p.streamA = b.longs(OneWayDelays.STREAM_A).values[i];
            p.streamB = b.longs(OneWayDelays.STREAM_B).values[i];
            if (p.after >= 0 || frame[i] == p.worstFrame) {
                p.after++;
            } else if (p.flow.size() > FLOW_ROWS / 2) {
                p.flow.removeFirst();
            }
        }
    }

    /** The pair's flow: times made relative to its earliest. */
    private static ReportData.TwoPointFlow flow(Pair p) {
        if (p.flow.isEmpty()) {
            return null;
        }
        long t0 = Long.MAX_VALUE;
        for (ReportData.Crossing c : p.flow) {
            t0 = Math.min(t0, Math.min(c.aMicros(), c.bMicros()));
        }
        List<ReportData.Crossing> rel = new ArrayList<>();
        for (ReportData.Crossing c : p.flow) {
            rel.add(new ReportData.Crossing(c.aToB(), c.aMicros() - t0, c.bMicros() - t0, c.delayMicros(), c.seq(),
                    c.length(), c.aFrame(), c.bFrame()));
        }
        return new ReportData.TwoPointFlow(p.streamA, p.streamB, List.copyOf(rel));
    }

    private static String key(String a, String b) {
        return a + "\u0000" + b;
    }

    private static Long value(TableReader.LongColumn c, int i) {
        return c.present[i] ? c.values[i] : null;
    }

    private static ReportData.Distribution distribution(Pair p, int d, Long p50, Long p99) {
        String label = d == 0 ? "One-way delay A → B" : "One-way delay B → A";
        String detail = d == 0 ? "client side to server side" : "server side to client side";
        int first = -1, last = -1;
        for (int k = 0; k < p.bins[d].length; k++) {
            if (p.bins[d][k] > 0) {
                first = first < 0 ? k : first;
                last = k;
            }
        }
        if (first < 0 || p50 == null || p99 == null) {
            return new ReportData.Distribution("one_way", label, detail, 0, null, null, null, null, 0, new long[0]);
        }
        return new ReportData.Distribution("one_way", label, detail, p.count[d], p50, null, p99, p.max[d], first,
                java.util.Arrays.copyOfRange(p.bins[d], first, last + 1));
    }

}
