package io.ackscope.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code ackscope ARGS} in a child JVM of the test's classpath, as a user's process. */
final class ChildAckscope {
    private ChildAckscope() {
    }

    /**
     * Runs {@code ackscope args} in a child JVM with {@code jvmOptions} (and the {@code --add-opens} embedded Spark
     * needs on Java 17, as this JVM got them from the pom), its stdout and stderr in files under {@code dir};
     * returns exit code, stdout, stderr. Ten minutes at most.
     */
    static String[] run(Path dir, List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("-Dio.netty")) {
                cmd.add(arg);
            }
        }
        cmd.addAll(List.of("-cp", cp, "io.ackscope.cli.Main"));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("ackscope " + String.join(" ", args) + " did not finish in 10 minutes");
        }
        return new String[] {Integer.toString(p.exitValue()), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8)};
    }
}
