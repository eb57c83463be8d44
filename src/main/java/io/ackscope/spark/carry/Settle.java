package io.ackscope.spark.carry;

import io.ackscope.capture.Archive;
import io.ackscope.capture.CaptureReader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The settle rule of {@code analyze --incremental} and {@code --watch}: a file a capture may still be writing is not
 * taken yet. In each source, the newest file (the last in time order of those with a timestamped record) is taken
 * only once its modification time is at least {@code settle} old; every other file with a record is taken at once (a
 * newer file of its source exists, so the rotating capture has closed it). A file without a timestamped record (a
 * capture that has written only its header so far, or a rotated file whose interval saw no packet, as
 * {@code tcpdump -G} leaves when its first interval is quiet) counts as newest too, and does not make the file
 * before it older: where the listing puts it says nothing of when it was written. A file already analysed is always
 * taken (its rows are in the output), and a settle of zero takes everything.
 */
public final class Settle {
    private Settle() {
    }

    /** The default quiet period ({@code --settle 60s}). */
    public static final Duration DEFAULT = Duration.ofSeconds(60);

    /**
     * The paths of {@code archive}'s files held back at {@code nowMillis}.
     *
     * @param mtimeMillis each file's modification time (milliseconds since the epoch)
     * @param analysed    paths analysed by an earlier run (never held back)
     */
    public static List<String> heldBack(Archive archive, ToLongFunction<String> mtimeMillis, long nowMillis,
                                        Duration settle, Collection<String> analysed) {
        List<String> out = new ArrayList<>();
        if (settle.isZero() || settle.isNegative()) {
            return out;
        }
        List<Archive.Member> files = archive.files();
        // per source, the last file with a record (files without one sort anywhere: they do not count)
        int[] lastWithRecord = new int[archive.sources().size()];
        Arrays.fill(lastWithRecord, -1);
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).firstNanos() != CaptureReader.NO_TIMESTAMP) {
                lastWithRecord[files.get(i).source()] = i;
            }
        }
        for (int i = 0; i < files.size(); i++) {
            Archive.Member m = files.get(i);
            boolean newest = i == lastWithRecord[m.source()] || m.firstNanos() == CaptureReader.NO_TIMESTAMP;
            if (newest && !analysed.contains(m.path())
                    && nowMillis - mtimeMillis.applyAsLong(m.path()) < settle.toMillis()) {
                out.add(m.path());
            }
        }
        return out;
    }
}
