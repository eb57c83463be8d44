package io.ackscope.tcp;

/**
 * What one side of a connection sent, and how it acknowledged the other side. Option values are -1 / false when
 * the side's SYN or SYN/ACK was not captured or did not carry them.
 *
 * @param address            the side's address as text
 * @param port               the side's port
 * @param packets            frames this side sent
 * @param frameBytes         sum of their frame lengths ({@code frame.len}, like tshark's conv table)
 * @param payloadBytes       sum of their TCP payload lengths
 * @param retransmissions    plain retransmissions (tshark's RETRANSMISSION only)
 * @param fastRetransmissions fast retransmissions
 * @param spuriousRetransmissions spurious retransmissions
 * @param duplicateAcks      duplicate ACKs this side sent
 * @param outOfOrder         out-of-order segments this side sent
 * @param zeroWindows        zero-window advertisements this side sent
 * @param zeroWindowProbes   zero-window probes this side sent
 * @param windowFull         segments that filled the peer's advertised window
 * @param keepAlives         keep-alives this side sent
 * @param lostSegments       times a gap appeared in this side's sequence space ("previous segment not captured")
 * @param rsts               RST segments
 * @param fins               FIN segments
 * @param mss                MSS option
 * @param windowScale        window scale shift option
 * @param sackPermitted      SACK-permitted option
 * @param timestamps         TCP timestamps option on the SYN / SYN/ACK
 * @param unackedDropped     segments not tracked because the unacknowledged list was full (bounded memory)
 * @param ackDelay           ACK delays of the ACKs this side sent
 * @param immediateAcks      ... of which immediate
 * @param everySecondAcks    ... sent on the second segment
 * @param piggybackedAcks    ... carried on data
 * @param delayed40msAcks    ... in the 40 ms delayed-ACK band
 * @param delayed200msAcks   ... in the 200 ms band
 * @param delayedOtherAcks   ... delayed by another amount
 * @param ipBytes            sum of the IP lengths of its packets ({@code ip.len}; Zeek's {@code *_ip_bytes})
 * @param seqBytes           the sequence space it used, SYN and FIN excluded, retransmissions once (Zeek's
 *                           {@code orig_bytes}/{@code resp_bytes}, {@link SeqSpan})
 * @param missedBytes        of that space, the bytes no captured segment carried (Zeek's content gaps)
 */
public record SideStats(String address, int port, long packets, long frameBytes, long payloadBytes,
                        long retransmissions, long fastRetransmissions, long spuriousRetransmissions,
                        long duplicateAcks, long outOfOrder, long zeroWindows, long zeroWindowProbes,
                        long windowFull, long keepAlives, long lostSegments, long rsts, long fins, int mss,
                        int windowScale, boolean sackPermitted, boolean timestamps, long unackedDropped,
                        Summary ackDelay, long immediateAcks, long everySecondAcks, long piggybackedAcks,
                        long delayed40msAcks, long delayed200msAcks, long delayedOtherAcks, long ipBytes,
                        long seqBytes, long missedBytes) {
}
