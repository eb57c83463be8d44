package io.ackscope.tables;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StringIdsTest {
    @Test
    void findsEachStringByEqualityThroughGrowth() {
        StringIds ids = new StringIds();
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
    void utf8LengthIsTheEncodersLength() {
        String[] cases = {"", "GET", "10.77.0.2", "café", "€ 5", "\u07ff\u0800\uffff", "😀 emoji", "a\ud83dz",
            "\ude00 low first", "high last \ud83d", "\ud83d\ud83d\ude00", "x".repeat(1000) + "ü"};
        for (String s : cases) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, LeafChunk.utf8Length(s), s);
        }
    }
}
