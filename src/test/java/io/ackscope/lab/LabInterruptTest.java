package io.ackscope.lab;

import io.ackscope.probe.NetTestSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * SIGINT to the lab (Ctrl-C sends it to the whole process group; here only the lab's JVM gets it, the harder case)
 * in the middle of a run against nginx: the lab stops nginx, the capture and the load, deletes its work directory,
 * and exits with status 130 (128 + SIGINT) well within the load's duration. The lab is started with SIGINT ignored,
 * as a script's {@code jobs/lab-delayed-ack &} (or Maven started from one) leaves it: it must stop all the same.
 */
@Tag("root")
@Tag("nginx")
class LabInterruptTest {

    private static final Pattern WORK = Pattern.compile("lab: work directory (\\S+)");
    private static final Pattern PORT = Pattern.compile("on 127\\.0\\.0\\.1:(\\d+)");

    @Test
    void sigintStopsServerCaptureAndLoadAndDeletesTheWorkDirectory(@TempDir Path out) throws Exception {
        NetTestSupport.requireRoot();
        if (!Nginx.installed()) {
            fail(Nginx.BINARY + " is missing: install Debian's nginx-light (CI does)");
        }
        Path log = out.resolve("lab.log");
        Process lab = new ProcessBuilder(NetTestSupport.java(NetTestSupport.sigintIgnored(), "io.ackscope.cli.Main", "lab", "--out",
                out.toString(), "--only", "nginx-nodelay-off", "--nginx", "yes", "-d", "60s"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String text = awaitChildren(lab, log);
            Matcher w = WORK.matcher(text);
            Matcher p = PORT.matcher(text);
            assertTrue(w.find() && p.find(), text);
            Path work = Path.of(w.group(1));
            int port = Integer.parseInt(p.group(1));
            assertTrue(Files.isDirectory(work), text);
            List<ProcessHandle> children = lab.descendants().toList();
            // timeout and nginx under it, capture, load
            assertEquals(4, children.size(), children.stream().map(c -> c.info().command().orElse("?")).toList()
                    + "\n" + text);

            long signalled = System.nanoTime();
            NetTestSupport.check(10, List.of("kill", "-INT", Long.toString(lab.pid())));
            assertTrue(lab.waitFor(30, TimeUnit.SECONDS), "the lab did not exit within 30 s of SIGINT");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - signalled);

            assertEquals(130, lab.exitValue(), "128 + SIGINT, as a shell reports Ctrl-C: " + Files.readString(log));
            assertTrue(seconds < 30, seconds + " s");
            for (ProcessHandle c : children) {
                c.onExit().get(5, TimeUnit.SECONDS);
                assertFalse(c.isAlive(), c.info().commandLine().orElse("pid " + c.pid()) + " still runs");
            }
            assertFalse(Files.exists(work), work + " is still there");
            assertThrows(IOException.class, () -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                }
            }, "nginx still listens on " + port);
        } finally {
            lab.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Waits until the lab says its load runs (so nginx and the capture run too); returns its output so far. */
    private static String awaitChildren(Process lab, Path log) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < until) {
            if (!lab.isAlive()) {
                fail("the lab exited early: " + Files.readString(log));
            }
            String text = Files.readString(log);
            if (text.contains("load running")) {
                Thread.sleep(500); // the load is running, not just starting
                return Files.readString(log);
            }
            Thread.sleep(100);
        }
        fail("nginx, capture and load did not all start within 60 s: " + Files.readString(log));
        return null;
    }
}
