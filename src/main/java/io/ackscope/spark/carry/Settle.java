package io.ackscope.spark.carry;

import io.ackscope.capture.Archive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The settle rule of {@code analyze --incremental} and {@code --watch}: a file a capture may still be writing is not
 * taken yet. In each source, the newest file (the last in time order) is taken only once its modification time is
 * at least {@code settle} old; every other file is taken at once (a newer file of its source exists, so the
 * rotating capture has closed it). A fresh file without a timestamped record yet (a capture that has written only
 * its header) counts as its source's newest, wherever the listing puts it. A file already analysed is always
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
        for (int i = 0; i < files.size(); i++) {
            Archive.Member m = files.get(i);
            boolean newest = i + 1 == files.size() || files.get(i + 1).source() != m.source()
                    || m.firstNanos() == io.ackscope.capture.CaptureReader.NO_TIMESTAMP;
            if (newest && !analysed.contains(m.path())
                    && nowMillis - mtimeMillis.applyAsLong(m.path()) < settle.toMillis()) {
                out.add(m.path());
            }
        }
        return out;
    }
}
