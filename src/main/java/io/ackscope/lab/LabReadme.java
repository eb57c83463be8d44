package io.ackscope.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Keeps the lab's section of the captures' README.md: between two marker lines, rewritten on every run, the rest of
 * the file left as it is (the section is appended when the markers are missing; the file is created when absent).
 */
final class LabReadme {

    static final String BEGIN = "<!-- ackscope lab: begin (written by jobs/lab-delayed-ack on each run; edits here "
            + "are replaced) -->";
    static final String END = "<!-- ackscope lab: end -->";

    private LabReadme() {
    }

    static void update(Path readme, Lab.Result result, Lab.Options options) throws IOException {
        String section = section(result, options);
        String text = Files.exists(readme) ? Files.readString(readme, StandardCharsets.UTF_8)
                : "# Sample captures\n\nEach with exactly how it was made.\n";
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        if (b >= 0 && e > b) {
            text = text.substring(0, b) + section + text.substring(e + END.length());
        } else {
            text = text.stripTrailing() + "\n\n" + section + "\n";
        }
        Files.writeString(readme, text, StandardCharsets.UTF_8);
    }

    static String section(Lab.Result result, Lab.Options o) {
        LabEnvironment env = result.environment();
        StringBuilder sb = new StringBuilder(BEGIN).append('\n');
        sb.append("## `lab-serve-*.pcap.gz`, `lab-nginx-*.pcap.gz` — the seed experiment end to end, made by the lab"
                + "\n\n");
        sb.append("Made by `").append(o.commandLine()).append("` (as root; only 127.0.0.1 ports) on ")
                .append(env.date()).append(", Linux ").append(env.kernel()).append(" (loopback), Java ")
                .append(env.java()).append(", ackscope ").append(env.ackscope());
        if (env.nginx() != null) {
            sb.append(", ").append(env.nginx());
        }
        sb.append("; Debian packages ").append(String.join(", ", env.packages())).append(".\n\n");
        sb.append(String.format(Locale.ROOT, "For each configuration the lab starts its own server on a 127.0.0.1 "
                + "port, serving a %d-byte body with the response header and the body in two writes (ackscope "
                + "`serve --split-writes`; nginx `sendfile on; tcp_nopush off;`), so only the server's TCP_NODELAY "
                + "and the client's TCP_QUICKACK differ between them. It starts `ackscope capture` on `lo` for the "
                + "server's port and waits for its \"listening\" line, runs `ackscope load` (%d connections, one "
                + "thread, %.1f s, closed loop), waits %d ms for the last ACKs, stops the capture (SIGTERM) and the "
                + "server, and compresses the capture (gzip level 9, no name or time in the header). Each capture "
                + "keeps %d bytes of each packet (the headers plus the request line and status line) and at most "
                + "%,d packets, so a fast run holds only its beginning. The analysis: %s.%n%n", o.bodySize(),
                o.connections(), o.durationNanos() / 1e9, Lab.DRAIN_MILLIS, o.snaplen(), o.maxPackets(),
                result.analysis()));
        sb.append(LabTable.markdown(result)).append('\n');
        sb.append(LabTable.legend(result)).append('\n');
        sb.append("The HTML report of these captures: `jobs/ackscope analyze --out DIR sample-pcaps/lab-serve-*.pcap.gz "
                + "sample-pcaps/lab-nginx-*.pcap.gz` writes `DIR/report.html` (the lab writes it to `out/lab/`).\n\n");
        sb.append("Exactly how each was made (`ackscope` is `jobs/ackscope`, `$WORK` the lab's temporary directory, "
                + "ports as used in this run):\n\n");
        for (Lab.Run r : result.runs()) {
            sb.append("- `").append(r.captureFile().getFileName()).append("` (").append(r.captureFigures().captured())
                    .append(" packets, ").append(r.captureFigures().droppedByKernel())
                    .append(" dropped by the kernel, ").append(r.captureFigures().fileBytes()).append(" bytes; load: ")
                    .append(r.loadFigures().requests()).append(" requests, ").append(r.loadFigures().errors())
                    .append(" errors):\n");
            sb.append("  server: `").append(Lab.text(r.server())).append("`, listening on 127.0.0.1:")
                    .append(r.port());
            if (r.nginxConf() != null) {
                sb.append(", with `").append(r.setup().nginxDirectives()).append('`');
            }
            sb.append(";\n");
            sb.append("  capture: `").append(Lab.text(r.capture())).append("`;\n");
            sb.append("  load: `").append(Lab.text(r.load())).append("`.\n");
        }
        for (Lab.Run r : result.runs()) {
            if (r.nginxConf() != null) {
                sb.append("\nThe nginx configuration of `").append(r.captureFile().getFileName()).append("` (the other "
                        + "nginx runs differ only in their directory, port and `tcp_nodelay`; `timeout` stops nginx if "
                        + "the lab "
                        + "cannot):\n\n```nginx\n").append(r.nginxConf().strip()).append("\n```\n");
                break;
            }
        }
        return sb.append(END).toString();
    }
}
