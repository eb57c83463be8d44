package io.ackscope.tcp;

/** Classification of an acknowledgement by its delay and shape. */
public enum AckClass {
    /** Sent within {@link #IMMEDIATE_MAX_NANOS} of the data: quick-ACK mode, PSH, out-of-order, etc. */
    IMMEDIATE,
    /** Sent right after a second segment arrived (RFC 1122/5681 "ACK at least every second full segment"). */
    EVERY_SECOND_SEGMENT,
    /** Carried on a data segment the acking host was sending anyway. */
    PIGGYBACKED,
    /** Delayed-ACK timer of Linux/FreeBSD, nominally 40 ms (observed 40-48 ms with a 250 Hz kernel clock). */
    DELAYED_40MS,
    /**
     * A 200 ms-class delayed-ACK timer ({@link DelayedAckTimer#CLASS_200MS}): Windows (200 ms), macOS, or Linux on a
     * path with a round trip of 200 ms or more, whose timer grows up to min(smoothed RTT, 200 ms).
     */
    DELAYED_200MS,
    /** Delayed, but not in either well-known timer band. */
    DELAYED_OTHER;

    /** An ACK later than this is "delayed". */
    public static final long IMMEDIATE_MAX_NANOS = 5_000_000L;
    /** The 40 ms band: 36-50 ms (timer granularity of 100-1000 Hz kernels plus scheduling slack). */
    public static final long BAND_40_LOW = 36_000_000L, BAND_40_HIGH = 50_000_000L;
    /** The 200 ms band: 180-230 ms. */
    public static final long BAND_200_LOW = 180_000_000L, BAND_200_HIGH = 230_000_000L;

    /** Class of a non-piggybacked ACK after {@code delayNanos}, or EVERY_SECOND_SEGMENT when that explains it. */
    public static AckClass classify(long delayNanos, int segments, long sinceNewestNanos) {
        if (segments >= 2 && sinceNewestNanos < IMMEDIATE_MAX_NANOS) {
            return EVERY_SECOND_SEGMENT;
        }
        if (delayNanos < IMMEDIATE_MAX_NANOS) {
            return IMMEDIATE;
        }
        return delayedBand(delayNanos);
    }

    /** The delayed-ACK band a delay of at least {@link #IMMEDIATE_MAX_NANOS} falls in. */
    public static AckClass delayedBand(long delayNanos) {
        if (delayNanos >= BAND_40_LOW && delayNanos <= BAND_40_HIGH) {
            return DELAYED_40MS;
        }
        if (delayNanos >= BAND_200_LOW && delayNanos <= BAND_200_HIGH) {
            return DELAYED_200MS;
        }
        return DELAYED_OTHER;
    }

    public boolean delayed() {
        return this == DELAYED_40MS || this == DELAYED_200MS || this == DELAYED_OTHER;
    }
}
