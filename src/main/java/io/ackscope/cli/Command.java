package io.ackscope.cli;

import com.beust.jcommander.Parameter;

/**
 * One subcommand: a JCommander parameter class that knows how to run itself. Every subcommand carries
 * {@code -h/--help}; JCommander reads the field from this superclass.
 */
public abstract class Command {

    @Parameter(names = {"-h", "--help"}, help = true, description = "Show this help")
    private boolean help;

    /** Runs the command after its parameters were parsed; returns the process exit code. */
    public abstract int run() throws Exception;

    /** Whether {@code -h/--help} was given: {@link Main} prints the usage instead of running. */
    public final boolean help() {
        return help;
    }

    /** A usage error found after parsing (bad option value, conflicting paths): one line, exit status 2. */
    public static final class UsageError extends RuntimeException {
        public UsageError(String message) {
            super(message);
        }
    }

    /** A failure already put in one line for the user: exit status 1, no stack trace. */
    public static final class Failure extends Exception {
        public Failure(String message) {
            super(message);
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
