package io.ackscope.capture;

/**
 * Timestamp unit of an interface: 10^-n or 2^-n seconds (pcapng if_tsresol; classic pcap is 10^-6 or 10^-9).
 *
 * <p>{@link #toNanos(long)} converts a count of units (unsigned 64-bit, as pcapng stores it) to nanoseconds since the
 * epoch arithmetically, truncating below a nanosecond. Results that do not fit a signed 64-bit nanosecond count
 * (beyond the year 2262) saturate at {@link Long#MAX_VALUE}.
 */
public final class TimestampResolution {
    public static final TimestampResolution MICROSECONDS = new TimestampResolution(false, 6);
    public static final TimestampResolution NANOSECONDS = new TimestampResolution(false, 9);

    /** if_tsresol exponents above this cannot express anything finer than 2^-63 / 10^-19 s usefully; rejected. */
    static final int MAX_BINARY_EXPONENT = 63;
    static final int MAX_DECIMAL_EXPONENT = 19;

    private static final long[] POW10 = new long[MAX_DECIMAL_EXPONENT + 1];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private final boolean binary;
    private final int exponent;

    private TimestampResolution(boolean binary, int exponent) {
        this.binary = binary;
        this.exponent = exponent;
    }

    /**
     * From an if_tsresol option byte: MSB clear = 10^-value, MSB set = 2^-(value &amp; 0x7f).
     *
     * @return null if the exponent is beyond what a 64-bit count can use (10^-20 and below, 2^-64 and below)
     */
    static TimestampResolution fromTsresol(int value) {
        int e = value & 0x7f;
        if ((value & 0x80) != 0) {
            return e <= MAX_BINARY_EXPONENT ? new TimestampResolution(true, e) : null;
        }
        if (e == 6) {
            return MICROSECONDS;
        }
        if (e == 9) {
            return NANOSECONDS;
        }
        return e <= MAX_DECIMAL_EXPONENT ? new TimestampResolution(false, e) : null;
    }

    /** True for 2^-n units. */
    public boolean binary() {
        return binary;
    }

    /** n in 10^-n or 2^-n. */
    public int exponent() {
        return exponent;
    }

    /**
     * Converts an unsigned count of units to nanoseconds.
     *
     * @param units unsigned 64-bit count of units since the epoch
     */
    public long toNanos(long units) {
        long seconds;
        long fraction;
        if (binary) {
            seconds = exponent == 0 ? units : units >>> exponent;
            long frac = exponent == 0 ? 0 : units & ((1L << exponent) - 1);
            // frac / 2^e * 1e9, exactly truncated: high 64 bits of (frac << (64 - e)) * 1e9, unsigned.
            fraction = exponent == 0 ? 0 : unsignedMultiplyHigh(frac << (64 - exponent), 1_000_000_000L);
        } else {
            long div = POW10[exponent];
            seconds = Long.divideUnsigned(units, div);
            long frac = Long.remainderUnsigned(units, div);
            fraction = exponent <= 9 ? frac * POW10[9 - exponent] : frac / POW10[exponent - 9];
        }
        return secondsToNanos(seconds, fraction);
    }

    /** seconds (unsigned) * 1e9 + fraction, saturating at Long.MAX_VALUE. */
    static long secondsToNanos(long seconds, long fraction) {
        if (seconds < 0 || seconds > (Long.MAX_VALUE - fraction) / 1_000_000_000L) {
            return Long.MAX_VALUE;
        }
        return seconds * 1_000_000_000L + fraction;
    }

    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimestampResolution r && r.binary == binary && r.exponent == exponent;
    }

    @Override
    public int hashCode() {
        return binary ? 1000 + exponent : exponent;
    }

    /** "10^-6", "2^-8". */
    @Override
    public String toString() {
        return (binary ? "2^-" : "10^-") + exponent;
    }
}
