package io.ackscope.cli;

import com.beust.jcommander.ParameterException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DurationConverterTest {

    @Test
    void readsEveryUnitAndBareSeconds() {
        assertEquals(Duration.ofNanos(7), DurationConverter.parse("7ns"));
        assertEquals(Duration.ofNanos(250_000), DurationConverter.parse("250us"));
        assertEquals(Duration.ofMillis(200), DurationConverter.parse("200ms"));
        assertEquals(Duration.ofSeconds(10), DurationConverter.parse("10s"));
        assertEquals(Duration.ofMillis(500), DurationConverter.parse("0.5"));
        assertEquals(Duration.ofSeconds(90), DurationConverter.parse("1.5m"));
        assertEquals(Duration.ofHours(2), DurationConverter.parse("2H"));
    }

    /** hping3's {@code -i u200000}: microseconds after a {@code u}. */
    @Test
    void readsHping3Microseconds() {
        assertEquals(Duration.ofMillis(200), DurationConverter.parse("u200000"));
        assertEquals(Duration.ofNanos(1_000), DurationConverter.parse("u1"));
        assertThrows(ParameterException.class, () -> DurationConverter.parse("u"));
        assertThrows(ParameterException.class, () -> DurationConverter.parse("ux"));
    }

    @Test
    void roundsBelowANanosecond() {
        assertEquals(Duration.ofNanos(2), DurationConverter.parse("1.5ns"));
    }

    @Test
    void rejectsUnknownUnitsNegativesAndGarbage() {
        assertThrows(ParameterException.class, () -> DurationConverter.parse("3d"));
        assertThrows(ParameterException.class, () -> DurationConverter.parse("-1s"));
        assertThrows(ParameterException.class, () -> DurationConverter.parse("ms"));
        assertThrows(ParameterException.class, () -> DurationConverter.parse("1e999999999h"));
    }
}
