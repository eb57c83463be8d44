package io.ackscope.cli;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureProblem;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A capture named on the command line of the single-JVM commands ({@code info}, {@code fields}, {@code conv},
 * {@code diagnose}): a file, a FIFO, {@code /dev/stdin}, or {@code -} for standard input. Each is read once, forwards
 * (compressed ones too), so pipes work as files do.
 *
 * <p>What these commands do when a capture is damaged or cut short is the same for all four: they use the frames
 * before the damage, print one line on standard error naming the file and the byte offset, and exit with 0, or with
 * {@link Command#EXIT_DAMAGED} under {@code --strict}. A capture that cannot be opened at all is a failure (1).
 */
final class CaptureInput {
    /** The argument that means standard input. */
    static final String STDIN = "-";

    private CaptureInput() {
    }

    /** How the capture is named in messages. */
    static String name(String arg) {
        return arg.equals(STDIN) ? "standard input" : arg;
    }

    /**
     * Opens a capture argument.
     *
     * @throws CommandFailure  it is missing, a directory, or unreadable (exit 1), with the reason in words
     * @throws CaptureException it is not a capture, or damaged before its first record
     */
    static CaptureReader open(String arg, int maxRecordLength) throws IOException, CaptureException, CommandFailure {
        InputStream in;
        if (arg.equals(STDIN)) {
            in = new FilterInputStream(System.in) {
                @Override
                public void close() {
                    // standard input stays open for the process
                }
            };
        } else {
            Path path = Path.of(arg);
            if (Files.isDirectory(path)) {
                throw new CommandFailure(Command.EXIT_FAILURE, arg, "is a directory (give capture files, or use "
                        + "analyze for directories)");
            }
            try {
                in = Files.newInputStream(path);
            } catch (FileSystemException e) {
                throw unreadable(arg, e);
            }
        }
        try {
            return Captures.open(in, name(arg), maxRecordLength);
        } catch (IOException | CaptureException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** As {@link #open(String, int)} with the default record bound. */
    static CaptureReader open(String arg) throws IOException, CaptureException, CommandFailure {
        return open(arg, CaptureReader.DEFAULT_MAX_RECORD_LENGTH);
    }

    /** A file that cannot be opened, in words: no such file, permission denied, or the system's reason. */
    static CommandFailure unreadable(String arg, FileSystemException e) {
        String why;
        if (e instanceof NoSuchFileException) {
            why = "no such file";
        } else if (e instanceof AccessDeniedException) {
            why = "permission denied";
        } else {
            why = e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
        }
        return new CommandFailure(Command.EXIT_FAILURE, arg, why, e);
    }

    /**
     * Reports damage on {@code err} as one line, {@code ackscope CMD: FILE: byte N: REASON (WHAT)}, and returns the
     * exit code it makes: {@link Command#EXIT_DAMAGED} under {@code strict}, else 0.
     */
    static int damaged(PrintStream err, String command, CaptureException e, String what, boolean strict) {
        err.println(TerminalText.escape("ackscope " + command + ": " + e.getMessage() + " (" + what + ")"));
        return strict ? Command.EXIT_DAMAGED : Command.EXIT_OK;
    }

    /** As {@link #damaged(PrintStream, String, CaptureException, String, boolean)}, for a capture cut short. */
    static int cutShort(PrintStream err, String command, String arg, CaptureProblem p, String what,
                        boolean strict) {
        err.println(TerminalText.escape("ackscope " + command + ": " + name(arg) + ": byte " + p.offset()
                + ": cut short: " + p.reason() + " (" + what + ")"));
        return strict ? Command.EXIT_DAMAGED : Command.EXIT_OK;
    }
}
