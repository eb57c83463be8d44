package io.ackscope.capture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Positions are longs: a classic pcap beyond 2 GiB streams through with exact offsets. */
class LargeCaptureTest {
    private static final int DATA = 64 * 1024;
    private static final int RECORD = 16 + DATA;
    private static final int RECORDS = 33_000;   // 24 + 33000 * 65552 = 2,163,216,024 bytes > 2^31

    /** Generates the capture on the fly: a file header, then RECORDS records of DATA bytes, second i at i. */
    private static final class GeneratedPcap extends InputStream {
        private final byte[] header = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, DATA, 1).build();
        private final byte[] record = new byte[RECORD];
        private final long length = header.length + (long) RECORDS * RECORD;
        private long pos;

        GeneratedPcap() {
            byte[] h = Bytes.le().u32(0).u32(0).u32(DATA).u32(DATA).build();
            System.arraycopy(h, 0, record, 0, 16);
            System.arraycopy(Bytes.payload(DATA, 0), 0, record, 16, DATA);
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException("the reader reads in blocks");
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= length) {
                return -1;
            }
            int n;
            if (pos < header.length) {
                n = Math.min(len, header.length - (int) pos);
                System.arraycopy(header, (int) pos, b, off, n);
            } else {
                long rel = pos - header.length;
                int index = (int) (rel / RECORD);
                int at = (int) (rel % RECORD);
                // ts_sec = index, ts_usec = 7 (little-endian, bytes 0-7 of the record header)
                record[0] = (byte) index;
                record[1] = (byte) (index >>> 8);
                record[2] = (byte) (index >>> 16);
                record[3] = (byte) (index >>> 24);
                record[4] = 7;
                n = Math.min(len, RECORD - at);
                System.arraycopy(record, at, b, off, n);
            }
            pos += n;
            return n;
        }
    }

    @Test
    void streamsAClassicPcapLargerThan2GiBCountingEveryRecord() throws IOException, CaptureException {
        GeneratedPcap gen = new GeneratedPcap();
        assertTrue(gen.length > (1L << 31));
        long count = 0;
        long lastOffset = -1;
        long lastTs = -1;
        long dataChecks = 0;
        try (CaptureReader r = Captures.open(gen, "generated")) {
            while (r.next()) {
                count++;
                assertEquals(count, r.frameNumber());
                assertEquals(DATA, r.capturedLength());
                // spot-check the data: byte k of the payload is (byte) k
                if ((count & 1023) == 0) {
                    byte[] d = r.data();
                    int o = r.dataOffset();
                    assertEquals((byte) 0, d[o]);
                    assertEquals((byte) 255, d[o + 255]);
                    assertEquals((byte) (DATA - 1), d[o + DATA - 1]);
                    dataChecks++;
                }
                lastOffset = r.recordOffset();
                lastTs = r.timestampNanos();
            }
            assertNull(r.tailProblem());
            assertEquals(gen.length, r.position());
        }
        assertEquals(RECORDS, count);
        assertEquals(24 + (long) (RECORDS - 1) * RECORD, lastOffset);
        assertTrue(lastOffset > (1L << 31), "last record starts beyond 2^31: " + lastOffset);
        assertEquals((RECORDS - 1) * 1_000_000_000L + 7_000, lastTs);
        assertEquals(RECORDS / 1024, dataChecks);
    }
}
