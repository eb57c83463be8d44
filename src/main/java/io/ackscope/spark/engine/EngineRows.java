package io.ackscope.spark.engine;

import io.ackscope.tables.EngineTables;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.ConnectionCauses;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.ConnectionRecord;
import io.ackscope.tcp.EndpointAggregate;
import io.ackscope.tcp.Exchange;
import io.ackscope.tcp.LatencyEvent;
import io.ackscope.tcp.RttSample;
import io.ackscope.tcp.SideStats;
import io.ackscope.tcp.Stall;
import io.ackscope.tcp.Summary;

/**
 * How each record of the TCP engine becomes a row of its table ({@link EngineTables}, in column order): engine
 * nanoseconds become {@code _us} columns (integer microseconds, rounded down) and TIMESTAMP columns, the engine's
 * "absent" (-1) becomes null, and sides become CLIENT (originator) or SERVER. Child rows take their connection's uid
 * from the caller, which computes it once per connection (a SHA-256 per row would cost more than the row).
 */
public final class EngineRows {
    private EngineRows() {
    }

    private static final int C_CLIENT = EngineTables.CONNECTIONS.ordinal("client_ip");
    private static final int C_SERVER = EngineTables.CONNECTIONS.ordinal("server_ip");
    private static final int C_RTT_CLIENT = EngineTables.CONNECTIONS.ordinal("data_rtt_client_data_count");
    private static final int C_RTT_SERVER = EngineTables.CONNECTIONS.ordinal("data_rtt_server_data_count");
    private static final int C_RTT_TS = EngineTables.CONNECTIONS.ordinal("timestamp_rtt_count");
    private static final int C_TTFB = EngineTables.CONNECTIONS.ordinal("ttfb_count");
    private static final int C_SERVER_HELD = EngineTables.CONNECTIONS.ordinal("server_held_stall_us");
    private static final int C_PEER = EngineTables.CONNECTIONS.ordinal("peer_source");
    private static final int C_SEQ_BYTES = EngineTables.CONNECTIONS.ordinal("client_seq_bytes");
    private static final int R_IP = EngineTables.RTT_SAMPLES.ordinal("measured_from_ip");
    private static final int A_IP = EngineTables.ACK_DELAYS.ordinal("acking_ip");
    private static final int S_HOLDING_IP = EngineTables.STALLS.ordinal("holding_ip");
    private static final int S_STALL = EngineTables.STALLS.ordinal("stall_us");
    private static final int E_IP = EngineTables.LATENCY_EVENTS.ordinal("side_ip");
    private static final int X_STALL = EngineTables.EXCHANGES.ordinal("stall_us");

    /**
     * A connection's row; {@code fileInSource}: its first file's position in its source ({@code first_file_index});
     * {@code uid}: its {@link io.ackscope.tcp.ConnectionId#uid} in {@code source} (worked out once per connection
     * by the caller, which gives it to the child rows too); {@code peer}: its match in another source (the peer
     * columns), or null.
     */
    public static void connection(RowBuffer r, ConnectionRecord c, long stream, int fileInSource, String source,
                           String uid, boolean crossesGap, VantagePlan.Peer peer) {
        r.clear();
        int i = 0;
        r.setLong(i++, stream).setInt(i++, fileInSource).setLong(i++, c.id().firstFrameNumber())
                .setString(i++, c.originatorRule().name());
        r.setTimestampNanos(i++, c.firstNanos()).setTimestampNanos(i++, c.lastNanos())
                .setLong(i++, c.durationNanos() / 1000);
        ts(r, i++, c.synNanos());
        ts(r, i++, c.synAckNanos());
        ts(r, i++, c.handshakeAckNanos());
        us(r, i++, c.synToSynAckNanos());
        us(r, i++, c.synAckToAckNanos());
        us(r, i++, c.initialRttNanos());
        r.setString(i++, c.capturePoint().name()).setString(i++, c.connState()).setString(i++, c.history())
                .setString(i, c.endReason().name());
        side(r, C_CLIENT, c.orig());
        side(r, C_SERVER, c.resp());
        summary(r, C_RTT_CLIENT, c.dataRttFromOrig());
        summary(r, C_RTT_SERVER, c.dataRttFromResp());
        summary(r, C_RTT_TS, c.timestampRtt());
        int j = C_RTT_TS + 4;
        r.setLong(j++, c.stalls()).setLong(j++, EndpointAggregate.stallMicros(c)).setLong(j, c.exchanges());
        summary(r, C_TTFB, c.ttfb());
        int k = C_TTFB + 4;
        r.setLong(k++, c.rtoEvents()).setLong(k++, c.zeroWindowWaits()).setBoolean(k++, crossesGap)
                .setString(k++, source).setString(k, uid);
        r.setLong(C_SERVER_HELD, c.respHeldStallNanos() / 1000).setLong(C_SERVER_HELD + 1,
                c.origHeldStallNanos() / 1000);
        // client_seq_bytes, server_seq_bytes, client_ip_bytes, server_ip_bytes, client_missed_bytes, server_missed_bytes
        r.setLong(C_SEQ_BYTES, c.orig().seqBytes()).setLong(C_SEQ_BYTES + 1, c.resp().seqBytes())
                .setLong(C_SEQ_BYTES + 2, c.orig().ipBytes()).setLong(C_SEQ_BYTES + 3, c.resp().ipBytes())
                .setLong(C_SEQ_BYTES + 4, c.orig().missedBytes()).setLong(C_SEQ_BYTES + 5, c.resp().missedBytes());
        if (peer != null) {
            r.setString(C_PEER, peer.source()).setLong(C_PEER + 1, peer.stream()).setString(C_PEER + 2, peer.uid())
                    .setString(C_PEER + 3, peer.byIsn() ? "ISN" : "TUPLE");
        }
    }

