package io.ackscope.cli;

/**
 * A failure a command reports as one line, {@code ackscope CMD: MESSAGE}, with its exit code ({@link Command}'s
 * {@code EXIT_*}). The message names the file, option or interface concerned; {@link Main} escapes and prints it.
 */
final class CommandFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CommandFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CommandFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
