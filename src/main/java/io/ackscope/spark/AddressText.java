package io.ackscope.spark;

/**
 * Formats the decoder's two-long addresses as text into a caller's buffer, without allocating: IPv4 dotted quad,
 * IPv6 in RFC 5952 form (lower case, longest run of two or more zero groups as {@code ::}, the first on a tie,
 * {@code ::ffff:a.b.c.d} for IPv4-mapped addresses).
 */
final class AddressText {
    /** Longest text: 8 groups of 4 hex digits and 7 colons. */
    static final int MAX_LENGTH = 39;

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private AddressText() {
    }

    /**
     * Writes the address to {@code out} from {@code off}; returns the number of bytes written.
     *
     * @param ipVersion 4: {@code lo} holds the address as ::ffff:a.b.c.d; 6: the full 128 bits
     */
    static int format(int ipVersion, long hi, long lo, byte[] out, int off) {
        if (ipVersion == 4) {
            return ipv4((int) lo, out, off);
        }
        // Find the longest run of zero groups (length >= 2).
        int bestStart = -1, bestLen = 0, runStart = -1;
        for (int i = 0; i < 8; i++) {
            if (group(hi, lo, i) == 0) {
                if (runStart < 0) {
                    runStart = i;
                }
                int len = i - runStart + 1;
                if (len > bestLen) {
                    bestLen = len;
                    bestStart = runStart;
                }
            } else {
                runStart = -1;
            }
        }
        if (bestLen < 2) {
            bestStart = -1;
        }
        int p = off;
        boolean mapped = hi == 0 && (lo >>> 32) == 0xffffL;
        int lastGroup = mapped ? 6 : 8; // mapped: the last 32 bits are written as a dotted quad
        for (int i = 0; i < lastGroup; i++) {
            if (i == bestStart) {
                out[p++] = ':';
                out[p++] = ':';
                i += bestLen - 1;
                continue;
            }
            if (p > off && out[p - 1] != ':') {
                out[p++] = ':';
            }
            p = hex(group(hi, lo, i), out, p);
        }
        if (mapped) {
            if (out[p - 1] != ':') {
                out[p++] = ':';
            }
            p += ipv4((int) lo, out, p);
        }
        return p - off;
    }

    private static int group(long hi, long lo, int i) {
        long word = i < 4 ? hi : lo;
        return (int) (word >>> (48 - 16 * (i & 3))) & 0xffff;
    }

    private static int hex(int v, byte[] out, int p) {
        boolean started = false;
        for (int shift = 12; shift >= 0; shift -= 4) {
            int d = (v >>> shift) & 0xf;
            if (d != 0 || started || shift == 0) {
                out[p++] = HEX[d];
                started = true;
            }
        }
        return p;
    }

    private static int ipv4(int a, byte[] out, int off) {
        int p = off;
        for (int shift = 24; shift >= 0; shift -= 8) {
            int b = (a >>> shift) & 0xff;
            if (b >= 100) {
                out[p++] = (byte) ('0' + b / 100);
            }
            if (b >= 10) {
                out[p++] = (byte) ('0' + (b / 10) % 10);
            }
            out[p++] = (byte) ('0' + b % 10);
            if (shift > 0) {
                out[p++] = '.';
            }
        }
        return p - off;
    }
}
