package io.ackscope.cli;

import io.ackscope.output.OutputMarker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The markers of the outputs a query reads, taken before its views are registered and compared when its result
 * is complete. A commit replaces an output's marker first (it moves the old one away) and last (it renames the new
 * one into place), so a marker that is the same at both ends means no commit ran in between, and the files of the
 * manifest the views read (and nothing else) were the result's input. A marker that changed means the result may
 * mix two outputs: the command fails (exit 1) and says to run the query again.
 */
final class OutputSnapshot {
    /** Markers larger than this are not ackscope's (a manifest of 20,000 files is about 1 MB). */
    private static final int MAX_MARKER = 64 << 20;

    private final Configuration conf;
    private final Map<String, byte[]> markers;

    private OutputSnapshot(Configuration conf, Map<String, byte[]> markers) {
        this.conf = conf;
        this.markers = markers;
    }

    /** The markers of {@code outputs} now (a missing one is recorded as missing; registering the views says so). */
    static OutputSnapshot take(Configuration conf, List<String> outputs) throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (String out : outputs) {
            m.put(out, marker(conf, out));
        }
        return new OutputSnapshot(conf, m);
    }

    /**
     * Throws when an output's marker is not what it was when the snapshot was taken.
     *
     * @throws IOException naming the output that was committed to
     */
    void verify() throws IOException {
        for (Map.Entry<String, byte[]> e : markers.entrySet()) {
            if (!Arrays.equals(e.getValue(), marker(conf, e.getKey()))) {
                throw new IOException(e.getKey() + ": an analyze run committed to it while the query read it (its "
                        + OutputMarker.FILE + " changed): the result may mix two outputs and was not kept; run the "
                        + "query again");
            }
        }
    }

    private static byte[] marker(Configuration conf, String out) throws IOException {
        Path file = new Path(out, OutputMarker.FILE);
        FileSystem fs = file.getFileSystem(conf);
        try (FSDataInputStream in = fs.open(file)) {
            return in.readNBytes(MAX_MARKER);
        } catch (FileNotFoundException e) {
            return null;
        } catch (org.apache.hadoop.fs.ChecksumException e) {
            // the marker no longer matches its .crc side file: it was replaced or edited since it was written
            return ("checksum mismatch at " + System.nanoTime()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
