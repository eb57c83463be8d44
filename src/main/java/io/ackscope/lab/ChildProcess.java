package io.ackscope.lab;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process the lab started (a server, a capture, a load run): stdout and stderr go to a log file in the lab's
 * work directory, stdin is {@code /dev/null}. The lab waits for lines in that log (a server's or a capture's
 * "listening" line) instead of pumping streams, so nothing blocks on a full pipe.
 */
final class ChildProcess {

    /** How long a stopped process gets to print its summary and exit after SIGTERM before it is killed. */
    static final long STOP_GRACE_MILLIS = 10_000;
    private static final long POLL_MILLIS = 20;
    /** Lines of log quoted in an error. */
    private static final int QUOTED_CHARS = 2_000;

    private final String name;
    private final List<String> command;
    private final Path log;
    private final Process process;

    private ChildProcess(String name, List<String> command, Path log, Process process) {
        this.name = name;
        this.command = command;
        this.log = log;
        this.process = process;
    }

    /** Starts {@code command}, its output to {@code log}. */
    static ChildProcess start(String name, List<String> command, Path log) throws IOException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        return new ChildProcess(name, List.copyOf(command), log, p);
    }

    String name() {
        return name;
    }

    List<String> command() {
        return command;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits until a line of the output contains {@code marker}, and returns that line.
     *
     * @throws IOException the process exited first, or {@code timeoutMillis} passed (with the output so far)
     */
    String awaitLine(String marker, long timeoutMillis) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.contains(marker)) {
                    return line;
                }
            }
            if (!process.isAlive()) {
                throw failure("exited with status " + process.exitValue() + " before printing \"" + marker + "\"");
            }
            if (System.nanoTime() > until) {
                throw failure("printed no \"" + marker + "\" within " + timeoutMillis + " ms");
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * Waits for the process to exit on its own.
     *
     * @return its exit status
     * @throws IOException it was still running after {@code timeoutMillis} (it is then stopped)
     */
    int awaitExit(long timeoutMillis) throws IOException, InterruptedException {
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            stop();
            throw failure("still running after " + timeoutMillis + " ms; stopped");
        }
        return process.exitValue();
    }

    /** SIGTERM (the ackscope commands and nginx then finish cleanly), SIGKILL after {@link #STOP_GRACE_MILLIS}. */
    int stop() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** Everything the process printed so far. */
    String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** An error naming the process, its command and the end of its output. */
    IOException failure(String what) throws IOException {
        String out = Files.exists(log) ? output() : "";
        if (out.length() > QUOTED_CHARS) {
            out = "..." + out.substring(out.length() - QUOTED_CHARS);
        }
        return new IOException(name + " (" + String.join(" ", command) + ") " + what
                + (out.isBlank() ? "; it printed nothing" : "; its output:\n" + out.strip()));
    }
}
