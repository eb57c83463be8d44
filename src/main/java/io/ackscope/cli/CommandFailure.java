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
        super(subject + ": " + reason, cause);
        this.exitCode = exitCode;
        this.reason = reason;
    }

    int exitCode() {
        return exitCode;
    }

    /** What is wrong, without the subject. */
    String reason() {
        return reason;
    }
}
