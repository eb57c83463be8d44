package io.ackscope.spark.source;

import io.ackscope.capture.Archive;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

/**
 * The files below a path on any Hadoop filesystem that a reader of captures or tables sees: every file whose path
 * below the root has no {@linkplain Archive#hidden hidden} name (starting with {@code .} or {@code _}), the rule the
 * listing of captures follows.
 *
 * <p>Lists with {@link FileSystem#listStatus}, not {@link FileSystem#listFiles}: on the local filesystem without
 * Hadoop's native library, {@code listFiles} builds each file's {@code LocatedFileStatus} by asking for its
 * permissions, which forks {@code ls -ld} once per file, and fails with a {@code RuntimeException} when the file
 * was renamed in between (as a capture written under a hidden name and then moved into place is).
 *
 * <p>An entry that vanishes between being listed and being looked into is skipped: the listing is of the moment.
 */
public final class VisibleFiles {
    private VisibleFiles() {
    }

    /**
     * Offers each visible file below {@code root} (or {@code root} itself when it is a file) to {@code visit}
     * until it returns false: a directory's files in name order, then its directories in name order, depth first.
     * A root that does not exist lists nothing.
     *
     * @return false when {@code visit} stopped the walk
     * @throws IOException on a listing error, or when more than {@link Archive#MAX_DIRECTORIES} directories are
     *                     below the root (a link loop on a filesystem that follows links)
     */
    public static boolean walk(FileSystem fs, Path root, Predicate<FileStatus> visit) throws IOException {
        FileStatus top;
        try {
            top = fs.getFileStatus(root);
        } catch (FileNotFoundException e) {
            return true;
        }
        if (!top.isDirectory()) {
            return visit.test(top);
        }
        Deque<Path> dirs = new ArrayDeque<>();
        dirs.push(top.getPath());
        int directories = 0;
        while (!dirs.isEmpty()) {
            if (++directories > Archive.MAX_DIRECTORIES) {
                throw new IOException("more than " + Archive.MAX_DIRECTORIES + " directories below " + root
                        + " (links?)");
            }
            FileStatus[] children;
            try {
                children = fs.listStatus(dirs.pop());
            } catch (FileNotFoundException e) {
                continue;
            }
            Arrays.sort(children, Comparator.comparing((FileStatus s) -> s.getPath().getName()));
            List<Path> below = new ArrayList<>();
            for (FileStatus c : children) {
                if (Archive.hidden(c.getPath().getName())) {
                    continue;
                }
                if (c.isDirectory()) {
                    below.add(c.getPath());
                } else if (!visit.test(c)) {
                    return false;
                }
            }
            for (int i = below.size() - 1; i >= 0; i--) {
                dirs.push(below.get(i));
            }
        }
        return true;
    }
}
