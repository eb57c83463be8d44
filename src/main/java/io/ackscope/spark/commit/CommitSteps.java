package io.ackscope.spark.commit;

import com.fasterxml.jackson.databind.JsonNode;
import io.ackscope.json.Json;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

import static io.ackscope.spark.commit.OutputDirectory.COMMIT_RECORD;
import static io.ackscope.spark.commit.OutputDirectory.STAGING_PREFIX;
import static io.ackscope.spark.commit.OutputDirectory.SUCCESS;
import static io.ackscope.spark.commit.OutputDirectory.TRASH;

/**
 * The filesystem steps of {@link OutputDirectory}'s commit that a run and a later recovery both take: rolling a
 * staging directory with a commit record forward (steps 3 to 7 of the protocol in {@code OutputDirectory}'s class
 * comment), writing a file atomically, and the test hook that stops a run at a named step. Every step is idempotent
 * given what is still in staging, which is what lets recovery repeat them.
 */
public final class CommitSteps {
    private CommitSteps() {
    }

    /** Completes or removes what interrupted runs left in {@code dir} (the caller holds the lock). */
    static void recover(FileSystem fs, Path dir) throws IOException {
        for (FileStatus c : fs.listStatus(dir)) {
            if (!c.isDirectory() || !c.getPath().getName().startsWith(STAGING_PREFIX)) {
                continue;
            }
            if (fs.exists(new Path(c.getPath(), COMMIT_RECORD))) {
                rollForward(fs, dir, c.getPath());
            } else {
                fs.delete(c.getPath(), true);
            }
        }
    }

    /** Steps 3 to 7 of the commit from wherever they stopped (see {@link OutputDirectory}). */
    static void rollForward(FileSystem fs, Path dir, Path staging) throws IOException {
        JsonNode record;
        try (FSDataInputStream in = fs.open(new Path(staging, COMMIT_RECORD))) {
            record = Json.MAPPER.readTree(in);
        }
        Set<String> added = new LinkedHashSet<>();
        record.path("add").forEach(n -> added.add(n.asText()));
        Path trash = new Path(staging, TRASH);
        fs.mkdirs(trash);
        Path stagedMarker = new Path(staging, SUCCESS);
        Path marker = new Path(dir, SUCCESS);
        if (fs.exists(stagedMarker) && fs.exists(marker)) {
            rename(fs, marker, new Path(trash, SUCCESS));
            step("old-marker-moved");
        }
        Set<Path> emptied = new LinkedHashSet<>();
        for (JsonNode n : record.path("retire")) {
            String f = n.asText();
            if (added.contains(f) && !fs.exists(new Path(staging, f))) {
                continue; // already replaced by the new file
            }
            Path p = new Path(dir, f);
            if (fs.exists(p)) {
                moveInto(fs, p, new Path(trash, f));
                step("old-entry-moved");
            }
            emptied.add(p.getParent());
        }
        for (String f : added) {
            Path p = new Path(staging, f);
            if (fs.exists(p)) {
                moveInto(fs, p, new Path(dir, f));
                step("new-entry-moved");
            }
        }
        for (Path d : emptied) {
            removeEmpty(fs, d, dir);
        }
        if (fs.exists(stagedMarker)) {
            rename(fs, stagedMarker, marker);
            step("marker-moved");
        }
        fs.delete(staging, true);
    }

    /** Renames {@code from} to {@code to}, creating {@code to}'s directory first. */
    private static void moveInto(FileSystem fs, Path from, Path to) throws IOException {
        fs.mkdirs(to.getParent());
        rename(fs, from, to);
    }

    /** Deletes {@code d} and its parents below {@code top} while they are empty (retired partitions). */
    private static void removeEmpty(FileSystem fs, Path d, Path top) throws IOException {
        Path root = fs.makeQualified(top);
        for (Path p = fs.makeQualified(d); p != null && !p.equals(root) && p.depth() > root.depth();
             p = p.getParent()) {
            if (!fs.exists(p) || fs.listStatus(p).length > 0 || !fs.delete(p, false)) {
                return;
            }
        }
    }

    private static void rename(FileSystem fs, Path from, Path to) throws IOException {
        if (!fs.rename(from, to)) {
            throw new IOException("cannot move " + from + " to " + to);
        }
    }

    /** Writes {@code p} under a temporary name and renames it, so that it never exists half written. */
    public static void writeAtomically(FileSystem fs, Path p, String content) throws IOException {
        Path tmp = new Path(p.getParent(), "." + p.getName() + ".tmp");
        try (FSDataOutputStream out = fs.create(tmp, true)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        if (fs.exists(p)) {
            fs.delete(p, false);
        }
        rename(fs, tmp, p);
    }

    /** The test hook: blocks at {@code name} when {@value OutputDirectory#KILL_AT} names it. */
    static void step(String name) {
        if (name.equals(System.getProperty(OutputDirectory.KILL_AT))) {
            System.err.println("ackscope.test.step " + name);
            System.err.flush();
            while (true) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    // keep blocking: the test kills the process
                }
            }
        }
    }
}
