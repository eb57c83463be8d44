package io.ackscope.cli;

/**
 * A failure a command reports as one line, {@code ackscope CMD: SUBJECT: REASON}, with its exit code ({@link Command}'s
 * {@code EXIT_*}). The subject is the file, option or interface concerned; {@link Main} escapes and prints the line.
 */
final class CommandFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;
    private final String reason;

    CommandFailure(int exitCode, String subject, String reason) {
        this(exitCode, subject, reason, null);
    }

    CommandFailure(int exitCode, String subject, String reason, Throwable cause) {
        this(subject + ": " + reason, exitCode, reason, cause);
    }

    private CommandFailure(String line, int exitCode, String reason, Throwable cause) {
        super(line, cause);
        this.exitCode = exitCode;
        this.reason = reason;
    }

    /** A failure whose one line names no separate subject (it is already in the text). */
    static CommandFailure line(int exitCode, String line, Throwable cause) {
        return new CommandFailure(line, exitCode, line, cause);
    }

    int exitCode() {
        return exitCode;
    }

    /** What is wrong, without the subject. */
    String reason() {
        return reason;
    }
}
