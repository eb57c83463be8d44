package io.ackscope.cli;

import io.ackscope.capture.Captures;
import io.ackscope.output.OutputLock;
import io.ackscope.output.OutputMarker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Where a reading command ({@code sql --out}, {@code export --zeek-conn}, {@code report --out}) may write its result
 * without destroying what it reads or a user's capture: never into an input or over a capture file (pcap, pcapng,
 * or a compressed file, whatever its name), and inside an {@code analyze} output only as a new file
 * outside every table (or, for {@code report}, its own report files at the output's top). A marker, the lock, a
 * table's part file or any existing file of an output is never replaced. Paths are compared as real paths, so a
 * symbolic link into an output is judged by where it points.
 */
final class ResultTarget {
    private ResultTarget() {
    }

    /**
     * Refuses {@code file} (exit 2, before anything runs) when writing it could destroy an output or an input.
     *
     * @param option  the option that named it, for the message
     * @param inputs  what the command reads (outputs, captures)
     * @param reports whether the command is {@code report}, which may replace an output's {@code report*.html}
     */
    static void refuse(String option, String file, List<String> inputs, boolean reports) throws CommandFailure {
        Path target;
        try {
            target = real(Path.of(file));
        } catch (IOException e) {
            return; // checkOutputFile says what is wrong with the folder
        }
        String capture = captureKind(target);
        if (capture != null) {
            throw refused(option, file, "is a " + capture + " file (a capture, or one compressed), which a result "
                    + "never replaces");
        }
        for (String in : inputs) {
            Path input;
            try {
                input = real(Path.of(in));
            } catch (IOException | RuntimeException e) {
                continue; // a glob or a missing input: the command reports it
            }
            if (target.equals(input) || (target.startsWith(input) && !isOutput(input))) {
                throw refused(option, file, "is " + (target.equals(input) ? "" : "inside ") + "the input " + in);
            }
        }
        Path output = outermostOutput(target);
        if (output == null) {
            return;
        }
        Path rel = output.relativize(target);
        String first = rel.getName(0).toString();
        Set<String> tables = tables(output);
        if (rel.getNameCount() > 1 && (tables == null || tables.contains(first) || first.startsWith("_")
                || first.startsWith("."))) {
            throw refused(option, file, "lies inside " + (tables != null && tables.contains(first) ? "table "
                    + first + " of " : "") + "the ackscope output " + output + ", which its readers would count");
        }
        if (first.equals(OutputMarker.FILE) || first.equals(OutputLock.FILE) || (tables != null
                && tables.contains(first))) {
            throw refused(option, file, "is " + first + " of the ackscope output " + output);
        }
        boolean ownReport = reports && rel.getNameCount() == 1 && first.startsWith("report")
                && first.endsWith(".html");
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !ownReport) {
            throw refused(option, file, "already exists in the ackscope output " + output + "; name a new file");
        }
    }

    /** {@link Captures#captureKind} of the existing regular file {@code target}, or null. */
    private static String captureKind(Path target) {
        if (!Files.isRegularFile(target)) {
            return null;
        }
        try (InputStream in = Files.newInputStream(target)) {
            byte[] head = in.readNBytes(4);
            return Captures.captureKind(head, head.length);
        } catch (IOException e) {
            return null; // unreadable: writing it fails and says so
        }
    }

    private static CommandFailure refused(String option, String file, String why) {
        return new CommandFailure(Command.EXIT_USAGE, option + " " + file, why + "; write the result elsewhere");
    }

    /** {@code p} with its existing part resolved to a real path (links followed). */
    private static Path real(Path p) throws IOException {
        Path abs = p.toAbsolutePath().normalize();
        if (Files.exists(abs)) {
            return abs.toRealPath();
        }
        Path parent = abs.getParent();
        return parent == null ? abs : real(parent).resolve(abs.getFileName());
    }

    /** The outermost directory above {@code target} that holds an ackscope marker or lock, or null. */
    private static Path outermostOutput(Path target) {
        Path found = null;
        for (Path d = target.getParent(); d != null; d = d.getParent()) {
            if (isOutput(d)) {
                found = d;
            }
        }
        return found;
    }

    private static boolean isOutput(Path dir) {
        return Files.isDirectory(dir) && (Files.exists(dir.resolve(OutputMarker.FILE))
                || Files.exists(dir.resolve(OutputLock.FILE)));
    }

    /** The tables the marker of {@code output} names, or null when it has no readable marker (all is guarded). */
    private static Set<String> tables(Path output) {
        try {
            String text = Files.readString(output.resolve(OutputMarker.FILE), StandardCharsets.UTF_8);
            return OutputMarker.parse(text, output.toString()).tables().keySet();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