    private static void side(RowBuffer r, int i, SideStats s) {
        r.setString(i++, s.address()).setInt(i++, s.port());
        r.setLong(i++, s.packets()).setLong(i++, s.frameBytes()).setLong(i++, s.payloadBytes())
                .setLong(i++, s.retransmissions()).setLong(i++, s.fastRetransmissions())
                .setLong(i++, s.spuriousRetransmissions()).setLong(i++, s.duplicateAcks()).setLong(i++, s.outOfOrder())
                .setLong(i++, s.zeroWindows()).setLong(i++, s.zeroWindowProbes()).setLong(i++, s.windowFull())
                .setLong(i++, s.keepAlives()).setLong(i++, s.lostSegments()).setLong(i++, s.rsts())
                .setLong(i++, s.fins());
        intOrNull(r, i++, s.mss());
        intOrNull(r, i++, s.windowScale());
        r.setBoolean(i++, s.sackPermitted()).setBoolean(i++, s.timestamps()).setLong(i++, s.unackedDropped());
        summary(r, i, s.ackDelay());
        i += 4;
        long[] acks = {s.immediateAcks(), s.everySecondAcks(), s.piggybackedAcks(), s.delayed40msAcks(),
                s.delayed200msAcks(), s.delayedOtherAcks()};
        for (long v : acks) {
            r.setLong(i++, v);
        }
    }

    private static void summary(RowBuffer r, int i, Summary s) {
        r.setLong(i, s.count());
        if (s.count() > 0) {
            r.setLong(i + 1, s.minNanos() / 1000).setLong(i + 2, s.meanNanos() / 1000).setLong(i + 3, s.maxNanos() / 1000);
        }
    }


    public static void rttSample(RowBuffer r, RttSample s, long stream, String source, String uid) {
        r.clear().setLong(0, stream).setTimestampNanos(1, s.timeNanos()).setLong(2, s.frameNumber())
                .setString(3, s.kind().name()).setString(4, role(s.measuredFrom())).setLong(5, s.valueNanos() / 1000)
                .setBoolean(6, s.karnAmbiguous());
        tail(r, 7, source, uid, s.connection());
        r.setString(R_IP, ip(s.connection(), s.measuredFrom()));
    }


    public static void ackDelay(RowBuffer r, AckDelay a, long stream, String source, String uid) {
        r.clear().setLong(0, stream).setTimestampNanos(1, a.timeNanos()).setLong(2, a.frameNumber())
                .setString(3, role(a.ackingSide())).setLong(4, a.valueNanos() / 1000)
                .setLong(5, a.sinceNewestNanos() / 1000).setInt(6, a.segments()).setLong(7, a.bytes())
                .setString(8, a.method().name()).setString(9, a.ackClass().name());
        tail(r, 10, source, uid, a.connection());
        r.setString(A_IP, ip(a.connection(), a.ackingSide()));
    }


