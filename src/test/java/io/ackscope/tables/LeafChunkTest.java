package io.ackscope.tables;

import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class LeafChunkTest {

    /** What parquet-mr's encoder writes for {@code n} copies of {@code value}. */
    private static byte[] encoded(int value, int n, int bitWidth) throws IOException {
        try (RunLengthBitPackingHybridEncoder e = LeafChunk.encoder(bitWidth)) {
            for (int i = 0; i < n; i++) {
                e.writeInt(value);
            }
            return e.toBytes().toByteArray();
        }
    }

    @Test
    void aRunOfEqualValuesIsWhatTheEncoderWrites() throws IOException {
        int[] counts = {LeafChunk.MIN_RUN, 9, 63, 64, 65, 127, 128, 20_000, 1 << 20, 1 << 24};
        for (int bitWidth = 0; bitWidth <= 32; bitWidth++) {
            long max = bitWidth == 0 ? 0 : (1L << bitWidth) - 1;
            for (long value : new long[] {0, 1, max / 2, max}) {
                if (value > max) {
                    continue;
                }
                for (int n : counts) {
                    if (n > 100_000 && bitWidth % 8 != 1) {
                        continue; // the long runs once per byte width: the encoder's loop is slow
                    }
                    assertArrayEquals(encoded((int) value, n, bitWidth), LeafChunk.run((int) value, n, bitWidth),
                            "width " + bitWidth + ", value " + value + ", " + n + " values");
                }
            }
        }
    }

    @Test
    void aRunsHeaderCountsTheValues() {
        // 20,000 definition levels of 1 at width 1: varint(40,000) = c0 b8 02, then the value in one byte
        assertArrayEquals(new byte[] {(byte) 0xc0, (byte) 0xb8, 0x02, 0x01}, LeafChunk.run(1, 20_000, 1));
        // width 0 (a dictionary of one entry): the header alone
        assertEquals(1, LeafChunk.run(0, 8, 0).length);
        // width 17: three little-endian bytes
        assertArrayEquals(new byte[] {0x10, 0x01, 0x00, 0x01}, LeafChunk.run(0x10001, 8, 17));
    }
}
