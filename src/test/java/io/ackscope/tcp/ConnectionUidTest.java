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

    @Test
    void equalsTheBigIntegerDerivationOverManyKeys() throws Exception {
        java.math.BigInteger base = java.math.BigInteger.valueOf(62);
        char[] digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 20_000; i++) {
            String source = "src" + random.nextInt(5);
            String client = "10.0." + random.nextInt(256) + "." + random.nextInt(256);
            int port = random.nextInt(65536);
            long micros = random.nextLong() >>> 1;
            String key = source + '\0' + client + '\0' + port + '\0' + "192.0.2.1" + '\0' + 443 + '\0' + micros;
            byte[] h = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            java.math.BigInteger n = new java.math.BigInteger(1, java.util.Arrays.copyOf(h, 16)).mod(base.pow(17));
            char[] want = new char[18];
            want[0] = 'C';
            for (int d = 17; d >= 1; d--) {
                java.math.BigInteger[] qr = n.divideAndRemainder(base);
                want[d] = digits[qr[1].intValue()];
                n = qr[0];
            }
            assertEquals(new String(want), ConnectionUid.of(source, client, port, "192.0.2.1", 443, micros), key);
        }
    }
}
