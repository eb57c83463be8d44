package io.ackscope.load;

import org.HdrHistogram.Histogram;

/**
 * The figures printed for one latency histogram, in microseconds.
 *
 * @param withinStdevPercent share of requests within one standard deviation of the mean (wrk's "+/- Stdev")
 */
public record LatencySummary(long count, double mean, double stdev, long min, long max, double withinStdevPercent,
                             long p50, long p75, long p90, long p99, long p999) {

    static LatencySummary of(Histogram h) {
        long n = h.getTotalCount();
        if (n == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        double mean = h.getMean();
        double stdev = h.getStdDeviation();
        long lo = (long) Math.ceil(Math.max(0, mean - stdev));
        long hi = (long) Math.floor(mean + stdev);
        double within = hi < lo ? 0 : 100.0 * h.getCountBetweenValues(lo, hi) / n;
        return new LatencySummary(n, mean, stdev, h.getMinValue(), h.getMaxValue(), within,
                h.getValueAtPercentile(50), h.getValueAtPercentile(75), h.getValueAtPercentile(90),
                h.getValueAtPercentile(99), h.getValueAtPercentile(99.9));
    }
}
