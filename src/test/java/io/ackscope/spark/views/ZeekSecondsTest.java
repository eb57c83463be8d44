package io.ackscope.spark.views;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Zeek's time and interval values, written without a Formatter, read as {@code %d.%06d} of floor-divided seconds. */
class ZeekSecondsTest {

    @Test
    void secondsHaveSixDecimalsAsZeekPrintsThem() {
        assertEquals("0.000000", ZeekConnLog.seconds(0));
        assertEquals("0.000005", ZeekConnLog.seconds(5));
        assertEquals("0.099999", ZeekConnLog.seconds(99_999));
        assertEquals("0.100000", ZeekConnLog.seconds(100_000));
        assertEquals("1796457156.669669", ZeekConnLog.seconds(1_796_457_156_669_669L));
        assertEquals("-1.999999", ZeekConnLog.seconds(-1));
        for (long micros : new long[] {1, 10, 999_999, 1_000_000, 1_000_001, 12_345_678_901L, -1_000_000, -7}) {
            assertEquals(String.format(Locale.ROOT, "%d.%06d", Math.floorDiv(micros, 1_000_000L),
                    Math.floorMod(micros, 1_000_000L)), ZeekConnLog.seconds(micros), Long.toString(micros));
        }
    }
}
