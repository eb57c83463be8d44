package io.ackscope.vantage;

/**
 * One segment's trip between the two points of a pair: a row of the {@code one_way_delays} table.
 *
 * @param streamA    {@code tcp.stream} at point A
 * @param streamB    {@code tcp.stream} at point B
 * @param aToB       the segment went from A to B (client to server); false: B to A
 * @param timeNanosA when A saw it, A's clock (epoch ns)
 * @param timeNanosB when B saw it, B's own clock (epoch ns)
 * @param delayNanos the one-way delay between the points, the clock offset applied
 * @param seq        its sequence number
 * @param length     its payload length
 * @param orderA     where A read it ({@link PointSegments#order}: in the Spark job, its frame number in A's source)
 * @param orderB     where B read it
 */
public record OneWayDelay(long streamA, long streamB, boolean aToB, long timeNanosA, long timeNanosB,
                          long delayNanos, long seq, int length, long orderA, long orderB) {
}
