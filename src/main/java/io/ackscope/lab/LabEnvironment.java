package io.ackscope.lab;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where and with what the lab ran, for the README of its captures. Each value is "unknown" when it cannot be found
 * (no git checkout, not a Debian system); none of them changes what the lab does.
 *
 * @param date      when the lab started (UTC, seconds)
 * @param kernel    {@code uname -r}
 * @param java      the Java runtime version
 * @param ackscope  {@code git describe --always --dirty} of the checkout ackscope was built from
 * @param nginx     {@code nginx -v}, or null when the nginx setups did not run
 * @param packages  Debian package versions ("name version" each) of nginx-light and libpcap0.8
 */
public record LabEnvironment(Instant date, String kernel, String java, String ackscope, String nginx,
                             List<String> packages) {

    static final String UNKNOWN = "unknown";

    static LabEnvironment probe(Path work, boolean nginx) throws IOException, InterruptedException {
        String kernel = UNKNOWN;
        Path release = Path.of("/proc/sys/kernel/osrelease");
        if (Files.isReadable(release)) {
            kernel = Files.readString(release).strip();
        }
        String commit = firstLine(work, "git-describe", List.of("git", "-C", codeLocation(), "describe", "--always",
                "--dirty"));
        String nginxVersion = nginx ? Nginx.version(work) : null;
        List<String> packages = List.of(
                "nginx-light " + firstLine(work, "dpkg-nginx", dpkg("nginx-light")),
                "libpcap0.8 " + firstLine(work, "dpkg-libpcap", dpkg("libpcap0.8")));
        return new LabEnvironment(Instant.now().truncatedTo(ChronoUnit.SECONDS), kernel,
                System.getProperty("java.runtime.version", UNKNOWN), commit, nginxVersion, packages);
    }

    /** The directory of ackscope's classes or jar (inside the checkout it was built from). */
    private static String codeLocation() {
        try {
            Path p = Path.of(Lab.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return (Files.isDirectory(p) ? p : p.getParent()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            return "."; // no code source (unusual class loader): describe the working directory
        }
    }

    private static List<String> dpkg(String pkg) {
        return List.of("dpkg-query", "-W", "-f", "${Version}", pkg);
    }

    /** The first line a helper command prints, or "unknown" when it is missing or fails. */
    private static String firstLine(Path work, String name, List<String> cmd) throws InterruptedException {
        try {
            ChildProcess p = ChildProcess.start(name, cmd, work.resolve(name + ".log"));
            if (p.awaitExit(TimeUnit.SECONDS.toMillis(10)) != 0) {
                return UNKNOWN;
            }
            String out = p.output().strip();
            return out.isEmpty() ? UNKNOWN : out.lines().findFirst().orElse(UNKNOWN);
        } catch (IOException e) {
            return UNKNOWN; // the tool is not installed: the README says "unknown"
        }
    }
}
