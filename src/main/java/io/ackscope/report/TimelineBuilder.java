package io.ackscope.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Latency over time: the report's busy periods ({@link BusyPeriods}) cut into at most about {@link #MAX_BUCKETS}
 * equal buckets of a round width, with exact percentiles per bucket, so a spike during an incident shows without
 * listing every request. A long gap between two periods has no buckets: the chart's axis breaks there instead of
 * spreading empty time (captures taken hours apart).
 */
final class TimelineBuilder {
    static final int MAX_BUCKETS = 240;
    /** Bucket widths a person reads easily, µs. */
    static final long[] WIDTHS = {1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
            1_000_000, 2_000_000, 5_000_000, 10_000_000, 15_000_000, 30_000_000, 60_000_000, 120_000_000,
            300_000_000, 600_000_000, 900_000_000, 1_800_000_000L, 3_600_000_000L, 7_200_000_000L,
            21_600_000_000L, 43_200_000_000L, 86_400_000_000L};

    private final long width;
    private final int n;
    /** Per period: its first bucket's start, its first bucket's index, its bucket count. */
    private final long[] periodStart;
    private final int[] periodFirst, periodBuckets;
    private final long[] requests, stalls;
    /** Exchanges outside the covered span. */
    private long outside;
    private final LongList[] response, ttfb, dataRtt;

    /** A timeline covering {@code [first, last]} (µs since the epoch) in one period. */
    TimelineBuilder(long first, long last) {
        this(List.of(new long[]{first, last}));
    }

    /** A timeline covering the {@code {start, end}} periods (µs since the epoch, in time order, disjoint). */
    TimelineBuilder(List<long[]> periods) {
        long busy = 0;
        for (long[] p : periods) {
            busy += Math.max(1, p[1] - p[0] + 1);
        }
        // Beyond the round widths (a corpus of captures from several years): whole days, as many as needed.
        long day = WIDTHS[WIDTHS.length - 1];
        long w = (busy / MAX_BUCKETS / day + 1) * day;
        for (long c : WIDTHS) {
            if (busy / c < MAX_BUCKETS) {
                w = c;
                break;
            }
        }
        width = w;
        // aligned to the width; a period that reaches into the previous one's last bucket joins it
        List<long[]> aligned = new ArrayList<>();
        for (long[] p : periods) {
            long start = Math.floorDiv(p[0], w) * w, end = Math.floorDiv(p[1], w) * w;
            long[] prev = aligned.isEmpty() ? null : aligned.get(aligned.size() - 1);
            if (prev != null && start <= prev[1] + w) {
                prev[1] = Math.max(prev[1], end);
            } else {
                aligned.add(new long[]{start, end});
            }
        }
        periodStart = new long[aligned.size()];
        periodFirst = new int[aligned.size()];
        periodBuckets = new int[aligned.size()];
        int total = 0;
        for (int i = 0; i < aligned.size(); i++) {
            long[] p = aligned.get(i);
            periodStart[i] = p[0];
            periodFirst[i] = total;
            // the last period in the bound is cut; any after it get no bucket (their data counts as outside)
            periodBuckets[i] = (int) Math.max(0, Math.min(MAX_BUCKETS + 1 - total, (p[1] - p[0]) / w + 1));
            total += periodBuckets[i];
        }
        n = Math.max(1, total);
        requests = new long[n];
        stalls = new long[n];
        response = lists(n);
        ttfb = lists(n);
        dataRtt = lists(n);
    }

    private static LongList[] lists(int n) {
        LongList[] l = new LongList[n];
        for (int i = 0; i < n; i++) {
            l[i] = new LongList();
        }
        return l;
    }

    private int bucket(long t) {
        int p = Arrays.binarySearch(periodStart, t);
        p = p >= 0 ? p : -p - 2;
        if (p < 0 || periodBuckets[p] == 0) {
            return -1;
        }
        long b = Math.floorDiv(t - periodStart[p], width);
        return b >= periodBuckets[p] ? -1 : periodFirst[p] + (int) b;
    }

    void exchange(long t, long ttfbMicros, long responseMicros) {
        int b = bucket(t);
        if (b < 0) {
            outside++;
        } else {
            requests[b]++;
            if (ttfbMicros >= 0) {
                ttfb[b].add(ttfbMicros);
            }
            if (responseMicros >= 0) {
                response[b].add(responseMicros);
            }
        }
    }

    void stall(long t) {
        int b = bucket(t);
        if (b >= 0) {
            stalls[b]++;
        }
    }

    void dataRtt(long t, long micros) {
        int b = bucket(t);
        if (b >= 0) {
            dataRtt[b].add(micros);
        }
    }

    ReportData.Timeline build() {
        boolean http = false;
        for (long r : requests) {
            http |= r > 0;
        }
        List<ReportData.Series> s = new ArrayList<>();
        if (http) {
            s.add(series("response_max", "response time, max", response, 1.0));
            s.add(series("response_p99", "response time, p99", response, 0.99));
            s.add(series("response_p50", "response time, p50", response, 0.5));
            s.add(series("ttfb_p50", "time to first byte, p50", ttfb, 0.5));
        } else {
            s.add(series("data_rtt_max", "data RTT, max", dataRtt, 1.0));
            s.add(series("data_rtt_p99", "data RTT, p99", dataRtt, 0.99));
            s.add(series("data_rtt_p50", "data RTT, p50", dataRtt, 0.5));
        }
        List<ReportData.Period> periods = new ArrayList<>();
        for (int i = 0; i < periodStart.length && periodBuckets[i] > 0; i++) {
            periods.add(new ReportData.Period(periodStart[i], periodFirst[i], periodBuckets[i]));
        }
        return new ReportData.Timeline(periodStart[0], width, requests, stalls, outside, s, periods);
    }

    private ReportData.Series series(String name, String label, LongList[] l, double p) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = p >= 1.0 ? l[i].max() : l[i].percentile(p);
        }
        return new ReportData.Series(name, label, v);
    }
}
