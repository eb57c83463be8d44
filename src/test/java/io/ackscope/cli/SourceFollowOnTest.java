package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 19 cause labs, unrelated captures made hours apart, copied into one directory: analyzed as one source (the
 * default rule, a directory), the summary says in one line that its files do not follow on from each other and
 * names the {@code --source-by file} that separates them; analyzed with it, there is no warning and each lab's
 * own source has its own verdict, the cause the lab made.
 */
class SourceFollowOnTest {

    /** Each lab and the verdict it was made to give. */
    private static final Map<String, String> VERDICTS = Map.ofEntries(
            Map.entry("lab-cause-churn", "CONNECTION_CHURN"), Map.entry("lab-cause-churn-rst", "CONNECTION_CHURN"),
            Map.entry("lab-cause-client-nagle", "NAGLE_CLIENT_HELD"),
            Map.entry("lab-cause-delack-200", "NAGLE_SERVER_HELD"),
            Map.entry("lab-cause-idle-restart", "SLOW_START_AFTER_IDLE"), Map.entry("lab-cause-loss", "RTO"),
            Map.entry("lab-cause-network-delay", "NETWORK_DELAY"), Map.entry("lab-cause-queueing", "QUEUEING_DELAY"),
            Map.entry("lab-cause-server-slow", "SERVER_PROCESSING"),
            Map.entry("lab-cause-small-iw", "SMALL_INITIAL_WINDOW"),
            Map.entry("lab-cause-syn-drop", "SYN_RETRANSMISSION"),
            Map.entry("lab-cause-window-limited", "RECEIVER_WINDOW_LIMITED"),
            Map.entry("lab-cause-zero-window", "ZERO_WINDOW"));
    private static final Pattern SOURCE_LINE = Pattern.compile(
            "(?m)^  source (\\S+): (\\S+) at \\S+, ([0-9.]+)% of its response time; causes found there explain "
                    + "([0-9.]+)%, ([0-9.]+)% unattributed$");

    @TempDir
    static Path tmp;
    static Path labs;

    @BeforeAll
    static void copyTheLabs() throws IOException {
        labs = tmp.resolve("labs");
        Files.createDirectories(labs);
        try (Stream<Path> s = Files.list(Path.of("sample-pcaps"))) {
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith("lab-cause-")).toList()) {
                Files.copy(p, labs.resolve(p.getFileName()));
            }
        }
        try (Stream<Path> s = Files.list(labs)) {
            assertEquals(19, s.count(), "the 19 cause labs");
        }
    }

    private static String analyze(Path out, String sourceBy) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        AnalyzeCommand c = new AnalyzeCommand(new PrintStream(buf, true, StandardCharsets.UTF_8));
        c.inputs = List.of(labs.toString());
        c.out = out.toString();
        c.master = "local[2]";
        c.sourceBy = sourceBy;
        int rc = c.run();
        String text = buf.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, text);
        return text;
    }

    @Test
    void unrelatedCapturesInOneDirectoryAreNamedAndEachSeparatedSourceHasItsVerdict() throws Exception {
        String merged = analyze(tmp.resolve("merged"), null);
        List<String> warnings = merged.lines().filter(l -> l.startsWith("warning: ")).toList();
        assertEquals(1, warnings.size(), merged);
        String w = warnings.get(0);
        assertTrue(w.contains("the 19 files of source labs do not follow on from each other"), w);
        assertTrue(w.contains("18 of 18 boundaries between its files are gaps"), w);
        assertTrue(w.endsWith("analyze them with --source-by file"), w);
        // the report's verdict carries the same warning
        String page = java.nio.file.Files.readString(tmp.resolve("merged").resolve("report.html"));
        assertTrue(page.contains("Warning: the 19 files of source labs do not follow on from each other"),
                "the report warns");
        Matcher one = SOURCE_LINE.matcher(merged);
        assertTrue(one.find(), "the merged source's verdict: " + merged);
        assertEquals("labs", one.group(1));

        String separate = analyze(tmp.resolve("separate"), "file");
        assertFalse(separate.contains("warning: "), separate);
        Matcher m = SOURCE_LINE.matcher(separate);
        int sources = 0;
        java.util.Set<String> checked = new java.util.HashSet<>();
        while (m.find()) {
            sources++;
            String lab = m.group(1).substring(m.group(1).lastIndexOf('/') + 1).replace(".pcap.gz", "");
            double share = Double.parseDouble(m.group(3)), explained = Double.parseDouble(m.group(4));
            assertTrue(explained >= share && explained <= 100, m.group());
            assertEquals(100, explained + Double.parseDouble(m.group(5)), 0.11, m.group());
            String expected = VERDICTS.get(lab);
            if (expected != null) {
                assertEquals(expected, m.group(2), m.group());
                checked.add(lab);
            }
        }
        assertEquals(19, sources, separate);
        String separatePage = java.nio.file.Files.readString(tmp.resolve("separate").resolve("report.html"));
        assertFalse(separatePage.contains("do not follow on"), "no warning once separated");
        assertTrue(separatePage.contains("<td>SERVER_PROCESSING at 10.218.0.2:8080, 100.0% of its response time"),
                "each source's verdict in the sources table");
        assertEquals(VERDICTS.keySet(), checked, separate);
    }
}
