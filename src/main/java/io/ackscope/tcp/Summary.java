package io.ackscope.tcp;

/**
 * Count, minimum, mean and maximum of a set of durations in nanoseconds; min/mean/max are -1 when count is 0.
 * Percentiles are computed across connections (per server endpoint) from the individual samples.
 */
public record Summary(long count, long minNanos, long meanNanos, long maxNanos) {

    public static final Summary EMPTY = new Summary(0, -1, -1, -1);

    /** Mutable accumulator, allocated once per connection. */
    static final class Acc {
        long count;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        double sum;

        void add(long v) {
            count++;
            if (v < min) {
                min = v;
            }
            if (v > max) {
                max = v;
            }
            sum += v;
        }

        long minOr(long absent) {
            return count == 0 ? absent : min;
        }

        Summary build() {
            return count == 0 ? EMPTY : new Summary(count, min, Math.round(sum / count), max);
        }
    }
}
