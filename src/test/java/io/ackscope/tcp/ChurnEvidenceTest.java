package io.ackscope.tcp;

import static io.ackscope.tcp.Segments.ACK;
import static io.ackscope.tcp.Segments.FIN;
import static io.ackscope.tcp.Segments.PSH;
import static io.ackscope.tcp.Segments.RST;
import static io.ackscope.tcp.Segments.SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Connection churn's evidence beyond the handshakes (docs/causes.md): a SYN on a 4-tuple whose previous connection
 * ended less than 60 s before (Linux's TIME_WAIT) is a TIME_WAIT collision, the churn event's count; one later is
 * not; and {@code diagnose} counts the churned connections a RST ended.
 */
class ChurnEvidenceTest {
    private static final long MS = 1_000_000L;
    private static final String GET = "GET / HTTP/1.1\r\nHost: h\r\n\r\n";
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

    /** One request on a new connection of the same 4-tuple (ISN {@code isn}); the client resets it or closes. */
    private static void connection(Segments g, long isn, boolean reset) {
        long c = isn, s = isn * 7;
        g.client(SYN, c, 0, 0);
        g.after(20 * MS).server(SYN | ACK, s, c + 1, 0);
        g.after(MS / 10).client(ACK, c + 1, s + 1, 0);
        Segments.payload(g.after(MS / 10).client(ACK | PSH, c + 1, s + 1, GET.length()), GET);
        Segments.payload(g.after(5 * MS).server(ACK | PSH, s + 1, c + 1 + GET.length(), OK.length()), OK);
        long cEnd = c + 1 + GET.length(), sEnd = s + 1 + OK.length();
        g.after(MS / 10).server(FIN | ACK, sEnd, cEnd, 0);
        if (reset) {
            g.after(20 * MS).client(RST | ACK, cEnd, sEnd + 1, 0);
        } else {
            g.after(20 * MS).client(FIN | ACK, cEnd, sEnd + 1, 0);
            g.after(20 * MS).server(ACK, sEnd + 1, cEnd + 1, 0);
        }
    }

    /** The churn events and the diagnosis of three connections on one 4-tuple, {@code gaps} after each end. */
    private static EndpointDiagnosis run(List<CauseEvent> churn, long... gaps) {
        Segments g = new Segments();
        connection(g, 1000, false);
        g.after(gaps[0]);
        connection(g, 200_000, true);
        g.after(gaps[1]);
        connection(g, 400_000, false);
        Diagnosis d = new Diagnosis();
        TcpEngine e = new TcpEngine(new AnalysisSink() {
            @Override
            public void onFrame(Segment s, FrameAnalysis a) {
                d.onFrame(s, a);
            }

            @Override
            public void onExchange(Exchange x) {
                d.onExchange(x);
            }

            @Override
            public void onCause(CauseEvent c) {
                d.onCause(c);
                if (c.cause() == Cause.CONNECTION_CHURN) {
                    churn.add(c);
                }
            }

            @Override
            public void onConnection(ConnectionRecord c) {
                d.onConnection(c);
            }

            @Override
            public boolean takesFinalRecordsOnly() {
                return d.takesFinalRecordsOnly();
            }
        });
        for (Segment s : g.list) {
            e.accept(s);
        }
        e.finish();
        return d.endpoints().get(0);
    }

    @Test
    void aSynWithinTimeWaitOfThePreviousConnectionIsACollisionAndOneLaterIsNot() {
        List<CauseEvent> churn = new ArrayList<>();
        // the second SYN 30 s after the first connection's close: in its TIME_WAIT; the third 65 s after the
        // second's: the engine still remembers that 4-tuple (it ended, it was not forgotten), but TIME_WAIT is over
        EndpointDiagnosis ep = run(churn, 30_000 * MS, 65_000 * MS);
        assertEquals(3, churn.size(), churn.toString());
        assertEquals(List.of(0, 1, 0), churn.stream().map(CauseEvent::count).toList());
        // the second connection ended by the client's RST
        assertEquals(1, ep.churnResets());
        String f = ep.churn();
        assertTrue(f.startsWith("Connection churn: 3 connections carried one request each"), f);
        assertTrue(f.contains("; 1 of them ended by RST, 1 SYNs reused a 4-tuple closed less than 60 s before "
                + "(TIME_WAIT collisions)."), f);
        assertTrue(ep.findings().contains(f), ep.findings().toString());
    }
}
