package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The little of a filesystem that {@link Archive} needs to list an archive: what is at a path, a directory's
 * entries, and a file's bytes. {@link #local()} serves local files; {@code analyze} adapts Hadoop filesystems to it.
 * Paths are strings with {@code /} separators, as the store gives them out.
 */
public interface ArchiveStore {

    /**
     * What is at a path, links followed.
     *
     * @param path      the path as given or listed
     * @param directory a directory (else a file)
     * @param length    bytes of a file
     * @param identity  the same object (by {@code equals}) for every path that leads to the same file or directory:
     *                  device and inode for local files, the qualified path where the filesystem has no links
     * @param link      the path's last element is a symbolic link
     * @param stream    neither a regular file nor a directory (a FIFO, {@code /dev/stdin}): it can be read once only
     */
    record Entry(String path, boolean directory, long length, Object identity, boolean link, boolean stream) {
        /** An entry of a filesystem without FIFOs or devices. */
        public Entry(String path, boolean directory, long length, Object identity, boolean link) {
            this(path, directory, length, identity, link, false);
        }
    }

    /**
     * Whether a local path is a stream ({@link Entry#stream}): neither a regular file nor a directory, links
     * followed (a FIFO, a device, {@code /dev/stdin}), so it can be read once only. False when nothing is there. The
     * one test for it: the listing, the planner and the CLI ask here.
     */
    static boolean isStream(Path p) {
        try {
            return isStream(Files.readAttributes(p, BasicFileAttributes.class));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isStream(BasicFileAttributes a) {
        return !a.isRegularFile() && !a.isDirectory();
    }

    /** What is at {@code path}, or null when nothing is (a dangling link included). */
    Entry stat(String path) throws IOException;

    /** The paths of a directory's entries, in any order. */
    List<String> children(String dir) throws IOException;

    /** A file's bytes from the start. */
    InputStream open(String path) throws IOException;

    /** A capture reader over a file ({@link Captures#open(InputStream, String)}); the stream is closed on failure. */
    default CaptureReader openCapture(String path) throws IOException, CaptureException {
        InputStream in = open(path);
        try {
            return Captures.open(in, path);
        } catch (IOException | CaptureException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Local files, by {@link java.nio.file} (identity: the file key, device and inode on Unix). */
    static ArchiveStore local() {
        return new ArchiveStore() {
            @Override
            public Entry stat(String path) throws IOException {
                Path p = Path.of(path);
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    return null;
                }
                Object key = a.fileKey() != null ? a.fileKey() : p.toRealPath().toString();
                return new Entry(path, a.isDirectory(), a.size(), key, Files.isSymbolicLink(p), isStream(a));
            }

            @Override
            public List<String> children(String dir) throws IOException {
                List<String> out = new ArrayList<>();
                try (Stream<Path> s = Files.list(Path.of(dir))) {
                    s.forEach(c -> out.add(c.toString()));
                }
                return out;
            }

            @Override
            public InputStream open(String path) throws IOException {
                return Files.newInputStream(Path.of(path));
            }
        };
    }
}
