package io.ackscope.fields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HttpDirectionTest {

    /** Records what the direction reports, per fed segment. */
    private static final class Recorder implements HttpDirection.Sink {
        final List<HttpHead> messages = new ArrayList<>();
        int continuations;
        boolean head;

        @Override
        public void complete(HttpHead h) {
            messages.add(h);
        }

        @Override
        public void continuation() {
            continuations++;
        }

        @Override
        public boolean answersHead() {
            return head;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: t\r\n\r\n";

    @Test
    void chunkedResponseCompletesOnItsLastByteWhereverTheSegmentsSplitIt() {
        byte[] b = bytes(CHUNKED);
        for (int cut = 1; cut < b.length; cut++) {
            HttpDirection d = new HttpDirection();
            Recorder r = new Recorder();
            d.feed(b, 0, cut, r);
            assertTrue(r.messages.isEmpty(), "complete after " + cut + " of " + b.length + " bytes");
            d.feed(b, cut, b.length, r);
            assertEquals(1, r.messages.size(), "cut at " + cut);
            assertEquals(200, r.messages.get(0).code);
            assertFalse(d.pending());
        }
    }

    @Test
    void contentLengthBodyAndPipelinedRequestsEachComplete() {
        String two = "POST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\nHost: h\r\n\r\n";
        HttpDirection d = new HttpDirection();
        Recorder r = new Recorder();
        byte[] b = bytes(two);
        d.feed(b, 0, b.length, r);
        assertEquals(2, r.messages.size());
        assertEquals("/a", new String(r.messages.get(0).uri, StandardCharsets.ISO_8859_1));
        assertEquals("/b", new String(r.messages.get(1).uri, StandardCharsets.ISO_8859_1));
        assertEquals("h", new String(r.messages.get(1).host, StandardCharsets.ISO_8859_1));
    }

    @Test
    void responsesWithoutABodyCompleteWithTheirHead() {
        for (String code : new String[] {"100", "204", "304"}) {
            HttpDirection d = new HttpDirection();
            Recorder r = new Recorder();
            byte[] b = bytes("HTTP/1.1 " + code + " X\r\nContent-Length: 10\r\n\r\n");
            d.feed(b, 0, b.length, r);
            assertEquals(1, r.messages.size(), code);
        }
        HttpDirection d = new HttpDirection();
        Recorder r = new Recorder();
        r.head = true; // the answer to a HEAD request announces a length it does not send
        byte[] b = bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n");
        d.feed(b, 0, b.length, r);
        assertEquals(1, r.messages.size());
    }

    @Test
    void aResponseWithoutLengthEndsAtFinAndAGapLeavesABodyIncomplete() {
        HttpDirection d = new HttpDirection();
        Recorder r = new Recorder();
        byte[] b = bytes("HTTP/1.0 200 OK\r\n\r\nbody");
        d.feed(b, 0, b.length, r);
        assertTrue(r.messages.isEmpty());
        d.fin(r);
        assertEquals(1, r.messages.size());

        d = new HttpDirection();
        r = new Recorder();
        b = bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123");
        d.feed(b, 0, b.length, r);
        d.gap(2);
        d.feed(bytes("6789"), 0, 4, r);
        assertTrue(r.messages.isEmpty(), "tshark never completes a message with a hole");
        assertFalse(d.pending());
    }

    @Test
    void bytesThatStartNoMessageAreAContinuationOnceTheirFirstLineEnds() {
        HttpDirection d = new HttpDirection();
        Recorder r = new Recorder();
        d.feed(bytes("xxxx"), 0, 4, r);
        assertEquals(0, r.continuations, "no line end yet: tshark waits for one more segment");
        d.feed(bytes("yy\nzz"), 0, 5, r);
        assertEquals(1, r.continuations);
        assertFalse(d.pending());
    }

    @Test
    void startLinesAreReadAsTsharkReadsThem() {
        assertEquals(HttpHead.Kind.REQUEST, HttpHead.startKind(bytes("OPTIONS\n"), 0, 8));
        assertEquals(HttpHead.Kind.REQUEST, HttpHead.startKind(bytes("CCM_POST / HTTP/1.1"), 0, 19));
        assertEquals(HttpHead.Kind.NONE, HttpHead.startKind(bytes("GET/ HTTP/1.1"), 0, 13));
        assertEquals(HttpHead.Kind.NONE, HttpHead.startKind(bytes("get / HTTP/1.1"), 0, 14));
        assertEquals(HttpHead.Kind.NOTIFICATION, HttpHead.startKind(bytes("NOTIFY * HTTP/1.1"), 0, 17));
        assertEquals(HttpHead.Kind.RESPONSE, HttpHead.startKind(bytes("HTTP/2 200"), 0, 10));
        assertEquals(HttpHead.Kind.NONE, HttpHead.startKind(bytes("HTTP"), 0, 4));
        // tshark's heuristic wants a whole first line, not 8 bytes long, starting or ending with HTTP/1.
        assertTrue(HttpHead.heuristicStart(bytes("GET / HTTP/1.1\r\n"), 0, 16));
        assertTrue(HttpHead.heuristicStart(bytes("http/1.0 200 OK\n"), 0, 16));
        assertFalse(HttpHead.heuristicStart(bytes("GET /mis"), 0, 8));
        assertFalse(HttpHead.heuristicStart(bytes("GET / HTTP/2\r\n"), 0, 14));
        assertFalse(HttpHead.heuristicStart(bytes("HTTP/1.1\r\n"), 0, 10));
        HttpHead h = HttpHead.parse(bytes("OPTIONS HTTP/1.1\nHost:  a \n\n"), 28);
        assertEquals("HTTP/1.1", new String(h.uri, StandardCharsets.ISO_8859_1));
        assertEquals("a ", new String(h.host, StandardCharsets.ISO_8859_1));
        HttpHead bad = HttpHead.parse(bytes("HTTP/1.1 2x0 OK\r\n\r\n"), 19);
        assertEquals(-1, bad.code);
        assertNull(bad.uri);
    }

    @Test
    void randomBytesInRandomSegmentsNeverThrowAndKeepTheirBounds() {
        long seed = Long.getLong("ackscope.fuzz.seed", System.nanoTime());
        SplittableRandom rnd = new SplittableRandom(seed);
        String[] starts = {"GET / HTTP/1.1\r\nHost: x\r\n\r\n", CHUNKED, "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n",
            "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", "HTTP/1.0 200 OK\r\n\r\n"};
        for (int round = 0; round < 2000; round++) {
            StringBuilder sb = new StringBuilder();
            for (int k = rnd.nextInt(1, 5); k > 0; k--) {
                sb.append(starts[rnd.nextInt(starts.length)]);
            }
            byte[] b = bytes(sb.toString());
            for (int m = rnd.nextInt(8); m > 0; m--) {
                b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
            }
            HttpDirection d = new HttpDirection();
            Recorder r = new Recorder();
            r.head = rnd.nextBoolean();
            int p = 0;
            while (p < b.length) {
                int n = Math.min(b.length - p, rnd.nextInt(1, 64));
                if (rnd.nextInt(20) == 0) {
                    d.gap(n);
                } else {
                    d.feed(b, p, p + n, r);
                }
                p += n;
            }
            d.fin(r);
            for (HttpHead h : r.messages) {
                assertTrue(h.uri == null || h.uri.length <= HttpHead.MAX_URI, "seed " + seed);
                assertTrue(h.host == null || h.host.length <= HttpHead.MAX_HOST, "seed " + seed);
            }
        }
    }
}
