package io.ackscope.cli;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Buffered ASCII output for tab-separated rows. Numbers, timestamps and addresses are formatted straight into a
 * byte buffer, as tshark prints them, so writing a row allocates nothing.
 */
final class TsvOutput {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Longest single item written at once (an IPv6 address is at most 45 characters). */
    private static final int MAX_ITEM = 64;

    private final OutputStream out;
    private final byte[] buf;
    private int n;

    TsvOutput(OutputStream out, int bufferSize) {
        this.out = out;
        this.buf = new byte[Math.max(bufferSize, 4 * MAX_ITEM)];
    }

    private void room(int k) throws IOException {
        if (n + k > buf.length) {
            out.write(buf, 0, n);
            n = 0;
        }
    }

    /** Writes the buffered bytes to the stream and flushes it. */
    void flush() throws IOException {
        out.write(buf, 0, n);
        n = 0;
        out.flush();
    }

    void tab() throws IOException {
        room(1);
        buf[n++] = '\t';
    }

    void newline() throws IOException {
        room(1);
        buf[n++] = '\n';
    }

    /** Writes a string of ASCII characters (names, not capture content). */
    void ascii(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            room(1);
            buf[n++] = (byte) s.charAt(i);
        }
    }

    void decimal(long v) throws IOException {
        room(MAX_ITEM);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                ascii("-9223372036854775808");
                return;
            }
            buf[n++] = '-';
            v = -v;
        }
        int start = n;
        do {
            buf[n++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        reverse(start, n - 1);
    }

    private void reverse(int i, int j) {
        while (i < j) {
            byte t = buf[i];
            buf[i++] = buf[j];
            buf[j--] = t;
        }
    }

    /** {@code 0x} and four lower-case hex digits, as tshark prints {@code tcp.flags}. */
    void hex4(int v) throws IOException {
        room(6);
        buf[n++] = '0';
        buf[n++] = 'x';
        for (int shift = 12; shift >= 0; shift -= 4) {
            buf[n++] = HEX[(v >>> shift) & 0xf];
        }
    }

    /** Seconds since the epoch with 9 decimals, as tshark's {@code frame.time_epoch}. */
    void epoch9(long nanos) throws IOException {
        room(MAX_ITEM);
        if (nanos < 0) {
            buf[n++] = '-';
            nanos = -nanos; // NO_TIMESTAMP (Long.MIN_VALUE) never gets here
        }
        decimal(nanos / 1_000_000_000L);
        buf[n++] = '.';
        long frac = nanos % 1_000_000_000L;
        for (long div = 100_000_000L; div > 0; div /= 10) {
            buf[n++] = (byte) ('0' + (frac / div) % 10);
        }
    }

    /** Dotted quad of the 4 bytes at {@code off}. */
    void ipv4(byte[] b, int off) throws IOException {
        room(16);
        for (int i = 0; i < 4; i++) {
            if (i > 0) {
                buf[n++] = '.';
            }
            decimalDigits(b[off + i] & 0xff);
        }
    }

    private void decimalDigits(int v) {
        if (v >= 100) {
            buf[n++] = (byte) ('0' + v / 100);
        }
        if (v >= 10) {
            buf[n++] = (byte) ('0' + (v / 10) % 10);
        }
        buf[n++] = (byte) ('0' + v % 10);
    }

    private void hexGroup(int v) {
        boolean started = false;
        for (int shift = 12; shift >= 0; shift -= 4) {
            int digit = (v >>> shift) & 0xf;
            if (digit != 0 || started || shift == 0) {
                buf[n++] = HEX[digit];
                started = true;
            }
        }
    }

    /**
     * The 16 bytes at {@code off} as tshark prints an IPv6 address (the BSD inet_ntop algorithm, RFC 5952): lower
     * case, no leading zeros, the first longest run of two or more zero groups as "::", and an IPv4-mapped
     * ({@code ::ffff:a.b.c.d}) or IPv4-compatible ({@code ::a.b.c.d}, not {@code ::} or {@code ::1}-like) address
     * with a dotted tail.
     */
    void ipv6(byte[] b, int off) throws IOException {
        room(MAX_ITEM);
        int bestBase = -1;
        int bestLen = 0;
        int curBase = -1;
        int curLen = 0;
        for (int i = 0; i < 8; i++) {
            if (b[off + 2 * i] == 0 && b[off + 2 * i + 1] == 0) {
                if (curBase < 0) {
                    curBase = i;
                    curLen = 1;
                } else {
                    curLen++;
                }
            } else if (curBase >= 0) {
                if (curLen > bestLen) {
                    bestBase = curBase;
                    bestLen = curLen;
                }
                curBase = -1;
            }
        }
        if (curBase >= 0 && curLen > bestLen) {
            bestBase = curBase;
            bestLen = curLen;
        }
        if (bestLen < 2) {
            bestBase = -1;
        }
        for (int i = 0; i < 8; i++) {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLen) {
                if (i == bestBase) {
                    buf[n++] = ':';
                }
                continue;
            }
            if (i != 0) {
                buf[n++] = ':';
            }
            boolean embeddedIpv4 = i == 6 && bestBase == 0
                    && (bestLen == 6 || (bestLen == 5 && (b[off + 10] & 0xff) == 0xff && (b[off + 11] & 0xff) == 0xff));
            if (embeddedIpv4) {
                for (int k = 0; k < 4; k++) {
                    if (k > 0) {
                        buf[n++] = '.';
                    }
                    decimalDigits(b[off + 12 + k] & 0xff);
                }
                break;
            }
            hexGroup(((b[off + 2 * i] & 0xff) << 8) | (b[off + 2 * i + 1] & 0xff));
        }
        if (bestBase >= 0 && bestBase + bestLen == 8) {
            buf[n++] = ':';
        }
    }
}
