package io.ackscope.report;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A flow graph labels a frame with its HTTP start line when, and only when, the engine's rule says it starts one. */
class LadderLabelTest {

    private static String label(String payload, int room) {
        byte[] p = payload.getBytes(StandardCharsets.ISO_8859_1);
        byte[] out = new byte[room];
        int n = LadderCollector.httpStart(p, p.length, out);
        return new String(out, 0, n, StandardCharsets.ISO_8859_1);
    }

    @Test
    void labelsTheFirstLineOfARequestOrResponse() {
        assertEquals("GET /a HTTP/1.1", label("GET /a HTTP/1.1\r\nHost: h\r\n\r\n", 64));
        assertEquals("HTTP/1.1 200 OK", label("HTTP/1.1 200 OK\nServer: x\r\n", 64));
        assertEquals("HTTP/2 200", label("HTTP/2 200\r\n", 64));
        assertEquals("POST /upl", label("POST /upload HTTP/1.1\r\n", 9), "cut at the label's room");
    }

    @Test
    void noLabelWhenThePayloadStartsNoHttpMessage() {
        assertEquals("", label("ABCDEFGHIJKLMNOPQ / HTTP/1.1\r\n", 64), "a 17-letter method is none");
        assertEquals("", label("get / HTTP/1.1\r\n", 64));
        assertEquals("", label("HTTP", 64));
        assertEquals("", label("\u0016\u0003\u0001\u0002\u0000", 64));
    }
}
