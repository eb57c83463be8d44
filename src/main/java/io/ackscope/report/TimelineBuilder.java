package io.ackscope.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Latency over time: the report's window cut into at most {@link #MAX_BUCKETS} equal buckets of a round width,
 * with exact percentiles per bucket, so a spike during an incident shows without listing every request.
 */
final class TimelineBuilder {
    static final int MAX_BUCKETS = 240;
    /** Bucket widths a person reads easily, µs. */
    static final long[] WIDTHS = {1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
            1_000_000, 2_000_000, 5_000_000, 10_000_000, 15_000_000, 30_000_000, 60_000_000, 120_000_000,
            300_000_000, 600_000_000, 900_000_000, 1_800_000_000L, 3_600_000_000L, 7_200_000_000L,
            21_600_000_000L, 43_200_000_000L, 86_400_000_000L};

    private final long start, width;
    private final int n;
    private final long[] requests, stalls;
    /** Exchanges outside the covered span. */
    private long outside;
    private final LongList[] response, ttfb, dataRtt;

    /** A timeline covering {@code [first, last]} (µs since the epoch). */
    TimelineBuilder(long first, long last) {
        long span = Math.max(1, last - first + 1);
        // Beyond the round widths (a corpus of captures from several years): whole days, as many as needed.
        long day = WIDTHS[WIDTHS.length - 1];
        long w = (span / MAX_BUCKETS / day + 1) * day;
        for (long c : WIDTHS) {
            if (span / c < MAX_BUCKETS) {
                w = c;
                break;
            }
        }
        width = w;
        start = Math.floorDiv(first, w) * w;
        n = (int) Math.min(MAX_BUCKETS + 1, Math.max(1, (last - start) / w + 1));
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
        long b = Math.floorDiv(t - start, width);
        return b < 0 || b >= n ? -1 : (int) b;
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
        return new ReportData.Timeline(start, width, requests, stalls, outside, s);
    }

    private ReportData.Series series(String name, String label, LongList[] l, double p) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = p >= 1.0 ? l[i].max() : l[i].percentile(p);
        }
        return new ReportData.Series(name, label, v);
    }
}
