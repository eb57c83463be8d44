package io.ackscope.tables;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The two layouts readers must read, for their tests: partitioned as schema version 4 writes tables (engine tables
 * and {@code capture_files} under {@code source=ESC/date=YYYY-MM-DD/}, the small per-source tables under
 * {@code source=ESC/}, the vantage tables flat: {@link #partition}) and flat, as versions up to 3 wrote them
 * ({@code TABLE/*.parquet}: {@link #flatten} moves an output's files there; they are not rewritten).
 */
public final class HiveLayout {
    private HiveLayout() {
    }

    /** The tables partitioned by source only. */
    public static final Set<String> BY_SOURCE = Set.of("latency_summary", "findings", "sources");
    /** The tables not partitioned. */
    public static final Set<String> FLAT = Set.of("source_pairs", "host_times", "one_way_delays");

    /** The directory below a table's where a table's rows of {@code source} on {@code date} go. */
    public static Path partition(Path tableDir, String source, String date) {
        String table = tableDir.getFileName().toString();
        if (FLAT.contains(table)) {
            return tableDir;
        }
        Path bySource = tableDir.resolve(HivePath.sourceDir(source));
        return BY_SOURCE.contains(table) ? bySource : bySource.resolve("date=" + date);
    }

    /**
     * Lays the tables of {@code out} out flat, as schema version 3 and before had them: every Parquet file of a
     * table moved into the table's own directory (named {@code NNNNN-name}, in path order), the emptied partition
     * directories removed.
     */
    public static void flatten(Path out) throws IOException {
        try (Stream<Path> tables = Files.list(out)) {
            for (Path t : tables.filter(Files::isDirectory).sorted().toList()) {
                String name = t.getFileName().toString();
                if (name.startsWith("_") || name.startsWith(".")) {
                    continue;
                }
                List<Path> files = files(t);
                for (int k = 0; k < files.size(); k++) {
                    Files.move(files.get(k), t.resolve(String.format("%05d-", k) + files.get(k).getFileName()));
                }
                try (Stream<Path> dirs = Files.walk(t)) {
                    for (Path d : dirs.filter(d -> !d.equals(t) && Files.isDirectory(d))
                            .sorted(java.util.Comparator.reverseOrder()).toList()) {
                        try (Stream<Path> left = Files.list(d)) {
                            if (left.findAny().isEmpty()) {
                                Files.delete(d);
                            }
                        }
                    }
                }
            }
        }
    }

    /** Every Parquet file below a table directory (flat or partitioned; hidden entries not), in path order. */
    public static List<Path> files(Path tableDir) throws IOException {
        try (Stream<Path> s = Files.walk(tableDir)) {
            return s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".parquet")
                    && !hidden(tableDir.relativize(p))).sorted().toList();
        }
    }

    private static boolean hidden(Path rel) {
        for (Path part : rel) {
            if (part.toString().startsWith("_") || part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }
}
