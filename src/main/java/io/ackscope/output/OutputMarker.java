package io.ackscope.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ackscope.capture.Archive;
import io.ackscope.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code DIR/_SUCCESS} marker of an {@code analyze} output: a JSON object with {@code "tool":"ackscope"}, the
 * run's summary, {@code "tables"} (table name to row count) and {@code "output_files"} (the manifest: every file the run
 * wrote, as paths relative to {@code DIR} with {@code /} separators, the marker itself excepted).
 *
 * <p>An output is <em>complete</em> when its marker parses, identifies ackscope, names at least one table, and
 * each table it names is a directory in {@code DIR}. Readers accept nothing less ({@link #requireComplete}). The
 * writer renames the marker into place last, so a directory that passes this check was fully committed.
 *
 * <p>Markers written before the manifest existed have no {@code "output_files"} (their {@code "files"} is the
 * number of capture files, as in every summary); their output's own entries are then the
 * tables and {@code report.html} ({@link #entries}).
 */
public record OutputMarker(Map<String, Long> tables, List<String> files, boolean hasManifest, JsonNode json) {
    /** The manifest's key; not {@code "files"}, which the summary uses for the number of capture files read. */
    static final String MANIFEST = "output_files";

    /** The marker's file name in the output directory. */
    public static final String FILE = "_SUCCESS";
    /** The report analyze writes next to the tables. */
    public static final String REPORT = "report.html";

    /** A marker that is missing, empty, not JSON, not ackscope's or names no tables. */
    public static final class Invalid extends IOException {
        public Invalid(String message) {
            super(message);
        }
    }

    /**
     * Parses a marker's text.
     *
     * @param where names the marker in error messages
     */
    public static OutputMarker parse(String text, String where) throws Invalid {
        if (text.isBlank()) {
            throw new Invalid(where + " is empty");
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Invalid(where + " is not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject() || !"ackscope".equals(root.path("tool").asText(null))) {
            throw new Invalid(where + " was not written by ackscope");
        }
        JsonNode t = root.path("tables");
        if (!t.isObject() || t.isEmpty()) {
            throw new Invalid(where + " names no tables");
        }
        Map<String, Long> tables = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!safeName(e.getKey()) || !e.getValue().canConvertToLong()) {
                throw new Invalid(where + " has a bad table entry: " + e.getKey());
            }
            tables.put(e.getKey(), e.getValue().asLong());
        }
        JsonNode f = root.get(MANIFEST);
        List<String> files = new ArrayList<>();
        if (f != null) {
            if (!f.isArray()) {
                throw new Invalid(where + " has a bad file list");
            }
            for (JsonNode n : f) {
                String p = n.asText("");
                if (!n.isTextual() || !safePath(p)) {
                    throw new Invalid(where + " lists a bad file name: " + n);
                }
                files.add(p);
            }
        }
        return new OutputMarker(Map.copyOf(tables), List.copyOf(files), f != null, root);
    }

    /**
     * {@code summaryJson} (a JSON object with {@code "tool":"ackscope"} and {@code "tables"}) with the manifest
     * {@code files} added: the text of a marker.
     */
    public static String withFiles(String summaryJson, Collection<String> files) {
        try {
            ObjectNode root = (ObjectNode) Json.MAPPER.readTree(summaryJson);
            ArrayNode a = root.putArray(MANIFEST);
            files.forEach(a::add);
            String text = Json.MAPPER.writeValueAsString(root) + "\n";
            parse(text, "the new marker");
            return text;
        } catch (IOException | ClassCastException e) {
            throw new IllegalArgumentException("not an ackscope summary: " + summaryJson, e);
        }
    }

    /** A number from the summary ({@code frames}, {@code connections}, ...), or -1. */
    public long number(String field) {
        return json.path(field).asLong(-1);
    }

    /**
     * The output's own top-level entries (the marker excepted): the first component of each manifest path, or,
     * for a marker without a manifest, the tables and {@code report.html}.
     */
    public Set<String> entries() {
        Set<String> s = new LinkedHashSet<>();
        if (!hasManifest) {
            s.addAll(tables.keySet());
            s.add(REPORT);
            return s;
        }
        for (String p : files) {
            int slash = p.indexOf('/');
            s.add(slash < 0 ? p : p.substring(0, slash));
        }
        return s;
    }

    /**
     * Reads the marker of the local output directory {@code dir} and checks that the output is complete.
     *
     * @throws IOException naming {@code dir} and what is missing
     */
    public static OutputMarker requireComplete(Path dir) throws IOException {
        Path marker = dir.resolve(FILE);
        String text;
        try {
            text = Files.readString(marker, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            if (!Files.isDirectory(dir)) {
                throw new Invalid(dir + " is not a complete ackscope analyze output (no such directory)");
            }
            throw new Invalid(dir + " is not a complete ackscope analyze output (no " + FILE + " marker"
                    + (interrupted(dir) ? "; an analyze run on it was interrupted: ackscope report " + dir
                    + " or the next analyze --out " + dir + " completes or removes it" : "") + ")");
        }
        OutputMarker m;
        try {
            m = parse(text, marker.toString());
        } catch (Invalid e) {
            throw new Invalid(dir + " is not a complete ackscope analyze output: " + e.getMessage());
        }
        for (String t : m.tables.keySet()) {
            if (!Files.isDirectory(dir.resolve(t))) {
                throw new Invalid(dir + " is not a complete ackscope analyze output: table " + t
                        + " is missing");
            }
        }
        return m;
    }

    private static boolean interrupted(Path dir) {
        try (var s = Files.list(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith(Archive.STAGING_PREFIX));
        } catch (IOException e) {
            return false;
        }
    }

    /** A table name: a plain file name that is not hidden. */
    private static boolean safeName(String s) {
        return !s.isEmpty() && !s.startsWith(".") && !s.startsWith("_") && s.indexOf('/') < 0
                && s.indexOf('\\') < 0;
    }

    /** A relative path inside the output that does not climb out of it or name the marker. */
    private static boolean safePath(String p) {
        if (p.isEmpty() || p.startsWith("/") || p.equals(FILE) || p.indexOf('\\') >= 0) {
            return false;
        }
        for (String part : p.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
