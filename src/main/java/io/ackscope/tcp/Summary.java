package io.ackscope.tcp;

/**
 * Count, minimum, mean and maximum of a set of durations in nanoseconds; min/mean/max are -1 when count is 0.
 * Percentiles are computed across connections (per server endpoint) from the individual samples.
 */
public record Summary(long count, long minNanos, long meanNanos, long maxNanos) {

    public static final Summary EMPTY = new Summary(0, -1, -1, -1);

    /** Mutable accumulator; a connection allocates one when it has its first value (null stands for no values). */
    static final class Acc implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        /** Adds {@code v} to {@code acc}, allocating it first when null; returns the accumulator. */
        static Acc add(Acc acc, long v) {
            Acc a = acc == null ? new Acc() : acc;
            a.add(v);
            return a;
        }

        /** The summary of {@code acc}, {@link #EMPTY} when null. */
        static Summary build(Acc acc) {
            return acc == null ? EMPTY : acc.build();
        }

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
