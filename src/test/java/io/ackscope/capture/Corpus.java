package io.ackscope.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The shared conformance corpus: captures listed in MANIFEST.tsv and tshark's outputs in expected/. */
final class Corpus {
    private Corpus() {
    }

    /** The corpus directory; fails (does not skip) when it is missing. */
    static Path dir() {
        String prop = System.getProperty("ackscope.corpus");
        if (prop == null) {
            throw new IllegalStateException("system property ackscope.corpus is not set (surefire sets it)");
        }
        Path dir = Paths.get(prop).toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve("MANIFEST.tsv"))) {
            throw new IllegalStateException("corpus missing: no MANIFEST.tsv in " + dir);
        }
        return dir;
    }

    /** File names of every capture in the manifest, in manifest order. */
    static List<String> captures() {
        List<String> out = new ArrayList<>();
        for (String line : lines(dir().resolve("MANIFEST.tsv"))) {
            if (!line.startsWith("file\t") && !line.isBlank()) {
                out.add(line.substring(0, line.indexOf('\t')));
            }
        }
        return out;
    }

    static Path capture(String file) {
        return dir().resolve(file);
    }

    /** Rows of expected/FILE.frames.tsv without the header, split on tabs (trailing empty cells kept). */
    static List<String[]> frames(String file) {
        List<String> lines = lines(dir().resolve("expected").resolve(file + ".frames.tsv"));
        List<String[]> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).isEmpty()) {
                rows.add(lines.get(i).split("\t", -1));
            }
        }
        return rows;
    }

    static boolean hasError(String file) {
        return Files.exists(dir().resolve("expected").resolve(file + ".error.txt"));
    }

    static byte[] bytes(String file) {
        try {
            return Files.readAllBytes(capture(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path p) {
        try {
            return Arrays.asList(new String(Files.readAllBytes(p), StandardCharsets.UTF_8).split("\n", -1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
