package io.ackscope.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real nginx from the distribution, run in the foreground from a generated configuration in a directory of its
 * own: listens on 127.0.0.1 only, logs errors there, no access log, one process (no master, so no user switch and
 * nothing left behind). Serves {@code index.html} of the given size from that directory.
 */
final class NginxInstance implements AutoCloseable {

    static final Path NGINX = Path.of("/usr/sbin/nginx");

    private final Process process;
    private final int port;
    private final Path dir;

    /**
     * @param dir        an empty directory for config, document root, logs and temp files
     * @param directives the connection-level directives under test, e.g. {@code "tcp_nodelay off;"}
     */
    NginxInstance(Path dir, String directives, int bodySize) throws IOException, InterruptedException {
        if (!Files.isExecutable(NGINX)) {
            fail(NGINX + " is missing: install Debian's nginx-light (CI does) to run the nginx stall tests");
        }
        this.dir = dir;
        this.port = LoadRuns.freePort();
        Path root = Files.createDirectories(dir.resolve("www"));
        Files.createDirectories(dir.resolve("tmp"));
        byte[] body = new byte[bodySize];
        for (int i = 0; i < bodySize; i++) {
            body[i] = (byte) (i % 64 == 63 ? '\n' : 'a' + i % 26);
        }
        Files.write(root.resolve("index.html"), body);
        Files.createDirectories(root.resolve("short"));
        Files.write(root.resolve("short").resolve("index.html"), body);
        String tmp = dir.resolve("tmp").toString();
        String conf = "daemon off;\n"
                + "master_process off;\n"
                + "worker_processes 1;\n"
                + "pid " + dir.resolve("nginx.pid") + ";\n"
                + "error_log " + dir.resolve("error.log") + " warn;\n"
                + "events { worker_connections 256; }\n"
                + "http {\n"
                + "  access_log off;\n"
                + "  client_body_temp_path " + tmp + "; proxy_temp_path " + tmp + "; fastcgi_temp_path " + tmp
                + "; uwsgi_temp_path " + tmp + "; scgi_temp_path " + tmp + ";\n"
                + "  keepalive_requests 1000000;\n"
                + "  " + directives + "\n"
                + "  server {\n"
                + "    listen 127.0.0.1:" + port + ";\n"
                + "    root " + root + ";\n"
                + "    location /short/ { keepalive_requests 3; }\n"
                + "  }\n"
                + "}\n";
        Path confFile = dir.resolve("nginx.conf");
        Files.writeString(confFile, conf);
        this.process = new ProcessBuilder(NGINX.toString(), "-p", dir.toString(), "-c", confFile.toString(),
                "-e", dir.resolve("error.log").toString())
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
