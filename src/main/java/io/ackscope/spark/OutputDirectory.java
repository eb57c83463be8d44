package io.ackscope.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * The output directory of one {@code analyze} run, committed atomically enough that a failed run never leaves a
 * table that looks complete.
 *
 * <p>Tables are written under a hidden staging directory {@code DIR/_ackscope_staging_<id>/} (Spark and Hive skip
 * names starting with {@code _}); each finished table there gets its own {@code _SUCCESS}. {@link #commit} then
 * renames each table into {@code DIR/} (a rename within one filesystem) and writes {@code DIR/_SUCCESS} last, with a
 * JSON summary of the run. So: a table directory under {@code DIR} is complete (it carries {@code _SUCCESS}); the run
 * is complete when {@code DIR/_SUCCESS} exists; a run that failed leaves at most the hidden staging directory, which
 * {@link #abort} removes.
 *
 * <p>A non-empty {@code DIR} is refused unless {@code overwrite} is set, and even then only when it holds an
 * earlier ackscope output (its {@code _SUCCESS} marker, or only staging leftovers), so a typing slip cannot wipe
 * an unrelated directory.
 */
public final class OutputDirectory {
    static final String STAGING_PREFIX = "_ackscope_staging_";
    static final String SUCCESS = "_SUCCESS";
    static final String MARKER_TOOL = "\"tool\":\"ackscope\"";

    private final FileSystem fs;
    private final Path dir;
    private final Path staging;
    private final boolean overwrite;

    private OutputDirectory(FileSystem fs, Path dir, Path staging, boolean overwrite) {
        this.fs = fs;
        this.dir = dir;
        this.staging = staging;
        this.overwrite = overwrite;
    }

    /** Checks {@code dir} and creates the staging directory. */
    public static OutputDirectory prepare(String dir, Configuration conf, boolean overwrite) throws IOException {
        Path path = new Path(dir);
        FileSystem fs = path.getFileSystem(conf);
        path = fs.makeQualified(path);
        if (fs.exists(path)) {
            FileStatus st = fs.getFileStatus(path);
            if (!st.isDirectory()) {
                throw new IOException(path + " exists and is not a directory");
            }
            FileStatus[] children = fs.listStatus(path);
            if (children.length > 0) {
                if (!overwrite) {
                    throw new IOException(path + " is not empty (use --overwrite to replace an earlier ackscope "
                            + "output)");
                }
                if (!isAckscopeOutput(fs, path, children)) {
                    throw new IOException(path + " is not empty and is not an ackscope output; not overwriting it");
                }
            }
        }
        Path staging = new Path(path, STAGING_PREFIX + UUID.randomUUID());
        if (!fs.mkdirs(staging)) {
            throw new IOException("cannot create " + staging);
        }
        return new OutputDirectory(fs, path, staging, overwrite);
    }

    private static boolean isAckscopeOutput(FileSystem fs, Path dir, FileStatus[] children) throws IOException {
        Path marker = new Path(dir, SUCCESS);
        if (fs.exists(marker)) {
            try (var in = fs.open(marker)) {
                String text = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
                return text.contains(MARKER_TOOL);
            }
        }
        for (FileStatus c : children) {
            if (!c.getPath().getName().startsWith(STAGING_PREFIX)) {
                return false;
            }
        }
        return true;
    }

    /** The final directory. */
    public Path dir() {
        return dir;
    }

    /** The staging directory (hidden inside the final directory). */
    public Path staging() {
        return staging;
    }

    /** Where a table is staged. */
    public Path staged(String table) {
        return new Path(staging, table);
    }

    public FileSystem fs() {
        return fs;
    }

    /** Marks a staged table complete. */
    public void tableDone(String table) throws IOException {
        touch(new Path(staged(table), SUCCESS), "");
    }

    /**
     * Moves the staged tables into place and writes {@code DIR/_SUCCESS} with {@code summaryJson} (which must carry
     * {@code "tool":"ackscope"}). With overwrite, the earlier output's entries are deleted first, marker first.
     */
    public void commit(List<String> tables, String summaryJson) throws IOException {
        if (!summaryJson.contains(MARKER_TOOL)) {
            throw new IllegalArgumentException("summary must identify ackscope");
        }
        if (overwrite) {
            fs.delete(new Path(dir, SUCCESS), false);
            for (FileStatus c : fs.listStatus(dir)) {
                if (!c.getPath().equals(staging)) {
                    fs.delete(c.getPath(), true);
                }
            }
        }
        for (String t : tables) {
            Path from = staged(t);
            Path to = new Path(dir, t);
            if (!fs.rename(from, to)) {
                throw new IOException("cannot move " + from + " to " + to);
            }
        }
        fs.delete(staging, true);
        touch(new Path(dir, SUCCESS), summaryJson);
    }

    /** Removes the staging directory (best effort; the final directory is left as it was). */
    public void abort() {
        try {
            fs.delete(staging, true);
        } catch (IOException e) {
            // Nothing more to do: the staging directory is hidden and the next --overwrite removes it.
        }
    }

    private void touch(Path p, String content) throws IOException {
        try (FSDataOutputStream out = fs.create(p, true)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }
}