    public static void stall(RowBuffer r, Stall s, long stream, String source, String uid) {
        r.clear().setLong(0, stream).setTimestampNanos(1, s.startNanos()).setLong(2, s.durationNanos() / 1000)
                .setLong(3, s.ackDelayNanos() / 1000).setLong(4, s.resumeGapNanos() / 1000)
                .setString(5, role(s.holdingSide())).setString(6, role(s.delayingSide())).setLong(7, s.heldFrame())
                .setLong(8, s.ackFrame()).setLong(9, s.resumeFrame()).setString(10, EvidenceText.of(s));
        tail(r, 11, source, uid, s.connection());
        r.setString(S_HOLDING_IP, ip(s.connection(), s.holdingSide()))
                .setString(S_HOLDING_IP + 1, ip(s.connection(), s.delayingSide()))
                .setLong(S_STALL, s.durationNanos() / 1000);
    }


    public static void latencyEvent(RowBuffer r, LatencyEvent e, long stream, String source, String uid) {
        r.clear().setLong(0, stream).setString(1, e.kind().name()).setTimestampNanos(2, e.startNanos())
                .setLong(3, e.durationNanos() / 1000).setString(4, role(e.side())).setLong(5, e.startFrame())
                .setLong(6, e.endFrame()).setString(7, EvidenceText.of(e));
        tail(r, 8, source, uid, e.connection());
        r.setString(E_IP, ip(e.connection(), e.side()));
    }


    public static void exchange(RowBuffer r, Exchange e, long stream, String source, String uid) {
        r.clear().setLong(0, stream).setInt(1, e.index()).setTimestampNanos(2, e.requestStartNanos())
                .setTimestampNanos(3, e.requestEndNanos());
        ts(r, 4, e.responseFirstNanos());
        ts(r, 5, e.responseLastNanos());
        r.setLong(6, e.requestBytes()).setLong(7, e.responseBytes());
        us(r, 8, e.ttfbNanos());
        us(r, 9, e.networkNanos());
        us(r, 10, e.serverNanos());
        us(r, 11, e.stallNanos());
        us(r, 12, e.responseStallNanos());
        us(r, 13, e.completeNanos());
        r.setString(14, e.httpMethod()).setString(15, e.httpTarget()).setString(16, e.httpHost());
        intOrNull(r, 17, e.httpStatus());
        tail(r, 18, source, uid, e.connection());
        // the sum of the two parts as written, so the columns add up exactly
        r.setLong(X_STALL, Math.max(0, e.stallNanos()) / 1000 + Math.max(0, e.responseStallNanos()) / 1000);
    }


    /**
     * The rows of {@code connection_causes} of one finished connection ({@code o}: what {@link EndpointAggregate}
     * noted of it), costliest cause first; {@code written} takes each row as it is filled.
     */
    public static void connectionCauses(RowBuffer r, ConnectionCauses o, ConnectionId id, long stream, String source,
                                 String uid, Runnable written) {
        for (java.util.Map.Entry<io.ackscope.tcp.Cause, ConnectionCauses.Tally> e : o.ranked()) {
            ConnectionCauses.Tally c = e.getValue();
            r.clear().setLong(0, stream).setString(1, e.getKey().name()).setLong(2, c.events()).setLong(3, c.count())
                    .setLong(4, c.requests()).setLong(5, c.timeLostMicros())
                    .setTimestampNanos(6, o.firstNanos(e.getKey())).setLong(7, o.responseNanos() / 1000)
                    .setLongList(8, c.frames());
            tail(r, 9, source, uid, id);
            written.run();
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------
    /** The columns every child row ends with, from {@code i}: source, uid ({@code id.uid(source)}), server. */
    private static void tail(RowBuffer r, int i, String source, String uid, ConnectionId id) {
        r.setString(i, source).setString(i + 1, uid).setString(i + 2, id.serverIp()).setInt(i + 3, id.serverPort());
    }

    /** The address of the connection's host on side {@code s}. */
    private static String ip(ConnectionId id, io.ackscope.tcp.Side s) {
        return s == io.ackscope.tcp.Side.ORIGINATOR ? id.clientIp() : id.serverIp();
    }

    private static void ts(RowBuffer r, int i, long nanos) {
        if (nanos >= 0) {
            r.setTimestampNanos(i, nanos);
        }
    }

    private static void us(RowBuffer r, int i, long nanos) {
        if (nanos >= 0) {
            r.setLong(i, nanos / 1000);
        }
    }

    private static void intOrNull(RowBuffer r, int i, int v) {
        if (v >= 0) {
            r.setInt(i, v);
        }
    }

    private static String role(io.ackscope.tcp.Side s) {
        return s == io.ackscope.tcp.Side.ORIGINATOR ? "CLIENT" : "SERVER";
    }
}
