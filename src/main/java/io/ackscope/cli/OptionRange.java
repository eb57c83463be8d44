package io.ackscope.cli;

import com.beust.jcommander.IParameterValidator;
import com.beust.jcommander.ParameterException;

/**
 * Range checks for numeric options, as JCommander validators: the message names the option as it was typed and the
 * value given ({@code -c must be >= 1, got 0}), and the command exits with the usage status before it runs.
 */
final class OptionRange {
    private OptionRange() {
    }

    /** Throws a {@link ParameterException} naming {@code option} unless {@code value} is in [min, max]. */
    static void check(String option, String value, long min, long max) {
        long v;
        try {
            v = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new ParameterException(option + " must be a whole number, got '" + value + "'");
        }
        if (v < min) {
            throw new ParameterException(option + " must be >= " + min + ", got " + value);
        }
        if (v > max) {
            throw new ParameterException(option + " must be <= " + max + ", got " + value);
        }
    }

    /** At least 1. */
    public static final class Positive implements IParameterValidator {
        @Override
        public void validate(String name, String value) {
            check(name, value, 1, Long.MAX_VALUE);
        }
    }

    /** At least 0. */
    public static final class NonNegative implements IParameterValidator {
        @Override
        public void validate(String name, String value) {
            check(name, value, 0, Long.MAX_VALUE);
        }
    }

    /** A TCP port to listen on, 0 (any free port) to 65535. */
    public static final class ListenPort implements IParameterValidator {
        @Override
        public void validate(String name, String value) {
            check(name, value, 0, 65535);
        }
    }

    /** A TCP port, 1 to 65535. */
    public static final class Port implements IParameterValidator {
        @Override
        public void validate(String name, String value) {
            check(name, value, 1, 65535);
        }
    }
}
