package io.ackscope.tcp;

/**
 * Identity of one connection. Besides its position in the run ({@code stream}, first file and frame) it carries what
 * its first frame says and no run changes: the endpoints, client (originator) first, and the first frame's time; so
 * every result about a connection can name it by its stable {@link #uid} and its server.
 *
 * @param stream           {@code tcp.stream}: index in order of first appearance within the run that numbered it.
 *                         A whole-file {@link TcpEngine} numbers globally; a job that runs {@link TupleTracker}s per
 *                         4-tuple gets local numbers and must renumber by ({@code firstFileIndex},
 *                         {@code firstFrameNumber}), which orders connections exactly as first appearance does.
 * @param firstFileIndex   input file index of the connection's first frame
 * @param firstFrameNumber frame number of the connection's first frame in that file
 * @param firstNanos       capture time of the connection's first frame
 * @param clientIp         client (originator) address as the tables print it
 * @param clientPort       client port
 * @param serverIp         server (responder) address as the tables print it
 * @param serverPort       server port
 */
public record ConnectionId(long stream, int firstFileIndex, long firstFrameNumber, long firstNanos, String clientIp,
                           int clientPort, String serverIp, int serverPort) implements java.io.Serializable {

    /** The id of the connection whose first frame is {@code first}, its client decided as the analyzer does. */
    static ConnectionId of(long stream, Segment first, RoleEvidence.Role role) {
        String src = Addresses.format(first.srcHi, first.srcLo);
        String dst = Addresses.format(first.dstHi, first.dstLo);
        if (role.senderIsOriginator()) {
            return new ConnectionId(stream, first.fileIndex, first.frameNumber, first.timestampNanos, src,
                    first.srcPort, dst, first.dstPort);
        }
        return new ConnectionId(stream, first.fileIndex, first.frameNumber, first.timestampNanos, dst, first.dstPort,
                src, first.srcPort);
    }

    /**
     * The record's own equality, written out: ids are map keys looked up per event, and the generated methods go
     * through method handles that C1 (which analyze runs with) does not inline. Positions are compared first.
     */
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof ConnectionId c && c.firstFrameNumber == firstFrameNumber
                && c.firstFileIndex == firstFileIndex && c.stream == stream && c.firstNanos == firstNanos
                && c.clientPort == clientPort && c.serverPort == serverPort
                && java.util.Objects.equals(clientIp, c.clientIp) && java.util.Objects.equals(serverIp, c.serverIp);
    }

    /** The value the record's generated method gives (each component's hash folded in order, times 31). */
    @Override
    public int hashCode() {
        int h = Long.hashCode(stream);
        h = h * 31 + firstFileIndex;
        h = h * 31 + Long.hashCode(firstFrameNumber);
        h = h * 31 + Long.hashCode(firstNanos);
        h = h * 31 + java.util.Objects.hashCode(clientIp);
        h = h * 31 + clientPort;
        h = h * 31 + java.util.Objects.hashCode(serverIp);
        return h * 31 + serverPort;
    }

    /**
     * The connection's stable key within capture source {@code source} ({@link ConnectionUid}, from the first
     * frame's time in whole microseconds, rounded down as the tables' timestamps are).
     */
    public String uid(String source) {
        return ConnectionUid.of(source, clientIp, clientPort, serverIp, serverPort, Math.floorDiv(firstNanos, 1000L));
    }
}
