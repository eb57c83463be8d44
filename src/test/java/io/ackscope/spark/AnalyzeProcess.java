package io.ackscope.spark;

import io.ackscope.spark.commit.OutputDirectory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code ackscope} in a child JVM on the test class path, with the command line's own logging settings (not the
 * tests'), as {@code jobs/ackscope} runs it: for tests that kill it or read its whole stderr.
 */
final class AnalyzeProcess {
    private AnalyzeProcess() {
    }

    /** What a finished run printed and returned. */
    record Result(int exit, String stdout, String stderr) {
    }

    static ProcessBuilder builder(Map<String, String> properties, List<String> args) {
        return builder("1g", properties, args);
    }

    /** As {@link #builder(Map, List)} with a heap of {@code -Xmx<heap>}. */
    static ProcessBuilder builder(String heap, Map<String, String> properties, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC", "-cp",
                System.getProperty("java.class.path")));
        cmd.addAll(StandaloneCluster.MODULE_OPTIONS);
        cmd.add("-Dlog4j2.configurationFile=" + commandLineLogging());
        properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("io.ackscope.cli.Main");
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        return pb;
    }

    /** Runs to the end (at most 5 minutes). */
    static Result run(Path work, Map<String, String> properties, String... args) throws IOException,
            InterruptedException {
        Files.createDirectories(work);
        Path out = work.resolve("stdout.txt"), err = work.resolve("stderr.txt");
        Process p = builder(properties, List.of(args)).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException("ackscope " + String.join(" ", args) + " did not finish; see " + err);
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * Starts a run with the test hook {@code ackscope.test.killAt=step}, waits until it reports the step (it then
     * blocks there), runs {@code whileBlocked}, and kills it with SIGKILL.
     *
     * @return the process id of the killed run
     */
    static long killAt(String step, Path work, Blocked whileBlocked, String... args) throws Exception {
        Files.createDirectories(work);
        Process p = builder(Map.of(OutputDirectory.KILL_AT, step), List.of(args))
                .redirectOutput(work.resolve("stdout.txt").toFile()).start();
        StringBuilder seen = new StringBuilder();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = err.readLine()) != null) {
                seen.append(line).append('\n');
                if (line.equals("ackscope.test.step " + step)) {
                    whileBlocked.run(p.pid());
                    p.destroyForcibly(); // SIGKILL on Linux
                    p.waitFor();
                    return p.pid();
                }
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor();
            }
        }
        throw new AssertionError("the run ended (exit " + p.waitFor() + ") without reaching step " + step + ":\n"
                + seen);
    }

    /** What a test does while the run is blocked at its step. */
    interface Blocked {
        void run(long pid) throws Exception;
    }

    private static String commandLineLogging() {
        try {
            return Path.of(OutputDirectory.class.getResource("/log4j2.properties").toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
