package io.ackscope.spark;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What analyze shuffles of a payload: all of a request's prefix, 13 bytes of a status line, nothing else. */
class HttpStartTest {

    private static int keep(String payload) {
        byte[] raw = ("xx" + payload).getBytes(StandardCharsets.ISO_8859_1);
        return HttpStart.keep(raw, 2, raw.length - 2);
    }

    @Test
    void keepsWholeRequestsAndOnlyTheStatusCodeOfResponses() {
        String request = "GET /index.html HTTP/1.1\r\nUser-Agent: x\r\nHost: example.test\r\n\r\n";
        assertEquals(request.length(), keep(request));
        assertEquals(13, keep("HTTP/1.1 200 OK\r\nContent-Length: 1024\r\n\r\n" + "a".repeat(1024)));
        assertEquals(12, keep("HTTP/1.1 204"));
        assertEquals(8, keep("HTTP/1.0"));
        // a method named HTTP is a request, not a status line
        assertEquals(19, keep("HTTP / HTTP/1.1\r\n\r\n"));
        assertEquals(0, keep("HTTP/2.0 200"));
        assertEquals(0, keep("\u0016\u0003\u0001 TLS"));
        assertEquals(0, keep(""));
        assertEquals(0, keep("lowercase / HTTP/1.1"));
    }
}
