package io.ackscope.spark;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The lock file {@code DIR/_ackscope.lock} of an output directory, held by one {@code analyze} run from before it
 * looks at the directory until it has committed or given up. Its text names the holder: {@code pid=... host=...
 * since=...}.
 *
 * <p>On the local filesystem it is an operating-system file lock ({@link FileChannel#tryLock}), which the kernel
 * drops when the holder dies, however it dies. The holder deletes the file before it unlocks it, so a run that
 * locked the file just as it was deleted checks, after locking, that the path still names the file it opened (the
 * same inode) and otherwise starts again.
 *
 * <p>Hadoop filesystems have no such locks: there the lock is the exclusive creation of the file. A lock file left
 * by a run that died is stale when it names this host and a process that no longer exists; it is then replaced.
 * One that names another host is reported, with its age, for the user to remove.
 */
final class OutputLock {
    private final FileSystem fs;
    private final Path path;
    private final java.nio.file.Path local;
    private final FileChannel channel;
    private final FileLock lock;

    private OutputLock(FileSystem fs, Path path, java.nio.file.Path local, FileChannel channel, FileLock lock) {
        this.fs = fs;
        this.path = path;
        this.local = local;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock at {@code path}, by file lock where {@code fs} is local, by exclusive creation elsewhere. */
    static OutputLock acquire(FileSystem fs, Path path) throws IOException {
        return acquire(fs, path, "file".equals(fs.getScheme()));
    }

    static OutputLock acquire(FileSystem fs, Path path, boolean fileLock) throws IOException {
        String text = "pid=" + ProcessHandle.current().pid() + " host=" + host() + " since=" + Instant.now() + "\n";
        for (int attempt = 0; attempt < 10; attempt++) {
            OutputLock l = fileLock ? tryFileLock(fs, path, text) : tryCreate(fs, path, text);
            if (l != null) {
                return l;
            }
        }
        throw new IOException("cannot take the lock " + path + " (it keeps changing)");
    }

    /**
     * The lock, null to try again (the file was replaced under us). Closing any descriptor of a file drops the
     * process's locks on it (POSIX), so the holder never opens the lock file a second time: it compares inode
     * numbers (a stat) instead of reading the file back, and a second attempt from this JVM is refused from
     * {@link #HELD} before it opens anything.
     */
    private static OutputLock tryFileLock(FileSystem fs, Path path, String text) throws IOException {
        java.nio.file.Path given = java.nio.file.Path.of(path.toUri());
        java.nio.file.Path file = given.getParent().toRealPath().resolve(given.getFileName());
        synchronized (HELD) {
            if (HELD.containsKey(file)) {
                throw busy(path, HELD.get(file)); // reading the file would drop the holder's lock
            }
            Object before = inode(file);
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                FileLock l = ch.tryLock();
                if (l == null) {
                    ch.close();
                    throw busy(path, readLocal(file));
                }
                if (before == null || !before.equals(inode(file))) {
                    // created by this attempt (the next one compares inodes), or deleted or replaced between the
                    // stat and the lock
                    ch.close();
                    return null;
                }
                ch.truncate(0);
                ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
                ch.force(false);
                HELD.put(file, text);
                return new OutputLock(fs, path, file, ch, l);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        }
    }

    /** The lock files this JVM holds by file lock (real paths), with their text. */
    private static final java.util.Map<java.nio.file.Path, String> HELD = new java.util.HashMap<>();

    /** The device and inode of {@code file} (a stat; no descriptor is opened), null if it does not exist. */
    private static Object inode(java.nio.file.Path file) throws IOException {
        try {
            return Files.getAttribute(file, "unix:dev") + ":" + Files.getAttribute(file, "unix:ino");
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static OutputLock tryCreate(FileSystem fs, Path path, String text) throws IOException {
        try (FSDataOutputStream out = fs.create(path, false)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            return new OutputLock(fs, path, null, null, null);
        } catch (IOException e) {
            if (!fs.exists(path)) {
                throw e;
            }
        }
        String holder = readHadoop(fs, path);
        if (holder == null) {
            return null;
        }
        if (staleOnThisHost(holder)) {
            fs.delete(path, false);
            return null;
        }
        throw busy(path, holder);
    }

    /** A lock text naming this host and a process id that is not running here. */
    static boolean staleOnThisHost(String holder) {
        String pid = field(holder, "pid"), host = field(holder, "host");
        if (pid == null || !host().equals(host)) {
            return false;
        }
        try {
            return ProcessHandle.of(Long.parseLong(pid)).isEmpty();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static OutputDirectory.Refused busy(Path path, String holder) {
        String pid = field(holder, "pid"), host = field(holder, "host"), since = field(holder, "since");
        String who = pid == null ? "another analyze run" : "analyze run pid " + pid + " on " + host
                + (since != null ? " (since " + since + ")" : "");
        return new OutputDirectory.Refused(OutputDirectory.show(path.getParent()) + " is in use by " + who + "; wait for it to end or "
                + "choose another --out (a run that is gone leaves " + path.getName() + " behind only on "
                + "filesystems without locks: remove it there)", false);
    }

    private static String field(String text, String name) {
        if (text == null) {
            return null;
        }
        for (String part : text.trim().split("\\s+")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        return null;
    }

    private static String readLocal(java.nio.file.Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    private static String readHadoop(FileSystem fs, Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return new String(in.readNBytes(4096), StandardCharsets.UTF_8);
        } catch (java.io.FileNotFoundException e) {
            return null;
        }
    }

    static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** Deletes the lock file, then unlocks it. */
    void release() {
        try {
            fs.delete(path, false);
        } catch (IOException e) {
            // a lock file left behind is unlocked (file lock) or stale on this host (exclusive create)
        }
        if (channel != null) {
            try {
                lock.release();
                channel.close();
            } catch (IOException e) {
                // closing the channel drops the lock in any case
            }
            synchronized (HELD) {
                HELD.remove(local);
            }
        }
    }
}
