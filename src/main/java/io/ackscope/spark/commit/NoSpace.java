package io.ackscope.spark.commit;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Locale;

/**
 * The output's filesystem filled up during a run. The message is one line: the output directory, the filesystem
 * and its size, what the run had staged when it failed, and either what is free once the staged files are removed or,
 * when the commit was under way, that the next run on the directory completes it.
 */
public final class NoSpace extends IOException {
    private NoSpace(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether {@code e} or one of its causes is ENOSPC ("No space left on device"). */
    public static boolean is(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("No space left on device")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The error for output directory {@code dir} on {@code fs}: {@code staged} bytes (-1: unknown) were staged when
     * it filled; {@code committing} says whether the commit had begun. Local filesystems are measured through
     * {@link java.nio.file.FileStore}, others through Hadoop's {@link FsStatus}.
     */
    static NoSpace of(FileSystem fs, Path dir, boolean committing, Throwable cause, long staged) {
        long free = -1, size = -1;
        String where = fs.getUri().toString();
        try {
            FsStatus st = fs.getStatus(dir);
            free = st.getRemaining();
            size = st.getCapacity();
        } catch (IOException e) {
            // unknown
        }
        if ("file".equals(fs.getScheme())) {
            try {
                var store = Files.getFileStore(java.nio.file.Path.of(dir.toUri()));
                where = store.toString();
                free = store.getUsableSpace();
                size = store.getTotalSpace();
            } catch (IOException e) {
                // keep Hadoop's figures
            }
        }
        String show = OutputDirectory.show(dir);
        return new NoSpace(String.format(Locale.ROOT, "no space left on device writing %s (filesystem %s, %s): "
                        + "the run had staged %s when it filled up; %s", show, where, bytes(size),
                bytes(staged), committing ? "the commit was under way: the next analyze --out " + show
                        + " completes it" : "nothing was committed, and with the staged files removed " + bytes(free)
                        + " are free"), cause);
    }

    private static String bytes(long n) {
        return n < 0 ? "an unknown amount" : String.format(Locale.ROOT, "%,d bytes", n);
    }
}
