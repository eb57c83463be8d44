package io.ackscope.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The conformance corpus vendored in the repository ({@code testdata/corpus}): captures listed in MANIFEST.tsv, their
 * checksums in SHA256SUMS and tshark's outputs in expected/. Every test that reads the corpus finds it here, so a
 * missing or altered capture fails with one message naming the file, before any test compares against it.
 */
public final class Corpus {
    private static Path verified;

    private Corpus() {
    }

    /**
     * The corpus directory, after checking (once per JVM) that every capture SHA256SUMS lists is there with its
     * checksum; fails (does not skip) otherwise.
     */
    public static synchronized Path dir() {
        if (verified != null) {
            return verified;
        }
        String prop = System.getProperty("ackscope.corpus");
        if (prop == null) {
            throw new IllegalStateException("system property ackscope.corpus is not set (surefire sets it to "
                    + "testdata/corpus)");
        }
        Path dir = Paths.get(prop).toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve("MANIFEST.tsv")) || !Files.isRegularFile(dir.resolve("SHA256SUMS"))) {
            throw new IllegalStateException("corpus missing: no MANIFEST.tsv or SHA256SUMS in " + dir
                    + " (the corpus is part of the repository: testdata/corpus)");
        }
        List<String> problems = checksumProblems(dir);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("corpus damaged in " + dir + ": " + String.join("; ", problems));
        }
        verified = dir;
        return dir;
    }

    /** What differs between SHA256SUMS and the files beside it: missing files and checksum mismatches. */
    static List<String> checksumProblems(Path dir) {
        List<String> problems = new ArrayList<>();
        for (String line : lines(dir.resolve("SHA256SUMS"))) {
            if (line.isBlank()) {
                continue;
            }
            String want = line.substring(0, 64);
            String file = line.substring(64).trim();
            Path p = dir.resolve(file);
            if (!Files.isRegularFile(p)) {
                problems.add(file + " is missing");
                continue;
            }
            String got = sha256(p);
            if (!got.equals(want)) {
                problems.add(file + " has SHA-256 " + got + ", SHA256SUMS says " + want);
            }
        }
        return problems;
    }

    private static String sha256(Path p) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** File names of every capture in the manifest, in manifest order. */
    public static List<String> captures() {
        List<String> out = new ArrayList<>();
        for (String line : lines(dir().resolve("MANIFEST.tsv"))) {
            if (!line.startsWith("file\t") && !line.isBlank()) {
                out.add(line.substring(0, line.indexOf('\t')));
            }
        }
        return out;
    }

    public static Path capture(String file) {
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
