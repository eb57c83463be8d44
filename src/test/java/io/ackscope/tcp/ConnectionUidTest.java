package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionUidTest {

    @Test
    void isZeekShapedAndAFunctionOfItsKeyOnly() {
        String a = ConnectionUid.of("hostA", "10.0.0.1", 40000, "10.0.0.2", 80, 1_700_000_000_123_456L);
        assertTrue(a.matches("C[0-9A-Za-z]{17}"), a);
        assertEquals(a, ConnectionUid.of("hostA", "10.0.0.1", 40000, "10.0.0.2", 80, 1_700_000_000_123_456L));
        // computed independently (Python: sha256 of the NUL-joined key, first 16 bytes mod 62^17, base 62); a
        // change of the derivation changes every published uid, so it must be deliberate
        assertEquals("CAxKlh4ROs3aTBc1JQ", a);
    }

    @Test
    void everyPartOfTheKeyCounts() {
        String a = ConnectionUid.of("hostA", "10.0.0.1", 40000, "10.0.0.2", 80, 1L);
        assertNotEquals(a, ConnectionUid.of("hostB", "10.0.0.1", 40000, "10.0.0.2", 80, 1L));
        assertNotEquals(a, ConnectionUid.of("hostA", "10.0.0.3", 40000, "10.0.0.2", 80, 1L));
        assertNotEquals(a, ConnectionUid.of("hostA", "10.0.0.1", 40001, "10.0.0.2", 80, 1L));
        assertNotEquals(a, ConnectionUid.of("hostA", "10.0.0.1", 40000, "10.0.0.2", 81, 1L));
        assertNotEquals(a, ConnectionUid.of("hostA", "10.0.0.1", 40000, "10.0.0.2", 80, 2L));
    }

    @Test
    void aHundredThousandConnectionsGetDistinctUids() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            seen.add(ConnectionUid.of("s", "10.0." + (i >> 8 & 255) + "." + (i & 255), 1024 + i % 60000,
                    "10.1.0.1", 443, 1_700_000_000_000_000L + i));
        }
        assertEquals(100_000, seen.size());
    }
}
