package io.ackscope.probe;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/** Running external commands and ackscope itself in child processes, for the network tests. */
public final class NetTestSupport {

    private NetTestSupport() {
    }

    /** Output of a finished command. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    /** Runs {@code cmd} to completion within {@code timeoutSeconds}; kills it and fails the test otherwise. */
    public static Result run(long timeoutSeconds, List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("ackscope-cmd", ".out");
        Path err = Files.createTempFile("ackscope-cmd", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                fail("timed out after " + timeoutSeconds + " s: " + cmd + "\n" + Files.readString(err));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Runs {@code cmd} and fails the test unless it exits 0; returns its standard output. */
    public static String check(long timeoutSeconds, List<String> cmd) throws IOException, InterruptedException {
        Result r = run(timeoutSeconds, cmd);
        if (r.exitCode() != 0) {
            fail(cmd + " exited " + r.exitCode() + ":\n" + r.stdout() + r.stderr());
        }
        return r.stdout();
    }

    /** {@code java -cp <this test's class path> mainClass args...}, with the given prefix (ip netns exec ...). */
    public static List<String> java(List<String> prefix, String mainClass, String... args) {
        return java(prefix, List.of(), mainClass, args);
    }

    /** As {@link #java(List, String, String...)} with extra JVM options such as {@code -Dname=value}. */
    public static List<String> java(List<String> prefix, List<String> jvmOptions, String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-Xmx256m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The real class path: surefire's booter jar hides it in {@code surefire.test.class.path}. */
    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    /** Fails the test clearly when not running as root (raw sockets, packet capture, network namespaces). */
    public static void requireRoot() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Uid:")) {
                String[] f = line.split("\\s+");
                if (!f[2].equals("0")) {
                    fail("this test needs root (effective uid " + f[2] + "): it captures packets and sends raw SYNs");
                }
                return;
            }
        }
        fail("cannot read the effective uid from /proc/self/status");
    }

    /**
     * A command prefix that starts the command with SIGINT ignored, as a shell without job control starts
     * {@code cmd &} (a script, or Maven launched from one): the disposition survives exec. Checked once here, so a
     * test using it does test the ignored case.
     */
    public static List<String> sigintIgnored() throws IOException, InterruptedException {
        List<String> prefix = List.of("sh", "-c", "trap '' INT; exec \"$@\"", "sh");
        List<String> probe = new ArrayList<>(prefix);
        probe.addAll(List.of("grep", "^SigIgn:", "/proc/self/status"));
        long ignored = Long.parseUnsignedLong(check(10, probe).substring("SigIgn:".length()).trim(), 16);
        if ((ignored & (1L << (2 - 1))) == 0) { // bit (signal number - 1); SIGINT is 2
            fail("the prefix " + prefix + " did not leave SIGINT ignored: SigIgn " + Long.toHexString(ignored));
        }
        return prefix;
    }

    /** Fails the test clearly when {@code path} (an installed tool) is missing. */
    public static void requireTool(String path, String debianPackage) {
        if (!Files.isExecutable(Path.of(path))) {
            fail(path + " is missing: install Debian package " + debianPackage);
        }
    }
}
