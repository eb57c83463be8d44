package io.ackscope.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * nginx from the distribution, run by the lab from a configuration it writes into a directory of its own: one
 * process in the foreground ({@code daemon off; master_process off;}, so stopping the process stops nginx and nothing
 * is left behind), listening on 127.0.0.1 only, no access log, serving one static file.
 *
 * <p>The configuration is complete rather than Debian's {@code nginx.conf} with changes: the stock file has
 * {@code tcp_nopush on}, which corks the response header until the body is queued, so the header and body leave
 * together and the stall never shows.
 *
 * <p>The one nginx set-up of the Java code: the lab and the tests (through {@code load.NginxInstance}) use it.
 */
public final class Nginx {

    /** Where Debian's nginx packages put the binary. */
    public static final Path BINARY = Path.of("/usr/sbin/nginx");

    private Nginx() {
    }

    /** Whether nginx is installed. */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** {@code nginx -v}'s answer, e.g. {@code nginx/1.22.1}. */
    static String version(Path work) throws IOException, InterruptedException {
        ChildProcess p = ChildProcess.start("nginx -v", List.of(BINARY.toString(), "-v"), work.resolve("nginx-v.log"));
        p.awaitExit(TimeUnit.SECONDS.toMillis(10));
        String out = p.output().strip();
        int slash = out.indexOf("nginx/");
        return slash >= 0 ? out.substring(slash).split("\\s")[0] : out;
    }

    /**
     * Writes the configuration of {@code setup} into {@code dir} and returns the command that runs it.
     *
     * @param root         document root holding {@code index.html}
     * @param boundSeconds the command stops nginx after this long whatever happens to the lab ({@code timeout})
     */
    static List<String> prepare(Setup setup, Path dir, Path root, int port, long boundSeconds) throws IOException {
        Path file = writeConfig(dir, "ackscope lab for " + setup.name(), root, port, setup.nginxDirectives(), "");
        List<String> command = new ArrayList<>(List.of("timeout", "-s", "TERM", boundSeconds + "s"));
        command.addAll(command(dir, file));
        return command;
    }

    /**
     * Writes {@code dir/nginx.conf}: one foreground process serving {@code root} on 127.0.0.1:{@code port}, its pid,
     * error log and temporary files in {@code dir}, no access log, {@code text/html}, keep-alive for 65 s and up to
     * a million requests per connection, and the {@code directives} under test (e.g.
     * {@code "tcp_nodelay off; sendfile on; tcp_nopush off;"}). The shell scripts' twin is {@code jobs/lib/nginx.sh}.
     *
     * @param writtenFor       who the configuration is for, in its first comment line
     * @param serverDirectives more lines for the {@code server} block (e.g. a {@code location}), or empty
     * @return the configuration file
     */
    public static Path writeConfig(Path dir, String writtenFor, Path root, int port, String directives,
            String serverDirectives) throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String conf = "# written by " + writtenFor + "\n"
                + "daemon off;\n"
                + "master_process off;\n"
                + "worker_processes 1;\n"
                + "pid " + dir.resolve("nginx.pid") + ";\n"
                + "error_log " + dir.resolve("error.log") + " warn;\n"
                + "events { worker_connections 256; }\n"
                + "http {\n"
                + "    access_log off;\n"
                + "    default_type text/html;\n"
                + "    client_body_temp_path " + tmp + "; proxy_temp_path " + tmp + "; fastcgi_temp_path " + tmp
                + "; uwsgi_temp_path " + tmp + "; scgi_temp_path " + tmp + ";\n"
                + "    keepalive_timeout 65;\n"
                + "    keepalive_requests 1000000;\n"
                + "    " + directives + "\n"
                + "    server {\n"
                + "        listen 127.0.0.1:" + port + ";\n"
                + "        root " + root + ";\n"
                + (serverDirectives.isEmpty() ? "" : "        " + serverDirectives + "\n")
                + "    }\n"
                + "}\n";
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, conf, StandardCharsets.UTF_8);
        return file;
    }

    /** The command running the configuration {@code file} written into {@code dir} in the foreground. */
    public static List<String> command(Path dir, Path file) {
        return List.of(BINARY.toString(), "-p", dir.toString(), "-c", file.toString(), "-e",
                dir.resolve("error.log").toString());
    }
}
