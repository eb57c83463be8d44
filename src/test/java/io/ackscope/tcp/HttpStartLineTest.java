package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one HTTP start rule: tshark's ("HTTP/" for a response, a method and a space for a request), bounded. */
class HttpStartLineTest {

    /** The payload behind two bytes of something else, so the offset is exercised. */
    private static byte[] at2(String payload) {
        return ("xx" + payload).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static boolean starts(String payload) {
        byte[] raw = at2(payload);
        return HttpStartLine.isStart(raw, 2, raw.length - 2);
    }

    private static int needed(String payload) {
        byte[] raw = at2(payload);
        return HttpStartLine.bytesNeeded(raw, 2, raw.length - 2);
    }

    @Test
    void anyHttpVersionStartsAResponseAsTsharkHasIt() {
        assertTrue(starts("HTTP/1.1 200 OK\r\n"));
        assertTrue(starts("HTTP/1.0"));
        // tshark's is_http_request_or_reply accepts "HTTP/" whatever follows; so do analyze and the report now
        assertTrue(starts("HTTP/2.0 200"));
        assertTrue(starts("HTTP/"));
        assertFalse(starts("HTTP"));
        assertFalse(starts("http/1.1 200 OK"));
        assertFalse(starts("RTSP/1.0 200 OK"));
    }

    @Test
    void aRequestIsOneToSixteenUpperCaseLettersAndASpace() {
        byte[] raw = at2("PROPFIND /dav HTTP/1.1\r\n");
        assertEquals(8, HttpStartLine.methodLength(raw, 2, raw.length - 2));
        assertTrue(starts("GET / HTTP/1.1\r\n"));
        assertTrue(starts("A "));
        assertTrue(starts("ABCDEFGHIJKLMNOP /"), "16 letters");
        assertFalse(starts("ABCDEFGHIJKLMNOPQ /"), "17 letters");
        assertFalse(starts("GET"), "no space captured");
        assertFalse(starts(" GET /"));
        assertFalse(starts("get / HTTP/1.1"));
        assertFalse(starts("\u0016\u0003\u0001 TLS"));
        assertFalse(starts(""));
        // a method named HTTP is a request, not a status line
        byte[] named = at2("HTTP / HTTP/1.1\r\n\r\n");
        assertEquals(4, HttpStartLine.methodLength(named, 2, named.length - 2));
    }

    @Test
    void keepsWholeRequestsAndOnlyTheStatusCodeOfResponses() {
        String request = "GET /index.html HTTP/1.1\r\nUser-Agent: x\r\nHost: example.test\r\n\r\n";
        assertEquals(request.length(), needed(request));
        assertEquals(13, needed("HTTP/1.1 200 OK\r\nContent-Length: 1024\r\n\r\n" + "a".repeat(1024)));
        assertEquals(12, needed("HTTP/1.1 204"));
        assertEquals(8, needed("HTTP/1.0"));
        assertEquals(19, needed("HTTP / HTTP/1.1\r\n\r\n"));
        assertEquals(12, needed("HTTP/2.0 200"));
        assertEquals(0, needed("\u0016\u0003\u0001 TLS"));
        assertEquals(0, needed(""));
        assertEquals(0, needed("lowercase / HTTP/1.1"));
    }

    @Test
    void everyPayloadTheEngineParsesIsKeptWhole() {
        // what HttpPeek reads of a message must survive analyze's shuffle filter: the rule is shared, so a request the
        // engine parses is kept whole and a status line keeps the bytes the engine's status() reads
        Random r = new Random(17);
        byte[] buf = new byte[Segment.MAX_PAYLOAD_PREFIX];
        String[] starts = {"GET / HTTP/1.1\r\nHost: h\r\n\r\n", "HTTP/1.1 503 Busy\r\n", "HTTP/1.0 200", "X"};
        for (int i = 0; i < 20_000; i++) {
            r.nextBytes(buf);
            byte[] s = starts[i % starts.length].getBytes(StandardCharsets.ISO_8859_1);
            System.arraycopy(s, 0, buf, 0, s.length);
            int len = r.nextInt(buf.length + 1);
            int kept = HttpStartLine.bytesNeeded(buf, 0, len);
            assertTrue(kept >= 0 && kept <= len);
            if (HttpPeek.request(buf, len) != null) {
                assertEquals(len, kept);
            }
            int status = HttpPeek.status(buf, len);
            if (status >= 0) {
                assertEquals(status, HttpPeek.status(buf, kept));
            }
        }
    }
}
