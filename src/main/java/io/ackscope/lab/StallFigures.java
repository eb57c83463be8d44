package io.ackscope.lab;

/**
 * What the analysis of one configuration's capture found at its server endpoint (durations in microseconds, -1
 * when there is no value).
 *
 * @param connections          connections to the server
 * @param exchanges            request/response exchanges
 * @param laterExchanges       exchanges after the first on their connection (keep-alive reuse)
 * @param laterStalled         of those, the ones that lost time to a Nagle × delayed-ACK stall
 * @param firstStalled         first exchanges on a connection that did
 * @param serverHeldStalls     stalls where the server's data waited for the client's delayed ACK
 * @param clientHeldStalls     stalls where the client's data waited for the server's delayed ACK
 * @param timerStalls          stalls (of either kind) ended by an ACK in a delayed-ACK timer band (36-50 ms or
 *                             180-230 ms, {@link io.ackscope.tcp.AckClass#delayedBand}); the others were ended by
 *                             an ACK late for another reason, such as a client slow to read
 * @param stallAckDelayMin     shortest delayed ACK that ended a stall
 * @param stallAckDelayP50     median of the delayed ACKs that ended stalls
 * @param stallAckDelayMax     longest delayed ACK that ended a stall
 * @param clientAckDelayP50    the client's ACK delay, all ACKs: median
 * @param clientAckDelayP99    the client's ACK delay, all ACKs: 99th percentile
 */
public record StallFigures(long connections, long exchanges, long laterExchanges, long laterStalled,
                           long firstStalled, long serverHeldStalls, long clientHeldStalls, long timerStalls,
                           long stallAckDelayMin,
                           long stallAckDelayP50, long stallAckDelayMax, long clientAckDelayP50,
                           long clientAckDelayP99) {

    /** Stalls of either kind. */
    public long stalls() {
        return serverHeldStalls + clientHeldStalls;
    }

    /** Timer stalls per request after the first on a connection (0 without such requests). */
    public double timerStallShare() {
        return laterExchanges == 0 ? 0 : timerStalls / (double) laterExchanges;
    }

    /** Share of the requests after the first on a connection that stalled, 0 to 1 (0 without such requests). */
    public double laterStalledShare() {
        return laterExchanges == 0 ? 0 : laterStalled / (double) laterExchanges;
    }
}
