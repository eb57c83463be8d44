package io.ackscope.cli;

import com.beust.jcommander.IStringConverter;
import com.beust.jcommander.ParameterException;

import java.time.Duration;

/**
 * Command-line durations as wrk writes them: a number with an optional unit {@code us}, {@code ms}, {@code s},
 * {@code m} or {@code h}; a bare number is seconds ({@code 2}, {@code 2s}, {@code 500ms}, {@code 1.5m}).
 */
public final class DurationConverter implements IStringConverter<Duration> {

    @Override
    public Duration convert(String value) {
        String v = value.trim();
        int i = 0;
        while (i < v.length() && (Character.isDigit(v.charAt(i)) || v.charAt(i) == '.')) {
            i++;
        }
        double amount;
        try {
            amount = Double.parseDouble(v.substring(0, i));
        } catch (NumberFormatException e) {
            throw new ParameterException("not a duration: '" + value + "' (expected e.g. 2s, 500ms, 1m)");
        }
        double nanosPerUnit;
        switch (v.substring(i)) {
            case "us":
                nanosPerUnit = 1e3;
                break;
            case "ms":
                nanosPerUnit = 1e6;
                break;
            case "":
            case "s":
                nanosPerUnit = 1e9;
                break;
            case "m":
                nanosPerUnit = 60e9;
                break;
            case "h":
                nanosPerUnit = 3600e9;
                break;
            default:
                throw new ParameterException("unknown unit in duration '" + value + "' (us, ms, s, m or h)");
        }
        double nanos = amount * nanosPerUnit;
        if (!(nanos < Long.MAX_VALUE)) {
            throw new ParameterException("duration too long: '" + value + "'");
        }
        return Duration.ofNanos((long) nanos);
    }
}
