package io.ackscope.tcp;

/**
 * The latency causes the engine finds per connection, each reported as a {@link CauseEvent} with its evidence frames.
 * The rules and thresholds, with their reasoning and references, are in docs/causes.md.
 */
public enum Cause {
    /** The originator's SYN was retransmitted: the connect waited for the SYN retransmission timer (1 s on Linux). */
    SYN_RETRANSMISSION,
    /** The responder retransmitted its SYN/ACK on its own timer (not in answer to a retransmitted SYN). */
    SYNACK_RETRANSMISSION,
    /** Loss repaired by a retransmission triggered by duplicate ACKs or SACK (RFC 5681 fast retransmit, RACK). */
    FAST_RETRANSMIT,
    /** Loss at the tail of a flight, repaired by a tail-loss probe sent before any RTO could fire (RFC 8985). */
    TAIL_LOSS_PROBE,
    /** Loss repaired only after a retransmission timeout (RFC 6298), possibly backed off; count = backoffs. */
    RTO,
    /** Retransmitted data the receiver already had (already ACKed, or reported by a D-SACK, RFC 2883). */
    SPURIOUS_RETRANSMISSION,
    /** The receiver advertised a zero window: its application did not read; the sender waited for it. */
    ZERO_WINDOW
}
