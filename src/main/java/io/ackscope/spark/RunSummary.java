package io.ackscope.spark;

import io.ackscope.capture.Archive;
import io.ackscope.tcp.FrameFilter;
import io.ackscope.json.Json;
import io.ackscope.spark.carry.ArchiveInputs;
import io.ackscope.tables.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a run wrote, for the console summary and the {@code _SUCCESS} marker: {@code files}, {@code bytes},
 * {@code frames}, {@code connections} and the table rows are those this run read and wrote (a run that appends
 * reads only its new files); {@code outputFiles} is the capture files the output holds after it. Made by name
 * through {@link Builder}.
 */
public record RunSummary(String out, int files, long bytes, long frames, long tcpFrames, long filteredFrames,
                         long connections, long attemptsEvicted, Map<String, Long> tableRows, List<String> damaged,
                         double seconds, Map<String, Double> phaseSeconds, int readTasks, int splitFiles,
                         Map<String, String> taskTime, int sources, List<Archive.Skipped> notRead,
                         FrameFilter filter, List<String> heldBack, boolean nothingNew, int outputFiles) {

    /**
     * Paths found in the inputs and not read, and why: files in directories that are not captures (by magic), ackscope
     * outputs, link loops, copies. None of them is damage: {@code --strict} does not fail on them.
     */
    static List<Archive.Skipped> notRead(Archive archive) {
        List<Archive.Skipped> out = new ArrayList<>();
        if (archive != null) {
            out.addAll(archive.skipped());
            for (Archive.Copy c : archive.copies()) {
                out.add(new Archive.Skipped(c.path(), "a copy of " + c.of()));
            }
        }
        return out;
    }

    /** An incremental run that found nothing new: it wrote nothing. */
    static RunSummary nothingNew(String out, ArchiveInputs in, double seconds) {
        return new Builder(out).files(in.archive.files().size()).seconds(seconds)
                .sources(in.archive.sources().size()).notRead(notRead(in.archive))
                .heldBack(in.heldBack).nothingNew().outputFiles(in.archive.files().size()).build();
    }

    /**
     * A summary by name: what is not set is zero or empty (a run that read nothing), with no frame filter.
     * Build summaries through this, never by position.
     */
    static final class Builder {
        private final String out;
        private int files;
        private long bytes;
        private long frames;
        private long tcpFrames;
        private long filteredFrames;
        private long connections;
        private long attemptsEvicted;
        private Map<String, Long> tableRows = Map.of();
        private List<String> damaged = List.of();
        private double seconds;
        private Map<String, Double> phaseSeconds = Map.of();
        private int readTasks;
        private int splitFiles;
        private Map<String, String> taskTime = Map.of();
        private int sources;
        private List<Archive.Skipped> notRead = List.of();
        private FrameFilter filter = FrameFilter.NONE;
        private List<String> heldBack = List.of();
        private boolean nothingNew;
        private int outputFiles;

        Builder(String out) {
            this.out = out;
        }

        /** The capture files the run read, and their bytes. */
        Builder files(int files) {
            this.files = files;
            return this;
        }

        Builder bytes(long bytes) {
            this.bytes = bytes;
            return this;
        }

        /** Frames read, of which TCP, and those the frame filter left out. */
        Builder frames(long frames, long tcpFrames, long filteredFrames) {
            this.frames = frames;
            this.tcpFrames = tcpFrames;
            this.filteredFrames = filteredFrames;
            return this;
        }

        Builder connections(long connections, long attemptsEvicted) {
            this.connections = connections;
            this.attemptsEvicted = attemptsEvicted;
            return this;
        }

        /** Rows written per table; the damaged files. */
        Builder tables(Map<String, Long> tableRows, List<String> damaged) {
            this.tableRows = tableRows;
            this.damaged = damaged;
            return this;
        }

        Builder seconds(double seconds) {
            this.seconds = seconds;
            return this;
        }

        /** Wall seconds per phase, and task time per phase ({@link StageTimes#describe}). */
        Builder phases(Map<String, Double> phaseSeconds, Map<String, String> taskTime) {
            this.phaseSeconds = phaseSeconds;
            this.taskTime = taskTime;
            return this;
        }

        /** Read tasks, and files read in two or more splits. */
        Builder tasks(int readTasks, int splitFiles) {
            this.readTasks = readTasks;
            this.splitFiles = splitFiles;
            return this;
        }

        Builder sources(int sources) {
            this.sources = sources;
            return this;
        }

        Builder notRead(List<Archive.Skipped> notRead) {
            this.notRead = notRead;
            return this;
        }

        Builder filter(FrameFilter filter) {
            this.filter = filter;
            return this;
        }

        /** Files the settle rule held back. */
        Builder heldBack(List<String> heldBack) {
            this.heldBack = heldBack;
            return this;
        }

        /** An incremental run that found nothing new. */
        Builder nothingNew() {
            this.nothingNew = true;
            return this;
        }

        /** The capture files the output holds after the run. */
        Builder outputFiles(int outputFiles) {
            this.outputFiles = outputFiles;
            return this;
        }

        RunSummary build() {
            return new RunSummary(out, files, bytes, frames, tcpFrames, filteredFrames, connections,
                    attemptsEvicted, tableRows, damaged, seconds, phaseSeconds, readTasks, splitFiles, taskTime,
                    sources, notRead, filter, heldBack, nothingNew, outputFiles);
        }
    }

    /** The summary {@code _SUCCESS} starts from ({@code OutputMarker} adds the file list). */
    public String json() {
        return Json.string(w -> {
            w.writeStartObject();
            w.writeStringField("tool", "ackscope");
            w.writeStringField("command", "analyze");
            w.writeNumberField("schema_version", TableSchema.VERSION);
            w.writeNumberField("files", files);
            w.writeNumberField("bytes", bytes);
            w.writeNumberField("frames", frames);
            w.writeNumberField("tcp_frames", tcpFrames);
            w.writeNumberField("filtered_frames", filteredFrames);
            w.writeNumberField("connections", connections);
            w.writeNumberField("attempts_evicted", attemptsEvicted);
            w.writeFieldName("seconds");
            Json.number(w, seconds, 3);
            w.writeObjectFieldStart("tables");
            for (Map.Entry<String, Long> e : tableRows.entrySet()) {
                w.writeNumberField(e.getKey(), e.getValue());
            }
            w.writeEndObject();
            w.writeNumberField("damaged_files", damaged.size());
            w.writeNumberField("sources", sources);
            w.writeNumberField("paths_not_read", notRead.size());
            w.writeArrayFieldStart("skipped_inputs");
            for (Archive.Skipped n : notRead) {
                w.writeStartObject();
                w.writeFieldName("path");
                Json.string(w, n.path());
                w.writeFieldName("reason");
                Json.string(w, n.reason());
                w.writeEndObject();
            }
            w.writeEndArray();
            w.writeArrayFieldStart("held_back");
            for (String h : heldBack) {
                Json.string(w, h);
            }
            w.writeEndArray();
            w.writeObjectFieldStart("filters");
            for (Map.Entry<String, Object> e : filter.describe().entrySet()) {
                w.writeFieldName(e.getKey());
                if (e.getValue() instanceof List<?> l) {
                    w.writeStartArray();
                    for (Object v : l) {
                        w.writeString(v.toString());
                    }
                    w.writeEndArray();
                } else {
                    w.writeString(e.getValue().toString());
                }
            }
            w.writeEndObject();
            w.writeEndObject();
        }) + "\n";
    }
}
