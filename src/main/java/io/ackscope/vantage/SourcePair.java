package io.ackscope.vantage;

/**
 * One pair of capture points that saw connections in common: the row of the {@code source_pairs} table. A is the
 * point nearer the clients (the clients' segments reach it first). Durations in microseconds.
 *
 * @param sourceA           the point nearer the clients
 * @param sourceB           the other point
 * @param connections       connections both saw
 * @param clockOffsetUs     B's clock minus A's, at the middle of the matched segments' span
 * @param clockOffsetErrorUs half-width of the bound on the offset (half the smallest A-B-A round trip)
 * @param driftPpm          how much faster B's clock runs (0 when the span was too short to fit it)
 * @param oneWayAtoBP50Us   one-way delay A to B, median, with the offset applied
 * @param oneWayAtoBP99Us   the same, 99th percentile
 * @param oneWayBtoAP50Us   one-way delay B to A, median
 * @param oneWayBtoAP99Us   the same, 99th percentile
 * @param lostAtoB          segments seen at A, on their way to B, that B did not see
 * @param lostBtoA          segments seen at B, on their way to A, that A did not see
 */
public record SourcePair(String sourceA, String sourceB, long connections, long clockOffsetUs,
                         long clockOffsetErrorUs, double driftPpm, long oneWayAtoBP50Us, long oneWayAtoBP99Us,
                         long oneWayBtoAP50Us, long oneWayBtoAP99Us, long lostAtoB, long lostBtoA) {
}
