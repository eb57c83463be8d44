package io.ackscope.spark.source;

import io.ackscope.capture.Archive;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The planned read of a scan: the captures, how each is read, the tasks, and the archive listing they came from
 * (sources, copies and skipped paths; null for a plan made from a file list).
 */
public record ReadPlan(List<CaptureFile> files, List<FilePlan> filePlans, List<CapturePartition> partitions,
                Archive archive) implements Serializable {

    public ReadPlan(List<CaptureFile> files, List<FilePlan> filePlans, List<CapturePartition> partitions) {
        this(files, filePlans, partitions, null);
    }

    /** Source names (one unnamed source without a listing). */
    public List<String> sources() {
        return archive != null ? archive.sources() : List.of("");
    }

    public long totalBytes() {
        long t = 0;
        for (CaptureFile f : files) {
            t += f.length();
        }
        return t;
    }

    /**
     * Merges split statistics (in file, split order) into one per file; a file none of whose splits reported gets
     * null, and a file with missing splits is marked incomplete.
     */
    public List<SplitStats> perFile(List<SplitStats> splits) {
        List<SplitStats> out = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            out.add(null);
        }
        int[] reported = new int[files.size()];
        for (SplitStats s : splits) {
            SplitStats acc = out.get(s.fileIndex);
            if (acc == null) {
                acc = new SplitStats(s.fileIndex, 0);
                acc.complete = true;
                out.set(s.fileIndex, acc);
            }
            acc.merge(s);
            reported[s.fileIndex]++;
        }
        for (int i = 0; i < files.size(); i++) {
            if (out.get(i) != null && reported[i] < filePlans.get(i).splits()) {
                out.get(i).complete = false;
            }
        }
        return out;
    }
}
