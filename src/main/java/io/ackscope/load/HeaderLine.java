package io.ackscope.load;

import java.nio.charset.StandardCharsets;

/**
 * The current header field line of an {@link HttpParser} message: the first {@link #KEEP} bytes of its name and
 * value, lower-cased, and what the parser reads from them (which header it is, a decimal value, list tokens).
 * Longer names and values are counted but not kept: no header the parser interprets has one. Allocates nothing.
 */
final class HeaderLine {

    /** Bytes kept of a header name or of a value we interpret; longer ones are not ones we interpret. */
    static final int KEEP = 32;

    /** Header names the parser interprets ({@link #nameId()}). */
    static final int OTHER = 0, CONTENT_LENGTH = 1, TRANSFER_ENCODING = 2, CONNECTION = 3;

    private static final byte[] CONTENT_LENGTH_NAME = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING_NAME = ascii("transfer-encoding");
    private static final byte[] CONNECTION_NAME = ascii("connection");

    private final byte[] name = new byte[KEEP];
    private final byte[] value = new byte[KEEP];
    private int nameLen;
    private int valueLen;

    void startName() {
        nameLen = 0;
    }

    /** Adds a token character to the name. */
    void nameByte(byte b) {
        if (nameLen < KEEP) {
            name[nameLen] = lower(b);
        }
        nameLen++;
    }

    /** Which header the name read so far is: {@link #CONTENT_LENGTH} etc., or {@link #OTHER}. */
    int nameId() {
        if (equals(name, nameLen, CONTENT_LENGTH_NAME)) {
            return CONTENT_LENGTH;
        }
        if (equals(name, nameLen, TRANSFER_ENCODING_NAME)) {
            return TRANSFER_ENCODING;
        }
        if (equals(name, nameLen, CONNECTION_NAME)) {
            return CONNECTION;
        }
        return OTHER;
    }

    void startValue() {
        valueLen = 0;
    }

    void valueByte(byte b) {
        if (valueLen < KEEP) {
            value[valueLen] = lower(b);
        }
        valueLen++;
    }

    /** Length of the value without trailing whitespace when it was kept whole; above {@link #KEEP} if it was not. */
    int valueLength() {
        int len = valueLen;
        if (len <= KEEP) {
            while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t')) {
                len--; // trailing OWS
            }
        }
        return len;
    }

    /** The value's first {@code len} (at most {@link #KEEP}) bytes as a decimal number, or -1 if one is no digit. */
    long decimal(int len) {
        long v = 0;
        for (int i = 0; i < len; i++) {
            byte c = value[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Whether the comma-separated list in value[0, len) ends with {@code token}. */
    boolean lastTokenIs(int len, String token) {
        int end = len;
        int start = end;
        while (start > 0 && value[start - 1] != ',') {
            start--;
        }
        while (start < end && (value[start] == ' ' || value[start] == '\t')) {
            start++;
        }
        return regionIs(start, end, token);
    }

    /** Whether the comma-separated list in value[0, len) contains {@code token}. */
    boolean hasToken(int len, String token) {
        int start = 0;
        while (start < len) {
            int end = start;
            while (end < len && value[end] != ',') {
                end++;
            }
            int s = start;
            int e = end;
            while (s < e && (value[s] == ' ' || value[s] == '\t')) {
                s++;
            }
            while (e > s && (value[e - 1] == ' ' || value[e - 1] == '\t')) {
                e--;
            }
            if (regionIs(s, e, token)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** token characters of RFC 9110 §5.6.2. */
    static boolean isTchar(byte b) {
        return b > ' ' && b < 0x7f && b != '"' && b != '(' && b != ')' && b != ',' && b != '/' && b != ':'
                && b != ';' && b != '<' && b != '=' && b != '>' && b != '?' && b != '@' && b != '['
                && b != '\\' && b != ']' && b != '{' && b != '}';
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private boolean regionIs(int start, int end, String token) {
        if (end - start != token.length()) {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            if (value[start + i] != token.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean equals(byte[] kept, int len, byte[] expected) {
        if (len != expected.length) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (kept[i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }
}
