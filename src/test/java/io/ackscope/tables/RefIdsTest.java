package io.ackscope.tables;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RefIdsTest {
    private static byte[] address(int i) {
        return ByteBuffer.allocate(4).putInt(0x0a000000 + i).array();
    }

    @Test
    void findsEachStringByEqualityThroughGrowth() {
        RefIds ids = new RefIds();
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            assertEquals(-1, ids.get("C" + i));
            ids.put("C" + i, 3 * i);
        }
        assertEquals(n, ids.size());
        for (int i = 0; i < n; i++) {
            // a new String instance each time: found by content, not identity
            assertEquals(3 * i, ids.get(new String("C" + i)), "uid " + i);
        }
        assertEquals(-1, ids.get("C" + n));
        assertEquals(-1, ids.get(""));
        ids.put("", 7);
        assertEquals(7, ids.get(""));
        // "Aa" and "BB" share a hash code: different entries
        ids.put("Aa", 8);
        assertEquals(-1, ids.get("BB"));
        ids.put("BB", 9);
        assertEquals(8, ids.get("Aa"));
        assertEquals(9, ids.get("BB"));
    }

    @Test
    void findsEachArrayByContentThroughGrowth() {
        RefIds ids = new RefIds();
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

    @Test
    void aStringAndAByteArrayAreDifferentKeys() {
        RefIds ids = new RefIds();
        ids.put("GET", 1);
        assertEquals(-1, ids.get("GET".getBytes(StandardCharsets.UTF_8)));
        ids.put("GET".getBytes(StandardCharsets.UTF_8), 2);
        assertEquals(1, ids.get("GET"));
        assertEquals(2, ids.get(new byte[] {'G', 'E', 'T'}));
        assertEquals(2, ids.size());
    }

    @Test
    void utf8LengthIsTheEncodersLength() {
        String[] cases = {"", "GET", "10.77.0.2", "café", "€ 5", "\u07ff\u0800\uffff", "😀 emoji", "a\ud83dz",
            "\ude00 low first", "high last \ud83d", "\ud83d\ud83d\ude00", "x".repeat(1000) + "ü"};
        for (String s : cases) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, LeafChunk.utf8Length(s), s);
        }
    }
}
