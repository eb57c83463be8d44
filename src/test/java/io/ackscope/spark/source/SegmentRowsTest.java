package io.ackscope.spark.source;

import io.ackscope.spark.SparkTests;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.HttpStartLine;
import io.ackscope.tcp.Segment;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The segment rows analyze shuffles carry exactly the decoder's fields: every TCP frame of every corpus capture is
 * written, read back (from the row's bytes and from a plain byte array) and compared field by field.
 */
class SegmentRowsTest {

    private static void assertCarries(PacketDecoder d, byte[] data, long frame, long ts, long len, int keep,
                                      Segment s, String where) {
        assertEquals(7, s.fileIndex, where);
        assertEquals(frame, s.frameNumber, where);
        assertEquals(ts, s.timestampNanos, where);
        assertEquals(len, s.frameLength, where);
        assertEquals(d.srcHi(), s.srcHi, where);
        assertEquals(d.srcLo(), s.srcLo, where);
        assertEquals(d.dstHi(), s.dstHi, where);
        assertEquals(d.dstLo(), s.dstLo, where);
        assertEquals(d.srcPort(), s.srcPort, where);
        assertEquals(d.dstPort(), s.dstPort, where);
        assertEquals(d.seq(), s.seq, where);
        assertEquals(d.ack(), s.ack, where);
        assertEquals(d.tcpFlags(), s.flags, where);
        assertEquals(d.window(), s.window, where);
        assertEquals(d.payloadLength(), s.payloadLength, where);
        assertEquals(d.mss() >= 0 ? d.mss() : -1, s.mss, where);
        assertEquals(d.windowScale() >= 0 ? d.windowScale() : -1, s.windowScale, where);
        assertEquals(d.sackPermitted(), s.sackPermitted, where);
        assertEquals(d.hasTimestamps(), s.hasTimestamps, where);
        if (d.hasTimestamps()) {
            assertEquals(d.tsVal(), s.tsVal, where);
            assertEquals(d.tsEcr(), s.tsEcr, where);
        }
        int sacks = Math.min(4, d.sackBlockCount());
        assertEquals(sacks, s.sackBlockCount, where);
        for (int b = 0; b < sacks; b++) {
            assertEquals(d.sackLeft(b), s.sackLeft[b], where);
            assertEquals(d.sackRight(b), s.sackRight[b], where);
        }
        assertEquals(keep, s.payloadPrefixLength, where);
        assertArrayEquals(Arrays.copyOfRange(data, d.payloadOffset(), d.payloadOffset() + keep),
                Arrays.copyOf(s.payloadPrefix, keep), where);
    }

    @Test
    void everyCorpusTcpFrameRoundTrips() throws IOException {
        SegmentRows.Writer all = new SegmentRows.Writer(7, Segment.MAX_PAYLOAD_PREFIX, false);
        SegmentRows.Writer http = new SegmentRows.Writer(7, Segment.MAX_PAYLOAD_PREFIX, true);
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        long frames = 0, withSack = 0, withTimestamps = 0, trimmed = 0, highPorts = 0, highSeq = 0;
        for (Path f : SparkTests.corpusCaptures()) {
            try (CaptureReader r = CaptureReader.open(f)) {
                while (r.next()) {
                    d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                    if (!d.hasTcp()) {
                        continue;
                    }
                    String where = f.getFileName() + " frame " + r.frameNumber();
                    long ts = r.timestampNanos();
                    int keepAll = Math.max(0, Math.min(Segment.MAX_PAYLOAD_PREFIX, d.capturedPayloadLength()));
                    UnsafeRow row = all.write(d, r.data(), r.frameNumber(), ts, r.originalLength());
                    SegmentRows.fill(s, row);
                    assertCarries(d, r.data(), r.frameNumber(), ts, r.originalLength(), keepAll, s, where);
                    // the same bytes outside an UnsafeRow
                    byte[] bytes = row.getBinary(3);
                    SegmentRows.fill(s.clear(), new GenericInternalRow(new Object[]{7, r.frameNumber(),
                            row.getLong(2), bytes}));
                    assertCarries(d, r.data(), r.frameNumber(), ts, r.originalLength(), keepAll, s, where);
                    assertEquals(SegmentRows.FIXED_BYTES + 8 * s.sackBlockCount + keepAll, bytes.length, where);

                    int keepHttp = keepAll == 0 ? 0 : HttpStartLine.bytesNeeded(r.data(), d.payloadOffset(), keepAll);
                    SegmentRows.fill(s, http.write(d, r.data(), r.frameNumber(), ts, r.originalLength()));
                    assertCarries(d, r.data(), r.frameNumber(), ts, r.originalLength(), keepHttp, s, where);
                    // both directions of a 4-tuple get one shuffle key
                    assertEquals(SegmentRows.connectionKey(d.srcHi(), d.srcLo(), d.srcPort(), d.dstHi(), d.dstLo(),
                            d.dstPort()), SegmentRows.connectionKey(d.dstHi(), d.dstLo(), d.dstPort(), d.srcHi(),
                            d.srcLo(), d.srcPort()), where);
                    assertEquals(SegmentRows.connectionKey(d.srcHi(), d.srcLo(), d.srcPort(), d.dstHi(), d.dstLo(),
                            d.dstPort()), row.getLong(2), where);
                    frames++;
                    withSack += s.sackBlockCount > 0 ? 1 : 0;
                    withTimestamps += s.hasTimestamps ? 1 : 0;
                    trimmed += keepHttp < keepAll ? 1 : 0;
                    // unsigned 16- and 32-bit fields are packed as shorts and ints: their high bit must come back
                    highPorts += Math.max(s.srcPort, s.dstPort) >= 32768 ? 1 : 0;
                    highSeq += s.seq >= (1L << 31) ? 1 : 0;
                }
            } catch (CaptureException e) {
                // damaged corpus files: the frames before the damage were checked
            }
        }
        assertTrue(frames > 10_000, "TCP frames checked: " + frames);
        assertTrue(withSack > 50 && withTimestamps > 1000 && trimmed > 100 && highPorts > 1000 && highSeq > 1000,
                "SACK " + withSack + ", timestamps " + withTimestamps + ", trimmed payloads " + trimmed
                        + ", ports >= 32768 " + highPorts + ", seq >= 2^31 " + highSeq);
    }
}
