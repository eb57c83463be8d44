package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.PSH;
import static io.ackscope.decode.PacketDecoder.SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ackscope.tcp.ConnectionRecord.OriginatorRule;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The roles of a connection without a captured handshake, rule by rule and in their order. */
class RoleEvidenceTest {
    /** 10.0.0.1 and 10.0.0.2 as {@link Segment} holds IPv4 addresses (IPv4-mapped in the low half). */
    private static final long A = 0xffff_0a00_0001L, B = 0xffff_0a00_0002L;

    private static Segment seg(long src, int srcPort, long dst, int dstPort, int flags, String payload) {
        Segment s = new Segment();
        s.srcLo = src;
        s.srcPort = srcPort;
        s.dstLo = dst;
        s.dstPort = dstPort;
        s.flags = flags;
        byte[] p = payload.getBytes(StandardCharsets.US_ASCII);
        s.payloadLength = p.length;
        s.setPayloadPrefix(p, 0, p.length);
        return s;
    }

    private static void assertRole(OriginatorRule rule, boolean senderIsClient, RoleEvidence.Role got) {
        assertEquals(new RoleEvidence.Role(rule, senderIsClient), got);
    }

    @Test
    void aListenerOutranksTheApplicationAndThePorts() {
        RoleEvidence ev = new RoleEvidence();
        // B:40000 answered a SYN of another connection: it listens, though its port is ephemeral and the other's
        // is well-known
        ev.observe(seg(B, 40000, A, 50000, SYN | ACK, ""));
        Segment first = seg(B, 40000, A, 80, ACK | PSH, "GET / HTTP/1.1\r\n");
        assertRole(OriginatorRule.LISTENER, false, ev.decide(first));
        assertEquals(1, ev.listeners());
    }

    @Test
    void theFirstFramesRequestOrStatusLineDecidesWithoutAListener() {
        RoleEvidence ev = new RoleEvidence();
        assertRole(OriginatorRule.APPLICATION, true, ev.decide(seg(A, 8080, B, 50000, ACK | PSH, "GET /x HTTP/1.1\r\n")));
        assertRole(OriginatorRule.APPLICATION, false,
                ev.decide(seg(A, 50000, B, 8080, ACK | PSH, "HTTP/1.1 200 OK\r\n")));
        // a TLS ClientHello: record type 22, version 3.x, handshake type 1
        Segment hello = seg(A, 8443, B, 443, ACK | PSH, "");
        byte[] tls = {0x16, 0x03, 0x01, 0x00, 0x40, 0x01};
        hello.payloadLength = tls.length;
        hello.setPayloadPrefix(tls, 0, tls.length);
        assertRole(OriginatorRule.APPLICATION, true, ev.decide(hello));
    }

    @Test
    void anEndpointSeenServingElsewhereDecidesAPureAck() {
        RoleEvidence ev = new RoleEvidence();
        ev.observe(seg(B, 9000, A, 50001, ACK | PSH, "HTTP/1.1 204 No Content\r\n"));
        ev.observe(seg(A, 50002, B, 9000, ACK | PSH, "POST /y HTTP/1.1\r\n"));
        assertEquals(1, ev.answerers());
        assertRole(OriginatorRule.APPLICATION, false, ev.decide(seg(B, 9000, A, 50003, ACK, "")));
    }

    @Test
    void portsDecideLastThenTheFirstPacket() {
        RoleEvidence ev = RoleEvidence.NONE;
        assertRole(OriginatorRule.WELL_KNOWN_PORT, false, ev.decide(seg(A, 443, B, 2000, ACK, "")));
        // 18781 is below both ephemeral ranges, 55802 inside Linux's and IANA's
        assertRole(OriginatorRule.EPHEMERAL_PORT, false, ev.decide(seg(A, 18781, B, 55802, ACK, "")));
        assertRole(OriginatorRule.EPHEMERAL_PORT, true, ev.decide(seg(A, 55802, B, 18781, ACK, "")));
        assertRole(OriginatorRule.FIRST_PACKET, true, ev.decide(seg(A, 50000, B, 60000, ACK, "")));
        assertRole(OriginatorRule.SYN_ACK, false, ev.decide(seg(A, 50000, B, 60000, SYN | ACK, "")));
        assertRole(OriginatorRule.SYN, true, ev.decide(seg(A, 80, B, 60000, SYN, "")));
    }

    @Test
    void evidenceIsBoundedAndNoneObservesNothing() {
        RoleEvidence ev = new RoleEvidence();
        for (int i = 0; i < RoleEvidence.MAX_ENDPOINTS + 10; i++) {
            ev.observe(seg(B + i, 1000, A, 50000, SYN | ACK, ""));
        }
        assertEquals(RoleEvidence.MAX_ENDPOINTS, ev.listeners());
        RoleEvidence.NONE.observe(seg(B, 1000, A, 50000, SYN | ACK, ""));
        assertEquals(0, RoleEvidence.NONE.listeners());
    }
}
