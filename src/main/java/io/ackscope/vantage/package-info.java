/**
 * Two vantage points: one connection captured at two places (say on the client host and on the server), lined up.
 * Connections both points saw are matched ({@link io.ackscope.vantage.ConnectionMatcher}: same 4-tuple, or through
 * a NAT the same initial sequence numbers), then their segments ({@link io.ackscope.vantage.SegmentMatcher}: the
 * same numbers, flags and TSval; copies by IP ID, then by occurrence). The clock offset between the points comes
 * from the smallest one-way delays each way ({@link io.ackscope.vantage.ClockEstimate}, Paxson's minimum-filter
 * bound, drift fitted on the lower envelope), and with it every matched segment's one-way delay; a segment seen
 * where it leaves but not where it arrives is loss in that direction. Each host's own time (the client's ACK delay,
 * the server's turnaround) is read at the point next to it and compared with the other's view
 * ({@link io.ackscope.vantage.HostTimes}). {@link io.ackscope.vantage.PairAnalysis}
 * does all of it for two {@link io.ackscope.vantage.PointSegments}, which {@link io.ackscope.vantage.PointReader}
 * reads from capture files; the result is a {@link io.ackscope.vantage.VantagePair}. Method, formulas and limits:
 * {@code docs/vantage.md}.
 *
 * <p>Everything of both points given is held in memory (about 60 bytes a segment plus the matching's maps). The
 * command {@code vantage} gives it two whole captures; the Spark job gives it one shuffle partition's segments per
 * source and merges the clock samples of all partitions ({@link io.ackscope.vantage.ClockSamples}) before the
 * one-way delays ({@link io.ackscope.vantage.PairAnalysis#analyze(io.ackscope.vantage.PointSegments,
 * io.ackscope.vantage.PointSegments, io.ackscope.vantage.ClockEstimate)}). Uses {@code tcp}, {@code decode} and
 * {@code capture}; no Spark (it sits under {@code spark}).
 */
package io.ackscope.vantage;
