package io.ackscope.vantage;

/**
 * One server endpoint's time split between the hosts and the network, from the connections to it that both points
 * saw: the client host's ACK delays and the server host's turnarounds ({@link HostTimes}, each read at both points)
 * and the one-way delays each way between the points. The server is named as point A saw it.
 *
 * @param serverIp    the server's address at A
 * @param serverPort  the server's port at A
 * @param connections matched connections to it
 * @param ackDelays   the client's ACK delays ({@link ClientAckDelays}; marked: a stall's)
 * @param turnarounds the server's request-to-answer times ({@link ServerTurnarounds})
 * @param oneWayAtoB  one-way delays A to B of its segments, ns
 * @param oneWayBtoA  one-way delays B to A, ns
 */
public record ServerTimes(String serverIp, int serverPort, long connections, HostTimes ackDelays,
                          HostTimes turnarounds, long[] oneWayAtoB, long[] oneWayBtoA) {
}
