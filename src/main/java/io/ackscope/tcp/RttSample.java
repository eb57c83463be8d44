package io.ackscope.tcp;

/**
 * One round-trip time measurement. Times are epoch nanoseconds, values nanoseconds.
 *
 * @param connection    the connection
 * @param timeNanos     when the closing packet (the ACK or echo) was captured
 * @param frameNumber   frame number of the closing packet
 * @param kind          how it was measured
 * @param measuredFrom  the side whose packet started the measurement (the data / SYN / TSval sender): the RTT is
 *                      from the capture point to the other side and back
 * @param valueNanos    the round-trip time
 * @param karnAmbiguous the segment was retransmitted, so the ACK may answer either copy (Karn's rule): treat with care
 */
public record RttSample(ConnectionId connection, long timeNanos, long frameNumber, Kind kind, Side measuredFrom,
                        long valueNanos, boolean karnAmbiguous) {

    public enum Kind {
        /** SYN to SYN/ACK: capture point to server and back. */
        HANDSHAKE_SYN_SYNACK,
        /** SYN/ACK to the ACK completing the handshake: capture point to client and back. */
        HANDSHAKE_SYNACK_ACK,
        /** Data segment to the ACK covering its end ({@code tcp.analysis.ack_rtt} semantics; includes ACK delay). */
        DATA_ACK,
        /** TSval first sent to the peer's echo of it in TSecr (as pping measures). */
        TIMESTAMP_ECHO
    }
}
