package io.ackscope.tables;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Lays the tables of a flat output (schema versions up to 3: {@code TABLE/*.parquet}) out as version 4 does, for the
 * tests of the readers: engine tables and {@code capture_files} under {@code source=ESC/date=YYYY-MM-DD/}, the small
 * per-source tables under {@code source=ESC/}, the vantage tables flat. Only for an output of one source and one
 * UTC day, whose every row then belongs in that one partition; files are moved, not rewritten. A table already
 * partitioned (an output of the version-4 writer) is left as it is.
 */
public final class HiveLayout {
    private HiveLayout() {
    }

    /** The tables partitioned by source only. */
    public static final Set<String> BY_SOURCE = Set.of("latency_summary", "findings", "sources");
    /** The tables not partitioned. */
    public static final Set<String> FLAT = Set.of("source_pairs", "host_times", "one_way_delays");

    /**
     * Hive's escaping of a partition value in a path, as Spark's {@code ExternalCatalogUtils.escapePathName}:
     * control characters, DEL, the slash and {@code "#%'*:=?\[]^} and the opening brace become {@code %XX}.
     */
    public static String escape(String value) {
        StringBuilder sb = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (c < 0x20 || c == 0x7F || "\"#%'*/:=?\\{[]^".indexOf(c) >= 0) {
                sb.append('%').append(String.format("%02X", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The directory below a table's where a table's rows of {@code source} on {@code date} go. */
    public static Path partition(Path tableDir, String source, String date) {
        String table = tableDir.getFileName().toString();
        if (FLAT.contains(table)) {
            return tableDir;
        }
        Path bySource = tableDir.resolve("source=" + escape(source));
        return BY_SOURCE.contains(table) ? bySource : bySource.resolve("date=" + date);
    }

    /**
     * Moves the Parquet files of each flat table of {@code out} (one source, one day) into its partition
     * directory; those of the unpartitioned tables renamed {@code prefix + name}, as several outputs laid into one
     * share their directories.
     *
     * @param into the output to move them into ({@code out} itself, or another)
     */
    public static void partition(Path out, String source, String date, Path into, String prefix) throws IOException {
        try (Stream<Path> tables = Files.list(out)) {
            for (Path t : tables.filter(Files::isDirectory).sorted().toList()) {
                String name = t.getFileName().toString();
                if (name.startsWith("_") || name.startsWith(".")) {
                    continue;
                }
                Path to = Files.createDirectories(partition(into.resolve(name), source, date));
                for (Path f : flatFiles(t)) {
                    Files.move(f, to.resolve((FLAT.contains(name) ? prefix : "") + f.getFileName()));
                }
            }
        }
    }

    /**
     * Partitions the flat tables of {@code out} in place, by the one source and UTC day of its
     * {@code capture_files}.
     *
     * @throws IllegalArgumentException when its files are of several sources or days
     */
    public static void partition(Path out) throws IOException {
        java.util.Set<String> sources = new java.util.TreeSet<>();
        java.util.Set<String> days = new java.util.TreeSet<>();
        TableReader.scan(out, CaptureFilesTable.TABLE, List.of(CaptureFilesTable.SOURCE,
                CaptureFilesTable.FIRST_TIME, CaptureFilesTable.LAST_TIME), b -> {
            for (int i = 0; i < b.rows; i++) {
                sources.add(b.strings(CaptureFilesTable.SOURCE)[i]);
                for (Column c : List.of(CaptureFilesTable.FIRST_TIME, CaptureFilesTable.LAST_TIME)) {
                    if (b.longs(c).present[i]) {
                        days.add(day(b.longs(c).values[i]));
                    }
                }
            }
        });
        if (sources.size() != 1 || days.size() != 1) {
            throw new IllegalArgumentException(out + ": not one source on one day: " + sources + " " + days);
        }
        partition(out, sources.iterator().next(), days.iterator().next(), out, "");
    }

    private static String day(long micros) {
        java.time.Instant t = java.time.Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS);
        return java.time.LocalDate.ofInstant(t, java.time.ZoneOffset.UTC).toString();
    }

    /** The Parquet files directly in a table directory, sorted. */
    public static List<Path> flatFiles(Path tableDir) throws IOException {
        try (Stream<Path> s = Files.list(tableDir)) {
            return s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".parquet"))
                    .sorted().toList();
        }
    }
}
