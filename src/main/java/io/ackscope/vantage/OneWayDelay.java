package io.ackscope.vantage;

/**
 * One segment's trip between the two points of a pair: a row of the {@code one_way_delays} table.
 *
 * @param streamA    {@code tcp.stream} at point A
 * @param aToB       the segment went from A to B (client to server); false: B to A
 * @param timeNanosA when A saw it, A's clock (epoch ns)
 * @param delayNanos the one-way delay between the points, the clock offset applied
 * @param seq        its sequence number
 * @param length     its payload length
 */
public record OneWayDelay(long streamA, boolean aToB, long timeNanosA, long delayNanos, long seq, int length) {
}
