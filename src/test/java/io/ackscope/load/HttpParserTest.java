package io.ackscope.load;

import io.ackscope.load.HttpParser.Malformed;
import io.ackscope.load.HttpParser.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpParserTest {

    /** Content-Length body, as nginx sends a static file. */
    private static final String LENGTH = "HTTP/1.1 200 OK\r\n"
            + "Server: nginx\r\n"
            + "Content-Length: 5\r\n"
            + "\r\n"
            + "hello";

    /** Chunked body with a chunk extension and a trailer section (RFC 9112 §7.1). */
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\n"
            + "Transfer-Encoding: chunked\r\n"
            + "\r\n"
            + "4\r\nWiki\r\n"              // chunk of 4
            + "5;name=value\r\npedia\r\n"   // chunk of 5 with an extension
            + "E\r\n in\r\n\r\nchunks.\r\n" // chunk of 14 (upper-case hex) holding CRLFs
            + "0\r\n"                       // last chunk
            + "Expires: never\r\n"          // trailer field
            + "\r\n";

    /** A 100 Continue interim response, then the final one. */
    private static final String INTERIM = "HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n"
            + "\r\n";

    /** Status line without a reason phrase, bare-LF line ends, 304 without body. */
    private static final String BARE_LF = "HTTP/1.1 304\n"
            + "ETag: \"x\"\n"
            + "\n";

    static Stream<Arguments> wellFormed() {
        return Stream.of(
                Arguments.of("content-length", LENGTH, 200),
                Arguments.of("chunked", CHUNKED, 200),
                Arguments.of("interim then 204", INTERIM, 204),
                Arguments.of("bare LF and 304", BARE_LF, 304));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wellFormed")
    void completesInOneRead(String name, String response, int status) {
        HttpParser p = HttpParser.responses();
        ByteBuffer buf = bytes(response);
        assertEquals(Progress.COMPLETE, p.feed(buf));
        assertEquals(status, p.status());
        assertEquals(response.length(), p.messageBytes());
        assertFalse(buf.hasRemaining());
        assertTrue(p.keepAlive());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wellFormed")
    void completesWhenSplitAcrossTwoReadsAtEveryByteBoundary(String name, String response, int status) {
        byte[] all = response.getBytes(StandardCharsets.ISO_8859_1);
        for (int cut = 0; cut < all.length; cut++) {
            HttpParser p = HttpParser.responses();
            assertEquals(Progress.NEED_MORE, p.feed(ByteBuffer.wrap(all, 0, cut)), "cut at " + cut);
            ByteBuffer rest = ByteBuffer.wrap(all, cut, all.length - cut);
            assertEquals(Progress.COMPLETE, p.feed(rest), "cut at " + cut);
            assertEquals(status, p.status(), "cut at " + cut);
            assertEquals(all.length, p.messageBytes(), "cut at " + cut);
            assertFalse(rest.hasRemaining(), "cut at " + cut);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wellFormed")
    void completesWhenFedOneByteAtATime(String name, String response, int status) {
        byte[] all = response.getBytes(StandardCharsets.ISO_8859_1);
        HttpParser p = HttpParser.responses();
        for (int i = 0; i < all.length - 1; i++) {
            assertEquals(Progress.NEED_MORE, p.feed(ByteBuffer.wrap(all, i, 1)), "byte " + i);
        }
        assertEquals(Progress.COMPLETE, p.feed(ByteBuffer.wrap(all, all.length - 1, 1)));
        assertEquals(status, p.status());
    }

    @Test
    void stopsAfterOneResponseLeavingTheNextInTheBuffer() {
        HttpParser p = HttpParser.responses();
        ByteBuffer buf = bytes(LENGTH + CHUNKED);
        assertEquals(Progress.COMPLETE, p.feed(buf));
        assertEquals(LENGTH.length(), buf.position());
        p.reset();
        assertEquals(Progress.COMPLETE, p.feed(buf));
        assertEquals(CHUNKED.length(), p.messageBytes());
        assertFalse(buf.hasRemaining());
    }

    @Test
    void largeContentLengthBodyIsSkippedAcrossReads() {
        HttpParser p = HttpParser.responses();
        assertEquals(Progress.NEED_MORE, p.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")));
        ByteBuffer body = ByteBuffer.allocate(65536);
        for (int sent = 0; sent < 1_000_000 - 65536; sent += 65536) {
            body.clear();
            assertEquals(Progress.NEED_MORE, p.feed(body));
        }
        body.clear().limit(1_000_000 % 65536);
        assertEquals(Progress.COMPLETE, p.feed(body));
    }

    @Test
    void chunkedWinsOverContentLength() {
        HttpParser p = HttpParser.responses();
        String r = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\n\r\n";
        assertEquals(Progress.COMPLETE, p.feed(bytes(r)));
        assertEquals(r.length(), p.messageBytes());
    }

    @Test
    void bodyWithoutLengthRunsToTheCloseAndEndsTheConnection() {
        HttpParser p = HttpParser.responses();
        assertEquals(Progress.NEED_MORE, p.feed(bytes("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome")));
        assertEquals(Progress.NEED_MORE, p.feed(bytes(" more")));
        assertEquals(Progress.COMPLETE, p.onEof());
        assertFalse(p.keepAlive());
    }

    @Test
    void nonChunkedTransferCodingRunsToTheClose() {
        HttpParser p = HttpParser.responses();
        assertEquals(Progress.NEED_MORE, p.feed(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxx")));
        assertEquals(Progress.COMPLETE, p.onEof());
        assertFalse(p.keepAlive());
    }

    @Test
    void connectionHeaderAndVersionDecideKeepAlive() {
        assertFalse(parsed("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n").keepAlive());
        assertFalse(parsed("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").keepAlive());
        assertTrue(parsed("HTTP/1.0 200 OK\r\nConnection: foo, Keep-Alive\r\nContent-Length: 0\r\n\r\n")
                .keepAlive());
        assertTrue(parsed("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").keepAlive());
    }

    @Test
    void closeBetweenResponsesIsNotAStartedResponse() {
        HttpParser p = HttpParser.responses();
        assertFalse(p.started());
        assertEquals(Progress.MALFORMED, p.onEof());
        assertFalse(p.started());
    }

    @Test
    void closeInsideALengthDelimitedBodyIsTruncated() {
        HttpParser p = HttpParser.responses();
        assertEquals(Progress.NEED_MORE, p.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")));
        assertTrue(p.started());
        assertEquals(Progress.MALFORMED, p.onEof());
        assertEquals(Malformed.TRUNCATED, p.malformed());
    }

    @Test
    void nothingMoreIsConsumedAfterMalformedUntilReset() {
        HttpParser p = HttpParser.responses();
        assertEquals(Progress.MALFORMED, p.feed(bytes("XTTP/1.1 200 OK\r\n")));
        ByteBuffer next = bytes(LENGTH);
        assertEquals(Progress.MALFORMED, p.feed(next));
        assertEquals(0, next.position());
        p.reset();
        assertEquals(Progress.COMPLETE, p.feed(next));
    }

    static Stream<Arguments> malformedResponses() {
        return Stream.of(
                Arguments.of("bad protocol name", "HTTX/1.1 200 OK\r\n\r\n",
                        Malformed.STATUS_LINE),
                Arguments.of("version without dot", "HTTP/11 200 OK\r\n\r\n", Malformed.STATUS_LINE),
                Arguments.of("status with a letter", "HTTP/1.1 2x0 OK\r\n\r\n", Malformed.STATUS_LINE),
                Arguments.of("four-digit status", "HTTP/1.1 2000 OK\r\n\r\n", Malformed.STATUS_LINE),
                Arguments.of("CR inside the reason", "HTTP/1.1 200 O\rK\r\n\r\n", Malformed.STATUS_LINE),
                Arguments.of("header without colon", "HTTP/1.1 200 OK\r\nServer nginx\r\n\r\n",
                        Malformed.HEADER_LINE),
                Arguments.of("space before colon", "HTTP/1.1 200 OK\r\nServer : nginx\r\n\r\n",
                        Malformed.HEADER_LINE),
                Arguments.of("empty header name", "HTTP/1.1 200 OK\r\n: x\r\n\r\n", Malformed.HEADER_LINE),
                Arguments.of("obsolete folding", "HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\n\r\n",
                        Malformed.HEADER_LINE),
                Arguments.of("CR not followed by LF", "HTTP/1.1 200 OK\r\nX-A: a\rb\r\n\r\n",
                        Malformed.HEADER_LINE),
                Arguments.of("headers beyond the limit", "HTTP/1.1 200 OK\r\nX-A: "
                        + "a".repeat(HttpParser.MAX_HEADER_BYTES) + "\r\n\r\n", Malformed.HEADERS_TOO_LARGE),
                Arguments.of("content-length not decimal", "HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n",
                        Malformed.CONTENT_LENGTH),
                Arguments.of("content-length empty", "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n",
                        Malformed.CONTENT_LENGTH),
                Arguments.of("content-length of 19 digits", "HTTP/1.1 200 OK\r\nContent-Length: "
                        + "1".repeat(19) + "\r\n\r\n", Malformed.CONTENT_LENGTH),
                Arguments.of("two different content-lengths",
                        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
                        Malformed.CONTENT_LENGTH),
                Arguments.of("transfer-encoding too long", "HTTP/1.1 200 OK\r\nTransfer-Encoding: "
                        + "gzip, ".repeat(10) + "chunked\r\n\r\n", Malformed.TRANSFER_ENCODING),
                Arguments.of("chunk size not hex", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                        Malformed.CHUNK_SIZE),
                Arguments.of("chunk size missing", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
                        Malformed.CHUNK_SIZE),
                Arguments.of("chunk size of 16 hex digits", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "1" + "0".repeat(15) + "\r\n", Malformed.CHUNK_SIZE),
                Arguments.of("chunk extension beyond the limit",
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;"
                        + "x".repeat(HttpParser.MAX_CHUNK_LINE) + "\r\n", Malformed.CHUNK_SIZE),
                Arguments.of("chunk data longer than its size",
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
                        Malformed.CHUNK_END),
                Arguments.of("switching protocols", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n",
                        Malformed.UPGRADE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedResponses")
    void malformedResponseIsReportedWithItsReason(String name, String response, Malformed why) {
        HttpParser p = HttpParser.responses();
        assertEquals(Progress.MALFORMED, p.feed(bytes(response)));
        assertEquals(why, p.malformed());
    }

    @Test
    void leadingZerosDoNotCountAgainstTheChunkSizeLimit() {
        HttpParser p = HttpParser.responses();
        String r = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + "0".repeat(20) + "3\r\nabc\r\n0\r\n\r\n";
        assertEquals(Progress.COMPLETE, p.feed(bytes(r)));
    }

    @Test
    void randomBytesNeverThrow() {
        Random rnd = new Random(42);
        byte[] alphabet = "HTP/1.0 2\r\n:;chunkedContent-Length0123456789abcdefTransfer-Encoding ,x\t"
                .getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = new byte[rnd.nextInt(200)];
            for (int i = 0; i < b.length; i++) {
                b[i] = rnd.nextInt(4) == 0 ? (byte) rnd.nextInt(256) : alphabet[rnd.nextInt(alphabet.length)];
            }
            String prefix = rnd.nextBoolean() ? "HTTP/1.1 200 OK\r\n" : "";
            HttpParser p = rnd.nextBoolean() ? HttpParser.responses() : HttpParser.requests();
            ByteBuffer buf = ByteBuffer.wrap(concat(prefix.getBytes(StandardCharsets.US_ASCII), b));
            while (buf.hasRemaining()) {
                int n = Math.min(buf.remaining(), 1 + rnd.nextInt(16));
                Progress r = p.feed(buf.slice().limit(n));
                buf.position(buf.position() + n);
                if (r != Progress.NEED_MORE) {
                    assertTrue(r == Progress.COMPLETE || p.malformed() != null);
                    break;
                }
            }
            Progress atEof = p.onEof();
            // a close ends every message: complete (a close-delimited body, or one already complete), or malformed
            // with a reason; never still waiting
            assertTrue(atEof == Progress.COMPLETE || atEof == Progress.MALFORMED && p.malformed() != null,
                    "at EOF: " + atEof);
        }
    }

    @Test
    void requestWithoutBodyIsCompleteAtTheBlankLine() {
        HttpParser p = HttpParser.requests();
        String r = "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
        ByteBuffer buf = bytes(r + r);
        assertEquals(Progress.COMPLETE, p.feed(buf));
        assertEquals(r.length(), buf.position());
        assertFalse(p.isHead());
        assertTrue(p.keepAlive());
    }

    @Test
    void requestBodyIsSkippedByItsLength() {
        HttpParser p = HttpParser.requests();
        String r = "POST /x HTTP/1.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc";
        assertEquals(Progress.COMPLETE, p.feed(bytes(r)));
        assertEquals(r.length(), p.messageBytes());
        assertFalse(p.keepAlive());
    }

    @Test
    void headRequestIsRecognised() {
        HttpParser p = HttpParser.requests();
        assertEquals(Progress.COMPLETE, p.feed(bytes("HEAD / HTTP/1.1\r\n\r\n")));
        assertTrue(p.isHead());
        p.reset();
        assertEquals(Progress.COMPLETE, p.feed(bytes("HEADER / HTTP/1.1\r\n\r\n")));
        assertFalse(p.isHead());
    }

    @Test
    void malformedRequestsAreReported() {
        assertEquals(Malformed.REQUEST_LINE, malformedRequest("GET /\r\n\r\n"));
        assertEquals(Malformed.REQUEST_LINE, malformedRequest("GET  / HTTP/1.1\r\n\r\n"));
        assertEquals(Malformed.REQUEST_LINE, malformedRequest("GET / HTTP/1.1x\r\n\r\n"));
        assertEquals(Malformed.REQUEST_LINE, malformedRequest("G(T / HTTP/1.1\r\n\r\n"));
        assertEquals(Malformed.TRANSFER_ENCODING,
                malformedRequest("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"));
    }

    private static Malformed malformedRequest(String r) {
        HttpParser p = HttpParser.requests();
        assertEquals(Progress.MALFORMED, p.feed(bytes(r)), r);
        return p.malformed();
    }

    private static HttpParser parsed(String response) {
        HttpParser p = HttpParser.responses();
        assertEquals(Progress.COMPLETE, p.feed(bytes(response)));
        return p;
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
