package io.ackscope.vantage;

/**
 * One connection seen at both points of a {@link SourcePair}: its stream number at each (the {@code peer_stream}
 * of the other's {@code connections} row) and how its segments matched.
 *
 * @param streamA          {@code tcp.stream} at point A
 * @param streamB          {@code tcp.stream} at point B
 * @param client           the client's endpoint as A saw it ("addr:port")
 * @param server           the server's endpoint as A saw it
 * @param throughNat       paired by initial sequence numbers, the 4-tuples differing between the points
 * @param matchedSegments  segments seen at both points
 * @param lostAtoB         client-to-server segments seen at A and not at B
 * @param lostBtoA         server-to-client segments seen at B and not at A
 * @param onlyDownstream   segments seen only where they arrive, not where they leave (the other capture missed
 *                         them: a capture drop, or a path that bypasses that point)
 */
public record MatchedConnection(long streamA, long streamB, String client, String server, boolean throughNat,
                                int matchedSegments, int lostAtoB, int lostBtoA, int onlyDownstream) {
}
