package io.ackscope.fields;

import io.ackscope.tcp.Addresses;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Buffered ASCII output for tab-separated rows. Numbers, timestamps and addresses are formatted straight into a
 * byte buffer, as tshark prints them, so writing a row allocates nothing.
 */
public final class TsvOutput {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Longest single item written at once (an address is at most {@value Addresses#MAX_TEXT} characters). */
    private static final int MAX_ITEM = 64;
    /** Longest cell a field writes (a few items), plus its two quotes. */
    static final int MAX_CELL = 4 * MAX_ITEM;

    private final OutputStream out;
    private byte[] buf;
    private int n;
    /** Between cells ({@code -E separator}): a tab unless set. */
    private byte separator = '\t';
    /** Around non-empty cells ({@code -E quote}): 0 for none, else the quote character. */
    private byte quote;
    /** Where the current cell started in {@link #buf}. */
    private int cellStart;

    public TsvOutput(OutputStream out, int bufferSize) {
        this.out = out;
        this.buf = new byte[Math.max(bufferSize, 2 * MAX_CELL)];
    }

    private void room(int k) throws IOException {
        if (n + k > buf.length) {
            out.write(buf, 0, n);
            n = 0;
        }
    }

    /** Writes the buffered bytes to the stream and flushes it. */
    public void flush() throws IOException {
        out.write(buf, 0, n);
        n = 0;
        out.flush();
    }

    /** Writes the separator between two cells (a tab unless {@link #format} set another). */
    public void tab() throws IOException {
        room(1);
        buf[n++] = separator;
    }

    /** The separator between cells and the quote around non-empty ones (0: none), as tshark's {@code -E}. */
    public void format(byte separator, byte quote) {
        this.separator = separator;
        this.quote = quote;
    }

    /**
     * Starts a cell that {@link #endCell} may quote. A cell is at most {@value #MAX_CELL} bytes unless {@link #text}
     * writes it, which keeps a longer one whole; so a cell is never split by a flush and can be quoted in place.
     */
    public void beginCell() throws IOException {
        room(MAX_CELL);
        cellStart = n;
    }

    /** Ends the cell begun by {@link #beginCell}: quotes it when quoting is on and it is not empty. */
    public void endCell() {
        if (quote == 0 || n == cellStart) {
            return;
        }
        System.arraycopy(buf, cellStart, buf, cellStart + 1, n - cellStart);
        buf[cellStart] = quote;
        n += 1;
        buf[n++] = quote;
    }

    /** Writes {@code len} bytes of {@code b} from {@code off} as they are ({@code len} at most {@value #MAX_ITEM}). */
    void raw(byte[] b, int off, int len) throws IOException {
        room(len);
        System.arraycopy(b, off, buf, n, len);
        n += len;
    }

    /** U+FFFD REPLACEMENT CHARACTER in UTF-8. */
    private static final byte[] REPLACEMENT = {(byte) 0xef, (byte) 0xbf, (byte) 0xbd};

    /**
     * Bytes taken from a capture (an HTTP URI or Host), as tshark 4.0 prints an ASCII string field: printable ASCII
     * as it is, a tab as {@code \t}, each byte from 0x80 up as U+FFFD. Where tshark writes the other control bytes
     * (0x00-0x1f, 0x7f) raw, this writes {@code \xNN}, so that a capture cannot send escape sequences to a terminal.
     * A cell may be longer than {@value #MAX_CELL} bytes: the buffer keeps the whole cell, so quoting still works.
     */
    public void text(byte[] b, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            cellRoom(4);
            int v = b[i] & 0xff;
            if (v >= 0x20 && v < 0x7f) {
                buf[n++] = (byte) v;
            } else if (v == '\t') {
                buf[n++] = '\\';
                buf[n++] = 't';
            } else if (v >= 0x80) {
                System.arraycopy(REPLACEMENT, 0, buf, n, 3);
                n += 3;
            } else {
                buf[n++] = '\\';
                buf[n++] = 'x';
                buf[n++] = HEX[v >> 4];
                buf[n++] = HEX[v & 15];
            }
        }
    }

    /** Room for {@code k} more bytes of the current cell: writes out the rows before it, grows if it is longer. */
    private void cellRoom(int k) throws IOException {
        if (n + k + 2 <= buf.length) { // the 2: endCell's quotes
            return;
        }
        out.write(buf, 0, cellStart);
        System.arraycopy(buf, cellStart, buf, 0, n - cellStart);
        n -= cellStart;
        cellStart = 0;
        if (n + k + 2 > buf.length) {
            buf = java.util.Arrays.copyOf(buf, 2 * buf.length);
        }
    }

    /** The 9 decimals of a nanosecond fraction ({@code 0 <= frac < 10^9}). */
    void fraction9(long frac) throws IOException {
        room(9);
        for (long div = 100_000_000L; div > 0; div /= 10) {
            buf[n++] = (byte) ('0' + (frac / div) % 10);
        }
    }

    public void newline() throws IOException {
        room(1);
        buf[n++] = '\n';
    }

    /** Writes a string of ASCII characters (names, not capture content). */
    public void ascii(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            room(1);
            buf[n++] = (byte) s.charAt(i);
        }
    }

    public void decimal(long v) throws IOException {
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

    /** Dotted quad of the 4 bytes at {@code off} ({@link Addresses}). */
    void ipv4(byte[] b, int off) throws IOException {
        room(MAX_ITEM);
        n += Addresses.writeIpv4((int) bigEndian(b, off, 4), buf, n);
    }

    /** The 16 bytes at {@code off} as tshark prints an IPv6 address ({@link Addresses}: BSD inet_ntop, RFC 5952). */
    void ipv6(byte[] b, int off) throws IOException {
        room(MAX_ITEM);
        n += Addresses.writeIpv6(bigEndian(b, off, 8), bigEndian(b, off + 8, 8), buf, n);
    }

    private static long bigEndian(byte[] b, int off, int len) {
        long v = 0;
        for (int i = 0; i < len; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }
}
