package io.ackscope.spark;

import io.ackscope.probe.NetTestSupport;
import io.ackscope.tables.SameRows;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code jobs/lab-watch} for 3 s of load (as root; tcpdump on lo): {@code analyze --watch} follows
 * {@code tcpdump -G 1} while {@code ackscope load} drives {@code ackscope serve}; once the load and the capture have
 * stopped and the last file has settled, the watch stops on SIGINT with status 0, and its tables equal a one-shot
 * {@code analyze} of the same files, row for row.
 */
@Tag("root")
@Tag("slow")
class LabWatchTest {
    @TempDir
    Path tmp;

    @Test
    void watchOfALiveRotatedCaptureEqualsOneRunOverItsFiles() throws Exception {
        NetTestSupport.requireRoot();
        if (!Files.isExecutable(Path.of("/usr/bin/tcpdump"))) {
            fail("/usr/bin/tcpdump is missing: install Debian's tcpdump (CI does)");
        }
        Path lab = tmp.resolve("lab");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder("jobs/lab-watch", "--out", lab.toString(), "-d", "3", "-R", "400")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("lab.log").toFile());
        pb.environment().put("ACKSCOPE", Path.of(System.getProperty("java.home"), "bin", "java") + " -Xmx768m "
                + String.join(" ", StandaloneCluster.MODULE_OPTIONS) + " -cp " + cp + " io.ackscope.cli.Main");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        if (!p.waitFor(6, TimeUnit.MINUTES)) {
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
            fail("lab-watch did not end in 6 minutes: " + Files.readString(tmp.resolve("lab.log")));
        }
        String log = Files.readString(tmp.resolve("lab.log"), StandardCharsets.UTF_8);
        // 4: not compared for want of Python's duckdb; the comparison below does not need it
        assertTrue(p.exitValue() == 0 || p.exitValue() == 4, log);
        String figures = Files.readString(lab.resolve("figures.txt"));
        long files = figure(figures, "^files (\\d+)");
        assertTrue(files >= 3, "a file a second for 3 s of load: " + figures);
        assertTrue(figure(figures, "^frames captured (\\d+)") > 1000, "about 400 requests/s for 3 s: " + figures);
        String watchLog = Files.readString(lab.resolve("watch.log"));
        assertTrue(watchLog.contains("; " + files + " files in the output, 0 waiting;"), watchLog);
        assertEquals(List.of(), SameRows.differences(lab.resolve("watch"), lab.resolve("one-shot")), figures);
        assertTrue(figures.matches("(?s).*\\n  connections +[1-9][\\d,]* rows?\\n.*"), figures);
    }

    private static long figure(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        assertTrue(m.find(), regex + " in " + text);
        return Long.parseLong(m.group(1));
    }
}
