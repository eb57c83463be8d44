package io.ackscope.tables;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tables of one output directory and which of their part files a reader may read: every part file
 * ({@link #whole}), or only those an output's manifest lists ({@link #listed}), so that a file put into a table's
 * directory by anything but a commit is never counted.
 *
 * @param dir    the output directory, whose sub-directories are the tables
 * @param listed the absolute, normalised paths of the part files that may be read, or null for all of them
 */
public record TableFiles(Path dir, Set<Path> listed) {
    public TableFiles {
        listed = listed == null ? null : Set.copyOf(listed);
    }

    /** Every part file of every table of {@code dir}. */
    public static TableFiles whole(Path dir) {
        return new TableFiles(dir, null);
    }

    /** Only the files of {@code dir} named by {@code relative} (paths relative to it, {@code /}-separated). */
    public static TableFiles listed(Path dir, Collection<String> relative) {
        Set<Path> s = new HashSet<>();
        for (String f : relative) {
            s.add(dir.resolve(f).toAbsolutePath().normalize());
        }
        return new TableFiles(dir, s);
    }

    /** Whether the part file {@code part} may be read. */
    public boolean reads(Path part) {
        return listed == null || listed.contains(part.toAbsolutePath().normalize());
    }

    /** The part files of {@code table} that may be read, in {@link TableReader#parts} order. */
    List<Path> parts(TableSchema table) throws IOException {
        List<Path> all = TableReader.parts(dir.resolve(table.name()));
        return listed == null ? all : all.stream().filter(this::reads).toList();
    }
}
