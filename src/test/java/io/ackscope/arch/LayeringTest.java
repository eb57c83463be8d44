package io.ackscope.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages point one way: {@code cli -> (spark | report | probe | load | lab) -> vantage -> (tcp -> decode ->
 * capture | output | tables)}; {@code vantage} (two capture points lined up) sits under the Spark job, which runs it
 * per partition. {@code output} (an analyze output's marker and lock) and {@code tables} (the table schemas and
 * the Parquet writer and reader) stand beside the engine: the packages above use them; {@code tables} uses nothing
 * of ackscope and no Spark, {@code output} only capture (the staging prefix the listing skips). {@code json} (the one
 * JSON mapper) uses nothing of ackscope and sits at the bottom, for everyone.
 * A sub-package sits below its parent, never the other way; towards other packages a sub-package has the layer it is
 * given here. Inside {@code spark} the rooms have an order of their own ({@link #SPARK_ROOMS}): the driver
 * ({@code spark}) on top, then {@code spark.carry} (what an incremental run keeps), then {@code spark.engine} (the
 * per-partition task) and {@code spark.watch}, then {@code spark.commit} (the output directory and its commit) and
 * {@code spark.views}, and {@code spark.source} (the {@code pcap} data source and the read planning) at the bottom.
 * Reads every main source file, strips comments and string literals, and fails on any reference (import or fully
 * qualified name) to a package at the same or a higher layer. A new package must be given its layer here.
 */
class LayeringTest {

    /** Layer of each package: a package may use only packages of a lower layer. */
    static final Map<String, Integer> LAYER = Map.ofEntries(
            Map.entry("capture", 0), Map.entry("json", 0),
            Map.entry("decode", 1),
            Map.entry("tcp", 2), Map.entry("output", 2), Map.entry("tables", 2),
            Map.entry("vantage", 3), Map.entry("fields", 3),
            Map.entry("spark", 4), Map.entry("spark.source", 4), Map.entry("spark.views", 4),
            Map.entry("spark.commit", 4), Map.entry("spark.watch", 4), Map.entry("spark.engine", 4),
            Map.entry("spark.carry", 4), Map.entry("report", 4), Map.entry("probe", 4),
            Map.entry("load", 4), Map.entry("lab", 4),
            Map.entry("cli", 5));

    /**
     * The rooms of {@code spark} and their order: a room may use only rooms of a lower rank (rooms of one rank do
     * not use each other). A new sub-package of {@code spark} must be given its rank here.
     */
    static final Map<String, Integer> SPARK_ROOMS = Map.of(
            "spark.source", 0,
            "spark.commit", 1, "spark.views", 1,
            "spark.engine", 2, "spark.watch", 2,
            "spark.carry", 3,
            "spark", 4);

    /** A package named in code: lower-case segments after io.ackscope (a class name starts upper case). */
    private static final Pattern REF =
            Pattern.compile("\\bio\\.ackscope\\.([a-z][a-z0-9_]*(?:\\.[a-z][a-z0-9_]*)*)\\b");
    private static final Path MAIN = Path.of("src/main/java/io/ackscope");

    @Test
    void noPackageUsesOneAtItsOwnOrAHigherLayer() throws IOException {
        List<String> upward = new ArrayList<>();
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String pkg = MAIN.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), ".");
                packages.add(pkg);
                upward.addAll(violations(pkg, f.getFileName().toString(), read(f)));
            }
        }
        assertEquals(new TreeSet<>(LAYER.keySet()), packages,
                "every package under io.ackscope has a layer in LayeringTest.LAYER");
        assertEquals(List.of(), upward, "references against the layering");
    }

    /** The tables package is read by the report and the lab, which must not need Spark on their class path. */
    @Test
    void theTablesPackageUsesNoSpark() throws IOException {
        List<String> spark = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN.resolve("tables"))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                if (SPARK.matcher(stripCommentsAndStrings(read(f))).find()) {
                    spark.add(f.getFileName().toString());
                }
            }
        }
        assertEquals(List.of(), spark, "tables sources that use Spark");
    }

    private static final Pattern SPARK = Pattern.compile("\\borg\\.apache\\.spark\\b");

    @Test
    void findsAnUpwardImportAndAFullyQualifiedUpwardReferenceButNotOneInAComment() {
        String source = """
                package io.ackscope.tcp;
                import io.ackscope.decode.PacketDecoder;
                import io.ackscope.spark.Analyze;
                /** See {@link io.ackscope.report.Report} for where this ends up. */
                class X {
                    // io.ackscope.cli.Main calls us
                    String s = "io.ackscope.lab.Lab";
                    Object o = new io.ackscope.load.LoadRun(null);
                }
                """;
        assertEquals(List.of("tcp/X.java -> spark", "tcp/X.java -> load"), violations("tcp", "X.java", source));
    }

    @Test
    void aPackageWithoutALayerIsNamed() {
        assertEquals(List.of("capture/Y.java -> widgets (no layer)"),
                violations("capture", "Y.java", "import io.ackscope.widgets.Schema; class Y {}"));
    }

    @Test
    void aSubPackageMayNotUseItsParentButTheParentMayUseIt() {
        String source = "import io.ackscope.spark.Analyze; import io.ackscope.spark.source.CaptureFile; class X {}";
        assertEquals(List.of("spark.source/X.java -> spark"), violations("spark.source", "X.java", source));
        assertEquals(List.of(),
                violations("spark", "X.java", "import io.ackscope.spark.source.CaptureFile; class X {}"));
    }

    @Test
    void everyRoomOfSparkHasARank() {
        for (String pkg : LAYER.keySet()) {
            assertEquals(top(pkg).equals("spark"), SPARK_ROOMS.containsKey(pkg), pkg + " in SPARK_ROOMS");
        }
    }

    @Test
    void aSparkRoomUsesOnlyRoomsBelowIt() {
        String carry = "import io.ackscope.spark.engine.EngineTask; import io.ackscope.spark.commit.TaskOutput; "
                + "import io.ackscope.spark.source.ReadPlan; class C {}";
        assertEquals(List.of(), violations("spark.carry", "C.java", carry));
        assertEquals(List.of("spark.engine/E.java -> spark.carry", "spark.engine/E.java -> spark"),
                violations("spark.engine", "E.java",
                        "import io.ackscope.spark.carry.Continuation; import io.ackscope.spark.Analyze; class E {}"));
        assertEquals(List.of("spark.commit/W.java -> spark.views"), violations("spark.commit", "W.java",
                "class W { Object v = io.ackscope.spark.views.OutputViews.class; }"));
        assertEquals(List.of("spark.engine/W.java -> spark.watch"),
                violations("spark.engine", "W.java", "import io.ackscope.spark.watch.WatchLoop; class W {}"));
    }

    static List<String> violations(String pkg, String file, String source) {
        Integer own = LAYER.get(pkg);
        assertTrue(own != null, "package " + pkg + " has no layer in LayeringTest.LAYER");
        List<String> out = new ArrayList<>();
        Matcher m = REF.matcher(stripCommentsAndStrings(source));
        while (m.find()) {
            String target = m.group(1);
            if (target.equals(pkg) || target.startsWith(pkg + ".")) {
                continue;   // its own package or a sub-package of it
            }
            Integer layer = LAYER.get(target);
            boolean sameTree = top(target).equals(top(pkg));   // a parent or a sibling in the same tree
            boolean upward = sameTree && SPARK_ROOMS.containsKey(pkg) && SPARK_ROOMS.containsKey(target)
                    ? SPARK_ROOMS.get(target) >= SPARK_ROOMS.get(pkg) : sameTree || layer != null && layer >= own;
            if (layer == null) {
                out.add(pkg + "/" + file + " -> " + target + " (no layer)");
            } else if (upward && !out.contains(pkg + "/" + file + " -> " + target)) {
                out.add(pkg + "/" + file + " -> " + target);
            }
        }
        return out;
    }

    private static String top(String pkg) {
        int dot = pkg.indexOf('.');
        return dot < 0 ? pkg : pkg.substring(0, dot);
    }

    /** The source with comments, string and character literals and text blocks replaced by spaces. */
    static String stripCommentsAndStrings(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? s.length() : end + 2;
                out.append(' ');
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                i = end < 0 ? s.length() : end + 3;
                out.append(' ');
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < s.length() && s.charAt(i) != c && s.charAt(i) != '\n') {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append(' ');
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String read(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
