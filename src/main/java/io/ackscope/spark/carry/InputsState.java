package io.ackscope.spark.carry;

import io.ackscope.json.Json;
import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.engine.SourceRows;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * {@code DIR/_ackscope_state/inputs.json}: one entry per capture file the output's rows come from, so that
 * {@code analyze --incremental} can tell new and changed files from those already analysed. A file is the same file
 * when its path (as listed), size, modification time and the CRC32C of its first and last {@value #BLOCK} bytes
 * are ({@link Fingerprint}): a file rewritten in place with the same size and time but other bytes at either end
 * is told apart; one changed only in its middle with its time kept is not (rsync and tcpdump never do that).
 *
 * <p>Committed with the tables (it is in the manifest); the leading {@code _} of its directory hides it from
 * Spark, Hive, DuckDB and the archive listing.
 */
public final class InputsState {
    private InputsState() {
    }

    /** Bytes read at each end of a file for its checksums. */
    static final int BLOCK = 16 * 1024;
    /** 2: with each source's figures and held state ({@link Source}); a version-1 state is analysed again whole. */
    static final int VERSION = 2;

    /** What identifies a file's content without reading it whole. */
    public record Fingerprint(long size, long mtimeMillis, long crcFirst, long crcLast) {
    }

    /**
     * One analysed input.
     *
     * @param fileIndex  its position in its source (time order), {@code file_index} in the tables
     * @param firstNanos its first record's time, {@link Long#MIN_VALUE} when none
     * @param lastNanos  its last record's time, {@link Long#MIN_VALUE} when none
     * @param run        the run that analysed it
     */
    record Input(String path, String source, int fileIndex, Fingerprint fingerprint, long frames, long firstNanos,
                 long lastNanos, String run) {
    }

    /** The fingerprint of {@code path} now; a FIFO or device is not read (its one read is the run's). */
    public static Fingerprint fingerprint(FileSystem fs, Path path) throws IOException {
        FileStatus st = fs.getFileStatus(path);
        long size = st.getLen();
        if (io.ackscope.spark.source.CapturePlanner.streamOnly(path.toString())) {
            return new Fingerprint(size, st.getModificationTime(), 0, 0); // a FIFO or device: the run reads it once
        }
        try (FSDataInputStream in = fs.open(path)) {
            long first = crc(in, 0, (int) Math.min(BLOCK, size));
            long last = crc(in, Math.max(0, size - BLOCK), (int) Math.min(BLOCK, size));
            return new Fingerprint(size, st.getModificationTime(), first, last);
        }
    }

    private static long crc(FSDataInputStream in, long from, int n) throws IOException {
        byte[] b = new byte[n];
        in.readFully(from, b);
        CRC32C c = new CRC32C();
        c.update(b);
        return c.getValue();
    }

    /**
     * What the committed output's rows were made from.
     *
     * @param files   the inputs, by path
     * @param options the options that shape the rows ({@link ArchiveInputs.Request#options}), null when unknown
     */
    /**
     * @param paired the pairs of sources whose connections were paired ({@code source_pairs} rows) by the last run
     *               that read every file
     */
    /**
     * @param problem why the output's state cannot be used (it does not parse, is of another version or fails
     *                {@link StateCheck}), null when it can or there is none: everything is then analysed again, and
     *                the run says this reason
     */
    record State(Map<String, Input> files, String options, Map<String, Source> sources, long paired,
                 String problem) {
        static final State NONE = new State(Map.of(), null, Map.of(), 0, null);

        static State unusable(String why) {
            return new State(Map.of(), null, Map.of(), 0, why);
        }
    }

    /**
     * What a run that appends files to a source needs of the runs before ({@code analyze --incremental}).
     *
     * @param totals what the source's row of {@code sources} sums so far
     * @param start  where its numbering goes on
     * @param held   the directory (relative to {@code DIR}) of the run's carried state that holds the source's open
     *               connections and final aggregates ({@link CarriedState}, {@link
     * FinalAggregates}); null when
     *               the run carried nothing (then the source cannot be appended to)
     * @param tuples whether that directory holds the source's 4-tuples and handshakes ({@link SourceTuples}: kept
     *               in archives of two or more sources)
     */
    record Source(SourceRows.Totals totals, ArchiveNumbering.Start start, String held, boolean tuples) {
    }

    /**
     * The state of the committed output in {@code dir}; {@link State#NONE} when it has none (an output before
     * schema version 4), {@link State#unusable} when it does not parse, is of another version or carries a value
     * {@link StateCheck} refuses (then everything is analysed again: the state only saves work).
     */
    static State read(FileSystem fs, Path dir) throws IOException {
        Map<String, Input> out = new LinkedHashMap<>();
        JsonNode root;
        try (FSDataInputStream in = fs.open(new Path(dir, CarriedState.INPUTS))) {
            root = Json.MAPPER.readTree(in);
        } catch (FileNotFoundException e) {
            return State.NONE;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return State.unusable("the state " + CarriedState.INPUTS + " does not parse (" + e.getOriginalMessage() + ")");
        } catch (org.apache.hadoop.fs.ChecksumException e) {
            return State.unusable("the state " + CarriedState.INPUTS + " was changed since it was written (its checksum differs)");
        }
        if (root == null || !root.isObject()) {
            return State.unusable("the state " + CarriedState.INPUTS + " is not a JSON object");
        }
        if (root.path("version").asInt() != VERSION) {
            return State.unusable("the state " + CarriedState.INPUTS + " is of version " + root.path("version") + ", not " + VERSION);
        }
        for (JsonNode n : root.path("files")) {
            Input i = new Input(n.path("path").asText(), n.path("source").asText(), n.path("file_index").asInt(),
                    new Fingerprint(n.path("size").asLong(), n.path("mtime_ms").asLong(),
                            n.path("crc32c_first").asLong(), n.path("crc32c_last").asLong()),
                    n.path("frames").asLong(), time(n.get("first_time_ns")), time(n.get("last_time_ns")),
                    n.path("run").asText());
            out.put(i.path(), i);
        }
        Map<String, Source> sources = new LinkedHashMap<>();
        for (JsonNode n : root.path("sources")) {
            java.util.List<io.ackscope.capture.FileGap> gaps = new java.util.ArrayList<>();
            for (JsonNode g : n.path("gaps")) {
                gaps.add(new io.ackscope.capture.FileGap(g.path(0).asInt(), g.path(1).asLong(), g.path(2).asLong()));
            }
            sources.put(n.path("name").asText(), new Source(
                    new SourceRows.Totals(n.path("files").asInt(), n.path("file_bytes").asLong(),
                            n.path("frames").asLong(), n.path("captured_bytes").asLong(),
                            n.path("first_time_ns").asLong(Long.MAX_VALUE), n.path("last_time_ns").asLong(Long.MIN_VALUE),
                            n.path("overlapping_files").asInt(), n.path("duplicate_frames").asLong()),
                    new ArchiveNumbering.Start(n.path("files").asInt(), n.path("frame_base").asLong(),
                            n.path("connections").asLong(), n.path("last_record_ns").asLong(Long.MIN_VALUE),
                            n.path("max_step_ns").asLong(), gaps),
                    n.path("held").asText(null), n.path("tuples").asBoolean()));
        }
        String invalid = StateCheck.problem(out, sources, System.currentTimeMillis());
        if (invalid != null) {
            return State.unusable("the state " + CarriedState.INPUTS + " is inconsistent: " + invalid);
        }
        return new State(out, root.path("options").asText(null), sources, root.path("paired_sources").asLong(),
                null);
    }

    private static long time(JsonNode n) {
        return n == null || n.isNull() ? Long.MIN_VALUE : n.asLong();
    }

    /** The text of {@code inputs.json} for {@code inputs}, made with {@code options}, without sources' state. */
    public static String json(Collection<Input> inputs, String options) throws IOException {
        return json(inputs, options, Map.of(), 0);
    }

    /** The text of {@code inputs.json} for {@code inputs} and {@code sources} (by name), made with {@code options}. */
    public static String json(Collection<Input> inputs, String options, Map<String, Source> sources, long paired)
            throws IOException {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("version", VERSION).put("options", options).put("paired_sources", paired);
        ArrayNode src = root.putArray("sources");
        sources.forEach((name, so) -> {
            SourceRows.Totals t = so.totals();
            ArchiveNumbering.Start st = so.start();
            ObjectNode n = src.addObject();
            n.put("name", name).put("files", t.files()).put("file_bytes", t.fileBytes()).put("frames", t.frames())
                    .put("captured_bytes", t.captured()).put("first_time_ns", t.first()).put("last_time_ns", t.last())
                    .put("overlapping_files", t.overlapping()).put("duplicate_frames", t.duplicates())
                    .put("frame_base", st.frameBase()).put("connections", st.connections())
                    .put("last_record_ns", st.lastRecord()).put("max_step_ns", st.maxStep());
            ArrayNode gaps = n.putArray("gaps");
            for (io.ackscope.capture.FileGap g : st.gaps()) {
                gaps.addArray().add(g.afterFile()).add(g.start()).add(g.end());
            }
            n.put("held", so.held()).put("tuples", so.tuples());
        });
        ArrayNode files = root.putArray("files");
        for (Input i : inputs) {
            ObjectNode n = files.addObject();
            n.put("path", i.path()).put("source", i.source()).put("file_index", i.fileIndex())
                    .put("size", i.fingerprint().size()).put("mtime_ms", i.fingerprint().mtimeMillis())
                    .put("crc32c_first", i.fingerprint().crcFirst()).put("crc32c_last", i.fingerprint().crcLast())
                    .put("frames", i.frames());
            if (i.firstNanos() != Long.MIN_VALUE) {
                n.put("first_time_ns", i.firstNanos());
            }
            if (i.lastNanos() != Long.MIN_VALUE) {
                n.put("last_time_ns", i.lastNanos());
            }
            n.put("run", i.run());
        }
        return Json.pretty().writeValueAsString(root) + "\n";
    }
}
