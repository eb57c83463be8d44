package io.ackscope.tcp;

/**
 * Everything the engine knows about one connection, emitted once when it closes, idles out, is replaced by a new
 * connection on the same 4-tuple, or the input ends. Times are epoch nanoseconds, durations nanoseconds, -1 when
 * absent.
 *
 * @param id                  identity and {@code tcp.stream}
 * @param firstFromOriginator the connection's first frame was sent by the originator (tshark's conv table calls the
 *                            sender of the first frame "A")
 * @param originatorRule      how the originator was decided
 * @param orig                the originator (client) side
 * @param resp                the responder (server) side
 * @param firstNanos          first frame
 * @param lastNanos           last frame
 * @param durationNanos       last - first
 * @param synNanos            first SYN from the originator
 * @param synAckNanos         first SYN/ACK from the responder
 * @param handshakeAckNanos   the ACK completing the handshake
 * @param synToSynAckNanos    handshake leg capture&rarr;server&rarr;capture (latest SYN to SYN/ACK)
 * @param synAckToAckNanos    handshake leg capture&rarr;client&rarr;capture
 * @param initialRttNanos     tshark's {@code tcp.analysis.initial_rtt}
 * @param capturePoint        where the capture was taken, inferred from the legs
 * @param connState           Zeek-style {@code conn_state} (S0, S1, SF, REJ, S2, S3, RSTO, RSTR, RSTOS0, RSTRH, SH,
 *                            SHR, OTH)
 * @param history             Zeek-style history: S syn, H syn/ack, A pure ack, D data, F fin, R rst, T retransmission,
 *                            W zero window, Q syn+fin, I inconsistent flags; upper case = originator, T and W repeat
 *                            at 1, 10, 100, ... occurrences; a leading ^ when the first frame came from the
 *                            responder (Zeek's mark of roles flipped from the first packet's)
 * @param endReason           why the record was emitted
 * @param dataRttFromOrig     RTT samples of originator data acknowledged by the responder
 * @param dataRttFromResp     RTT samples of responder data acknowledged by the originator
 * @param timestampRtt        RTT from TCP timestamp echoes, both directions
 * @param stalls              Nagle &times; delayed-ACK stalls found
 * @param stallNanos          their total duration
 * @param exchanges           request/response exchanges
 * @param ttfb                their time to first byte
 * @param rtoEvents           retransmission timeouts
 * @param zeroWindowWaits     zero-window waits
 * @param origHeldStallNanos  of {@code stallNanos}, stalls in which the originator's (client's) data waited
 * @param respHeldStallNanos  of {@code stallNanos}, stalls in which the responder's (server's) data waited
 */
public record ConnectionRecord(ConnectionId id, boolean firstFromOriginator, OriginatorRule originatorRule, SideStats orig, SideStats resp,
                               long firstNanos, long lastNanos, long durationNanos, long synNanos, long synAckNanos,
                               long handshakeAckNanos, long synToSynAckNanos, long synAckToAckNanos,
                               long initialRttNanos, CapturePoint capturePoint, String connState, String history,
                               EndReason endReason, Summary dataRttFromOrig, Summary dataRttFromResp,
                               Summary timestampRtt, long stalls, long stallNanos, long exchanges, Summary ttfb,
                               long rtoEvents, long zeroWindowWaits, long origHeldStallNanos,
                               long respHeldStallNanos) {

    /**
     * How the originator (client) of a connection was decided; the rules are tried in this order
     * ({@link RoleEvidence}).
     */
    public enum OriginatorRule {
        /** It sent the first pure SYN. */
        SYN,
        /** The first handshake packet captured was the peer's SYN/ACK. */
        SYN_ACK,
        /** No handshake: the peer is the one endpoint that answered SYNs of other connections in the same source. */
        LISTENER,
        /**
         * No handshake, no listener: an HTTP/1.x request line or TLS ClientHello (client) or status line or
         * ServerHello (server) in the first frame, else the one endpoint seen serving requests in the same source.
         */
        APPLICATION,
        /** No handshake, listener or application evidence; exactly one port below 1024: its owner is the server. */
        WELL_KNOWN_PORT,
        /** As above, both ports 1024 or more, exactly one ephemeral (32768 or more): the other is the server. */
        EPHEMERAL_PORT,
        /** Nothing told the endpoints apart: the sender of the first captured packet. */
        FIRST_PACKET
    }

    /** Why a connection record was emitted. */
    public enum EndReason {
        /** Both FINs were sent and acknowledged, or a RST was sent; emitted after the linger time or at the end. */
        CLOSED,
        /** A new SYN with a different ISN started a new connection on the same 4-tuple. */
        PORT_REUSED,
        /** No packet for longer than the idle timeout. */
        IDLE_TIMEOUT,
        /**
         * The input ended while the connection was open; also an unanswered attempt that {@link TcpEngine} emitted
         * earlier to free its memory (see {@link EngineConfig#attemptTimeoutNanos()}), whose record is the one the end
         * of the input would give.
         */
        END_OF_INPUT
    }

    /** Zeek's conn_state as a pure function of what each endpoint did. */
    static String zeekConnState(boolean origSyn, boolean respSynAck, boolean origRst, boolean respRst, boolean origFin,
                                boolean respFin) {
        if (origSyn && !respSynAck) {
            if (origRst) {
                return "RSTOS0";
            }
            if (respRst) {
                return "REJ";
            }
            if (origFin) {
                return "SH";
            }
            return "S0";
        }
        if (!origSyn && respSynAck) {
            if (respRst) {
                return "RSTRH";
            }
            if (respFin) {
                return "SHR";
            }
            return "OTH";
        }
        if (!origSyn) {
            return "OTH";
        }
        if (origRst) {
            return "RSTO";
        }
        if (respRst) {
            return "RSTR";
        }
        if (origFin && respFin) {
            return "SF";
        }
        if (origFin) {
            return "S2";
        }
        if (respFin) {
            return "S3";
        }
        return "S1";
    }
}
