package io.ackscope.cli;

import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.CaptureText;
import io.ackscope.tcp.ArchiveFeeder;

import java.io.IOException;
import java.io.PrintStream;
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
    static Archive list(List<String> inputs, String sourceBy) throws IOException {
        List<String> absolute = new ArrayList<>();
        for (String in : inputs) {
            absolute.add(Path.of(in).toAbsolutePath().normalize().toString());
        }
        return Archive.list(absolute, ArchiveStore.local(), Archive.SourceRule.parse(sourceBy));
    }

    /**
     * Tells {@code err} about skipped paths, copies and damaged files; returns the number of damaged files.
     */
    static int report(ArchiveFeeder feeder, String command, PrintStream err) {
        Archive a = feeder.archive();
        for (Archive.Skipped s : a.skipped()) {
            err.println("ackscope " + command + ": skipped " + CaptureText.terminal(s.path()) + ": " + s.reason());
        }
        for (Archive.Copy c : a.copies()) {
            err.println("ackscope " + command + ": skipped " + CaptureText.terminal(c.path()) + ": a copy of "
                    + CaptureText.terminal(c.of()));
        }
        int damaged = 0;
        for (ArchiveFeeder.FileRead f : feeder.files()) {
            if (f.damage() != null) {
                damaged++;
                err.println("ackscope " + command + ": " + CaptureText.terminal(f.damage().getMessage())
                        + " (analysed the frames before it)");
            }
        }
        return damaged;
    }
}
