package io.ackscope.tcp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A connection's stable key, in Zeek's uid form ({@code C} and 17 base-62 digits, about 101 bits): the SHA-256 of the
 * capture source, the client and server endpoints and the first frame's time in microseconds (the tables'
 * resolution). The same connection gets the same uid in every run over the same capture, whatever the files are
 * called or how they were split; Zeek's own uids are random per run. Addresses are taken as the tables print them.
 */
public final class ConnectionUid {

    private static final char[] DIGITS =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    /** Base-62 digits of a Zeek uid (62^17 is about 2^101). */
    private static final int LENGTH = 17;

    private ConnectionUid() {
    }

    /** The uid of the connection; {@code firstMicros} is its first frame's time in microseconds since the epoch. */
    public static String of(String source, String clientIp, int clientPort, String serverIp, int serverPort,
                            long firstMicros) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        String key = source + '\0' + clientIp + '\0' + clientPort + '\0' + serverIp + '\0' + serverPort + '\0'
                + firstMicros;
        byte[] h = sha.digest(key.getBytes(StandardCharsets.UTF_8));
        java.math.BigInteger base = java.math.BigInteger.valueOf(62);
        java.math.BigInteger n = new java.math.BigInteger(1, java.util.Arrays.copyOf(h, 16)).mod(base.pow(LENGTH));
        char[] out = new char[LENGTH + 1];
        out[0] = 'C';
        for (int i = LENGTH; i >= 1; i--) {
            java.math.BigInteger[] qr = n.divideAndRemainder(base);
            out[i] = DIGITS[qr[1].intValue()];
            n = qr[0];
        }
        return new String(out);
    }
}
