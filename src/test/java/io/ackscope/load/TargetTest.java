package io.ackscope.load;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The request bytes a load run sends: wrk's default GET, with {@code -H} headers as wrk adds them. */
class TargetTest {

    private static String request(Target t) {
        ByteBuffer b = t.newRequestBuffer();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void defaultRequestIsAGetWithTheUrlsHost() throws Exception {
        assertEquals("GET /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
                request(Target.parse("http://127.0.0.1:8080/a?b=1")));
        assertEquals("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", request(Target.parse("http://localhost")));
    }

    @Test
    void headersAreAddedInOrderAndHostReplacesTheUrlsHost() throws Exception {
        Target t = Target.parse("http://127.0.0.1:8080/", List.of("Accept: text/html",
                "host:  example.test ", "X-Trace:abc", "Empty:"));
        assertEquals("GET / HTTP/1.1\r\nHost: example.test\r\nAccept: text/html\r\nX-Trace: abc\r\nEmpty: \r\n\r\n",
                request(t));
    }

    @Test
    void headersThatAreNotNameColonValueOrSmuggleLinesAreRefused() {
        for (String bad : List.of("no colon", ": value", "Bad Name: x", "X: a\r\nGET /evil HTTP/1.1",
                "X: a\nY: b", "X: \u0000", "Ĉ: x", "X: a\u2028b")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Target.parse("http://127.0.0.1/", List.of(bad)), bad);
            assertEquals("not a header line (Name: value): " + bad, e.getMessage());
        }
    }
}
