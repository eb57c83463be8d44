package io.ackscope.cli;

import com.beust.jcommander.Parameter;

import java.nio.file.Files;
import java.nio.file.Path;

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

    @Parameter(names = "--verbose", description = "On an error, also print its stack trace (analyze: Spark's "
            + "own logging, and the task-time and shuffle figures after the summary)")
    private boolean verbose;

    /** When the command was made, which {@link Main} does first: the start of its real elapsed time. */
    private final long createdNanos = System.nanoTime();

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

    /** Seconds since the command was made: what the user waited for, Spark's start-up included. */
    protected final double elapsedSeconds() {
        return (System.nanoTime() - createdNanos) / 1e9;
    }

    /**
     * Refuses an output file that could not be written, before the command runs (and not after it, losing its
     * results): its folder must exist and be writable, and it must not be a folder itself.
     *
     * @param option the option that named it, for the message ({@code --out})
     */
    static void checkOutputFile(String option, String file) throws CommandFailure {
        Path path = Path.of(file);
        Path folder = path.toAbsolutePath().getParent();
        String why = null;
        if (Files.isDirectory(path)) {
            why = "is a folder; give a file name";
        } else if (folder == null || !Files.isDirectory(folder)) {
            why = "folder " + folder + " does not exist";
        } else if (!Files.isWritable(folder)) {
            why = "folder " + folder + " is not writable";
        }
        if (why != null) {
            throw new CommandFailure(EXIT_USAGE, option + " " + file, why);
        }
    }

    /**
     * {@code e} in one line: its own message when it is an {@link java.io.IOException} (ackscope's own failures),
     * else that of its deepest cause that has one (Spark wraps a task's failure in exceptions whose messages carry
     * stack traces); the first line only.
     */
    static String oneLine(Throwable e) {
        Throwable pick = e;
        if (!(e instanceof java.io.IOException) || e.getMessage() == null) {
            for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
                if (t.getMessage() != null && !t.getMessage().isBlank()) {
                    pick = t;
                }
            }
        }
        String msg = pick.getMessage();
        if (msg == null || msg.isBlank()) {
            return pick.getClass().getSimpleName();
        }
        return msg.strip().lines().findFirst().orElse(msg);
    }
}
