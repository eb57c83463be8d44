package io.ackscope.tables;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BytesIdsTest {
    private static byte[] address(int i) {
        return ByteBuffer.allocate(4).putInt(0x0a000000 + i).array();
    }

    @Test
    void findsEachArrayByContentThroughGrowth() {
        BytesIds ids = new BytesIds();
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            assertEquals(-1, ids.get(address(i)));
            ids.put(address(i), 3 * i);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(3 * i, ids.get(address(i)), "copy of address " + i);
        }
        assertEquals(-1, ids.get(address(n)));
        assertEquals(-1, ids.get(new byte[0]));
        ids.put(new byte[0], 7);
        assertEquals(7, ids.get(new byte[0]));
        // same bytes, different lengths: different entries
        assertEquals(-1, ids.get(new byte[16]));
    }
}
