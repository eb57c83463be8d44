package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpPeekTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static HttpPeek request(String s) {
        byte[] req = b(s);
        return HttpPeek.request(req, req.length);
    }

    @Test
    void readsMethodTargetAndHostCaseInsensitively() {
        byte[] req = b("POST /x?y=1 HTTP/1.1\r\nUser-Agent: t\r\nhOsT:  api.example:8080 \r\n\r\n");
        HttpPeek p = HttpPeek.request(req, req.length);
        assertNotNull(p);
        assertTrue(HttpPeek.isRequest(req, req.length));
        assertEquals("POST", p.method);
        assertEquals("/x?y=1", p.target);
        assertEquals("api.example:8080", p.host);
    }

    @Test
    void controlCharactersAndMarkupStayTextAndAreReplaced() {
        byte[] req = b("GET /<script>alert(1)</script>\u0001 HTTP/1.1\r\nHost: \"<b>\u0007\r\n\r\n");
        HttpPeek p = HttpPeek.request(req, req.length);
        assertNotNull(p);
        assertEquals("/<script>alert(1)</script>?", p.target, "escaping is the report's job; control bytes go");
        assertEquals("\"<b>?", p.host);
    }

    @Test
    void longTargetIsCutAtItsBound() {
        String target = "/" + "a".repeat(5000);
        byte[] req = b("GET " + target + " HTTP/1.0\r\n\r\n");
        HttpPeek p = HttpPeek.request(req, req.length);
        assertNotNull(p);
        assertEquals(HttpPeek.MAX_TARGET + 3, p.target.length());
        assertTrue(p.target.endsWith("..."));
    }

    @Test
    void equalTextsShareOneStringAndEveryTextIsItsOwn() {
        HttpPeek first = request("GET /a HTTP/1.1\r\nHost: h\r\n\r\n");
        HttpPeek again = request("GET /a HTTP/1.1\r\nHost: h\r\n\r\n");
        assertNotNull(first);
        assertNotNull(again);
        assertSame(first.target, again.target, "the same bytes give the same String");
        assertSame(first.host, again.host);
        // many distinct targets through the texts kept (more than their slots): each read as its own bytes,
        // also when it comes back after others took its slot
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 5000; i++) {
                HttpPeek p = request("GET /t" + i + " HTTP/1.1\r\nHost: x" + (i % 7) + "\r\n\r\n");
                assertNotNull(p);
                assertEquals("/t" + i, p.target);
                assertEquals("x" + (i % 7), p.host);
            }
        }
        // a byte replaced by '?' in the text is still told from a real '?'
        HttpPeek control = request("GET /\u0001 HTTP/1.1\r\n\r\n");
        HttpPeek question = request("GET /? HTTP/1.1\r\n\r\n");
        assertNotNull(control);
        assertNotNull(question);
        assertEquals("/?", control.target);
        assertEquals("/?", question.target);
    }

    @Test
    void nonHttpIsNotParsed() {
        for (String s : new String[]{"", "GET", "get / HTTP/1.1\r\n", "GET  HTTP/1.1\r\n", "GET / SSH-2.0\r\n",
                "\u0016\u0003\u0001\u0002\u0000", "TOOLONGMETHODNAMEXX / HTTP/1.1\r\n"}) {
            byte[] x = b(s);
            assertNull(HttpPeek.request(x, x.length), s);
            assertFalse(HttpPeek.isRequest(x, x.length), s);
        }
        assertEquals(-1, HttpPeek.status(b("HTTP/1.1 2x0 OK"), 15));
        assertEquals(404, HttpPeek.status(b("HTTP/1.0 404 Not Found\r\n"), 24));
    }

    @Test
    void randomBytesNeverThrow() {
        Random r = new Random(42);
        byte[] buf = new byte[Segment.MAX_PAYLOAD_PREFIX];
        for (int i = 0; i < 20_000; i++) {
            r.nextBytes(buf);
            if (i % 3 == 0) {
                System.arraycopy(b("GET / HTTP/1.1\r\nHost:"), 0, buf, 0, 21);
            }
            int len = r.nextInt(buf.length + 1);
            HttpPeek p = HttpPeek.request(buf, len);
            assertEquals(p != null, HttpPeek.isRequest(buf, len), "isRequest agrees with request at len " + len);
            if (p != null && p.host != null) {
                assertTrue(p.host.length() <= HttpPeek.MAX_HOST + 3);
            }
            HttpPeek.status(buf, len);
        }
    }
}
