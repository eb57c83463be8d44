package io.ackscope.report;

import io.ackscope.cli.Main;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.ackscope.capture.Corpus;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Captures analysed once per test JVM with the real {@code ackscope analyze} (embedded Spark), shared by every
 * report test: the tables and the {@code report.html} that analyze writes next to them.
 */
final class AnalyzedCaptures {
    static final Path LATENCY = Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz");
    static final Path GOOD = Path.of("sample-pcaps", "nginx-nodelay-on.pcap.gz");
    static final Path WORK = Path.of("target", "report-tests");

    private static final Map<Path, Path> DONE = new HashMap<>();

    private AnalyzedCaptures() {
    }

    /** The shared capture corpus; fails (does not skip) when it is missing. */
    static Path corpus() {
        return Corpus.dir();
    }

    /** The output directory of {@code analyze CAPTURE --out DIR} (a file or a directory), made on first use. */
    static synchronized Path tables(Path capture) throws IOException {
        return tables(capture.getFileName().toString(), capture);
    }

    /** The output directory of {@code analyze CAPTURE... --out DIR}, one run over all, named {@code name}. */
    static synchronized Path tables(String name, Path... captures) throws IOException {
        Path key = Path.of(name);
        Path done = DONE.get(key);
        if (done != null) {
            return done;
        }
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("analyze"));
        for (Path capture : captures) {
            assertTrue(Files.exists(capture), "capture missing: " + capture.toAbsolutePath());
            args.add(capture.toString());
        }
        Path out = WORK.resolve("tables-" + name.replaceAll("[^A-Za-z0-9.-]", "_")).toAbsolutePath();
        args.addAll(java.util.List.of("--out", out.toString(), "--overwrite"));
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int code = Main.run(args.toArray(new String[0]), ps, ps);
        assertEquals(0, code, "analyze failed: " + buf.toString(StandardCharsets.UTF_8));
        assertTrue(Files.isRegularFile(out.resolve(Report.FILE_NAME)), "analyze did not write report.html in " + out);
        DONE.put(key, out);
        return out;
    }
}
