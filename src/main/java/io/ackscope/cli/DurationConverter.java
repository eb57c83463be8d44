package io.ackscope.cli;

import com.beust.jcommander.IStringConverter;
import com.beust.jcommander.ParameterException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Parses durations as the reference tools write them: a number with an optional unit {@code ns}, {@code us},
 * {@code ms}, {@code s}, {@code m} or {@code h}; a bare number is seconds ({@code 0.5}, {@code 10s}, {@code 250ms}).
 * hping3's interval form, {@code u} followed by a number of microseconds ({@code -i u200000}), is taken too.
 */
public final class DurationConverter implements IStringConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /** See the class comment; throws {@link ParameterException} on anything else or a negative value. */
    public static Duration parse(String value) {
        String v = value.strip().toLowerCase(java.util.Locale.ROOT);
        if (v.length() > 1 && v.charAt(0) == 'u' && Character.isDigit(v.charAt(1))) {
            v = v.substring(1) + "us"; // hping3: u10000 is 10,000 microseconds
        }
        int split = v.length();
        while (split > 0 && Character.isLetter(v.charAt(split - 1))) {
            split--;
        }
        String unit = v.substring(split);
        long nanosPerUnit = switch (unit) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "", "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new ParameterException("unknown time unit in '" + value + "' (use ns, us, ms, s, m, h)");
        };
        BigDecimal number;
        try {
            number = new BigDecimal(v.substring(0, split));
        } catch (NumberFormatException e) {
            throw new ParameterException("not a duration: '" + value + "'");
        }
        if (number.signum() < 0) {
            throw new ParameterException("negative duration: '" + value + "'");
        }
        try {
            return Duration.ofNanos(number.multiply(BigDecimal.valueOf(nanosPerUnit))
                    .setScale(0, RoundingMode.HALF_UP).longValueExact());
        } catch (ArithmeticException e) {
            throw new ParameterException("duration out of range: '" + value + "'");
        }
    }
}
