package io.ackscope.vantage;

import java.util.List;

/**
 * Everything found for one pair of capture points: the {@code source_pairs} row, the clock estimate behind it,
 * the matched connections, every matched segment's one-way delay, and the hosts' own times seen from both points.
 *
 * @param summary        the table row
 * @param clock          the clock estimate (its offset and error in nanoseconds)
 * @param connections    the connections both points saw, by stream at A
 * @param delays         one sample per segment seen at both points, in A's capture order per connection
 * @param ackDelays      the client's ACK delays at both points ({@link ClientAckDelays}; marked: a stall's)
 * @param turnarounds    the server's request-to-answer times at both points ({@link ServerTurnarounds})
 * @param onlyDownstream segments seen where they arrive but not where they leave (see {@link MatchedConnection})
 * @param servers        the same host times and one-way delays per server endpoint, in the order first met
 */
public record VantagePair(SourcePair summary, ClockEstimate clock, List<MatchedConnection> connections,
                          List<OneWayDelay> delays, HostTimes ackDelays, HostTimes turnarounds,
                          long onlyDownstream, List<ServerTimes> servers) {

    /**
     * Above this error the offset bound alone does not split a round trip into its two directions: the one-way
     * delays then rest on the two directions' smallest delays being equal (see {@link ClockEstimate}).
     */
    public static final long SPLIT_TOLERANCE_NANOS = 1_000_000L;

    /** The one-way delays are bounded by the clocks alone (not resting on symmetric minimum delays). */
    public boolean delaysBounded() {
        return clock.splitsDelaysWithin(SPLIT_TOLERANCE_NANOS);
    }
}
