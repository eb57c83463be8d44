package io.ackscope.cli;

import com.beust.jcommander.Parameter;

/**
 * One subcommand: a JCommander parameter class that knows how to run itself. Every subcommand carries
 * {@code -h/--help} and {@code --verbose}; JCommander reads the fields from this superclass.
 *
 * <p>Exit codes, the same for every command (README, "Exit codes"): {@link #EXIT_OK}, {@link #EXIT_FAILURE},
 * {@link #EXIT_USAGE}, {@link #EXIT_DAMAGED}.
 */
public abstract class Command {
    /** Done. Damaged inputs that the command went past count as done unless {@code --strict}. */
    public static final int EXIT_OK = 0;
    /** A runtime failure: an input that cannot be opened, an output that cannot be written, a network error. */
    public static final int EXIT_FAILURE = 1;
    /** A usage error: an unknown or missing option, a value out of range; nothing was run. */
    public static final int EXIT_USAGE = 2;
    /** With {@code --strict}: an input was damaged or cut short (the outputs cover what came before the damage). */
    public static final int EXIT_DAMAGED = 3;

    @Parameter(names = {"-h", "--help"}, help = true, description = "Show this help")
    private boolean help;

    @Parameter(names = "--verbose", description = "On an error, also print its stack trace (analyze: and Spark's "
            + "own logging)")
    private boolean verbose;

    /** Runs the command after its parameters were parsed; returns the process exit code. */
    public abstract int run() throws Exception;

    /** Whether {@code -h/--help} was given: {@link Main} prints the usage instead of running. */
    public final boolean help() {
        return help;
    }

    /** Whether {@code --verbose} was given: {@link Main} prints an error's stack trace. */
    public final boolean verbose() {
        return verbose;
    }
}
