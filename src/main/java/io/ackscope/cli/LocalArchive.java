package io.ackscope.cli;

import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.tcp.ArchiveFeeder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The local inputs of {@code conv} and {@code diagnose} as an {@link Archive} (the same listing and source rules as
 * {@code analyze}), and what reading it found that the user should hear about.
 */
final class LocalArchive {
    private LocalArchive() {
    }

    /** Description of {@code --source-by}, shared by the commands that take it. */
    static final String SOURCE_BY = "Capture source of each file: dir (default: its directory relative to the "
            + "input), file (each file its own source), or a regular expression whose first group, found in the "
            + "file's path, names it";

    /** Lists files and directories (absolute paths, so a source is never named {@code .}). */
    static Archive list(List<String> inputs, String sourceBy) throws IOException, CommandFailure {
        List<String> absolute = new ArrayList<>();
        for (String in : inputs) {
            Path p = Path.of(in);
            if (in.indexOf('*') < 0 && in.indexOf('?') < 0 && !Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                // as CaptureInput says it for one file: the path and "no such file", not "no capture matches"
                try {
                    Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class,
                            java.nio.file.LinkOption.NOFOLLOW_LINKS);
                } catch (java.nio.file.FileSystemException e) {
                    throw CaptureInput.unreadable(in, e);
                }
            }
            absolute.add(Path.of(in).toAbsolutePath().normalize().toString());
        }
        return Archive.list(absolute, ArchiveStore.local(), Archive.SourceRule.parse(sourceBy));
    }

    /**
     * Whether the inputs are one stream to be read once, forwards ({@code -}, a FIFO, {@code /dev/stdin}): listing
     * would consume it, so the command reads it as a single capture ({@link CaptureInput}). A stream given beside
     * other inputs is a usage error.
     */
    static boolean isStream(List<String> inputs) throws CommandFailure {
        int streams = 0;
        for (String in : inputs) {
            Path p = Path.of(in);
            if (in.equals(CaptureInput.STDIN) || ArchiveStore.isStream(p)) {
                streams++;
            }
        }
        if (streams > 0 && inputs.size() > 1) {
            throw CommandFailure.line(Command.EXIT_USAGE, "a pipe or standard input is read alone, not beside "
                    + "other inputs", null);
        }
        return streams == 1;
    }

    /**
     * Tells {@code err} about skipped paths and copies, and reports each damaged or cut-short file as
     * {@link CaptureInput} does; returns the exit code that makes (3 under {@code strict} when any file was).
     */
    static int report(ArchiveFeeder feeder, String command, String what, boolean strict, PrintStream err) {
        Archive a = feeder.archive();
        for (Archive.Skipped s : a.skipped()) {
            err.println("ackscope " + command + ": skipped " + TerminalText.escape(s.path()) + ": " + s.reason());
        }
        for (Archive.Copy c : a.copies()) {
            err.println("ackscope " + command + ": skipped " + TerminalText.escape(c.path()) + ": a copy of "
                    + TerminalText.escape(c.of()));
        }
        int exit = Command.EXIT_OK;
        for (ArchiveFeeder.FileRead f : feeder.files()) {
            if (f.damage() != null) {
                exit = Math.max(exit, CaptureInput.damaged(err, command, f.damage(), what, strict));
                if (f.records() == 0 && f.damage().offset() == 0) {
                    // not a capture at all (nothing could be read), whatever --strict says, as for one file
                    exit = Command.EXIT_DAMAGED;
                }
            } else if (f.tail() != null) {
                exit = Math.max(exit, CaptureInput.cutShort(err, command, f.file().path(), f.tail(), what, strict));
            }
        }
        return exit;
    }
}
