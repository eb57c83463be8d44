package io.ackscope.tcp;

/**
 * Identity of one connection.
 *
 * @param stream           {@code tcp.stream}: index in order of first appearance within the run that numbered it.
 *                         A whole-file {@link TcpEngine} numbers globally; a job that runs {@link TupleTracker}s per
 *                         4-tuple gets local numbers and must renumber by ({@code firstFileIndex},
 *                         {@code firstFrameNumber}), which orders connections exactly as first appearance does.
 * @param firstFileIndex   input file index of the connection's first frame
 * @param firstFrameNumber frame number of the connection's first frame in that file
 */
public record ConnectionId(long stream, int firstFileIndex, long firstFrameNumber) {
}
