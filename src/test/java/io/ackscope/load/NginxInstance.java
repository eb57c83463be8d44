package io.ackscope.load;

import io.ackscope.lab.Nginx;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real nginx from the distribution with the lab's configuration ({@link Nginx#writeConfig}) in a directory of
 * its own: one foreground process on 127.0.0.1, serving {@code index.html} of the given size, and the same file
 * under {@code /short/} where a connection closes after 3 requests. Started here, stopped by {@link #close()}.
 */
final class NginxInstance implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path dir;

    /**
     * @param dir        an empty directory for config, document root, logs and temp files
     * @param directives the connection-level directives under test, e.g. {@code "tcp_nodelay off;"}
     */
    NginxInstance(Path dir, String directives, int bodySize) throws IOException, InterruptedException {
        if (!Nginx.installed()) {
            fail(Nginx.BINARY + " is missing: install Debian's nginx-light (CI does) to run the nginx stall tests");
        }
        this.dir = dir;
        this.port = LoadRuns.freePort();
        Path root = Files.createDirectories(dir.resolve("www"));
        byte[] body = new byte[bodySize];
        for (int i = 0; i < bodySize; i++) {
            body[i] = (byte) (i % 64 == 63 ? '\n' : 'a' + i % 26);
        }
        Files.write(root.resolve("index.html"), body);
        Files.createDirectories(root.resolve("short"));
        Files.write(root.resolve("short").resolve("index.html"), body);
        Path confFile = Nginx.writeConfig(dir, "ackscope's load tests", root, port, directives,
                "location /short/ { keepalive_requests 3; }");
        this.process = new ProcessBuilder(Nginx.command(dir, confFile))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile())
                .start();
        awaitListening();
    }

    private void awaitListening() throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            if (!process.isAlive()) {
                fail("nginx exited with " + process.exitValue() + ": " + log());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                Thread.sleep(50); // not listening yet
            }
        }
        close();
        fail("nginx did not listen on 127.0.0.1:" + port + " within 10 s: " + log());
    }

    private String log() throws IOException {
        Path err = dir.resolve("error.log");
        Path out = dir.resolve("stdout.log");
        return (Files.exists(err) ? Files.readString(err, StandardCharsets.UTF_8) : "")
                + (Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "");
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    int port() {
        return port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: nginx's fast shutdown
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
