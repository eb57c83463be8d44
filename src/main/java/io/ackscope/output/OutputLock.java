package io.ackscope.output;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The lock file {@code DIR/_ackscope.lock} of an output directory, held by one ackscope command at a time: by
 * {@code analyze} from before it looks at {@code DIR} until it has committed or given up, by {@code report} while
 * it reads {@code DIR} and writes its page there. Its text names the holder: {@code pid=... host=... since=...
 * command=...}.
 *
 * <p>On the local filesystem it is an operating-system file lock ({@link FileChannel#tryLock}), which the kernel
 * drops when the holder dies, however it dies. The holder deletes the file before it unlocks it, so a process that
 * locked the file just as it was deleted checks, after locking, that the path still names the file it opened (the
 * same inode) and otherwise starts again. Closing any descriptor of a file drops the process's locks on it (POSIX),
 * so the holder never opens the file a second time, and a second attempt from the same JVM is refused from a table
 * of held locks before it opens anything. (Hadoop filesystems have no locks: {@code spark.CreatedLock} uses the
 * same text in an exclusively created file.)
 */
public final class OutputLock implements AutoCloseable {
    /** The lock file's name in the output directory. */
    public static final String FILE = "_ackscope.lock";

    /** Another process (or another run in this JVM) holds the lock; the message names it. */
    public static final class Busy extends IOException {
        public Busy(String message) {
            super(message);
        }
    }

    /** The lock files this JVM holds (real paths), with their text. */
    private static final Map<Path, String> HELD = new HashMap<>();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private OutputLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of the local output directory {@code dir} (which must exist) for {@code command}. */
    public static OutputLock acquire(Path dir, String command) throws IOException {
        Path file = dir.toRealPath().resolve(FILE);
        String text = text(command);
        for (int attempt = 0; attempt < 10; attempt++) {
            OutputLock l = tryLock(file, text);
            if (l != null) {
                return l;
            }
        }
        throw new IOException("cannot take the lock " + file + " (it keeps changing)");
    }

    /** The lock, null to try again (the file was created by this attempt, or replaced under it). */
    private static OutputLock tryLock(Path file, String text) throws IOException {
        synchronized (HELD) {
            if (HELD.containsKey(file)) {
                throw busy(file.getParent().toString(), HELD.get(file)); // reading it would drop the holder's lock
            }
            Object before = inode(file);
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                FileLock l = ch.tryLock();
                if (l == null) {
                    ch.close();
                    throw busy(file.getParent().toString(), read(file));
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
                return new OutputLock(file, ch, l);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        }
    }

    /** The device and inode of {@code file} (a stat; no descriptor is opened), null if it does not exist. */
    private static Object inode(Path file) throws IOException {
        try {
            return Files.getAttribute(file, "unix:dev") + ":" + Files.getAttribute(file, "unix:ino");
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    /** The text a lock file holds for {@code command} run by this process. */
    public static String text(String command) {
        return "pid=" + ProcessHandle.current().pid() + " host=" + host() + " since=" + Instant.now() + " command="
                + command + "\n";
    }

    /** A lock text naming this host and a process id that is not running here. */
    public static boolean staleOnThisHost(String text) {
        String pid = field(text, "pid"), host = field(text, "host");
        if (pid == null || !host().equals(host)) {
            return false;
        }
        try {
            return ProcessHandle.of(Long.parseLong(pid)).isEmpty();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The refusal of a command on {@code dir}, whose lock file holds {@code text}. */
    public static Busy busy(String dir, String text) {
        String pid = field(text, "pid"), host = field(text, "host"), since = field(text, "since");
        String command = field(text, "command");
        String who = "ackscope " + (command != null ? command : "analyze") + (pid == null ? ""
                : " (pid " + pid + " on " + host + (since != null ? ", since " + since : "") + ")");
        return new Busy(dir + " is in use by " + who + "; try again when it has ended");
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

    /** This host's name, as lock files record it. */
    public static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** Deletes the lock file, then unlocks it. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // an unlocked lock file left behind is taken by the next run
        }
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // closing the channel drops the lock in any case
        }
        synchronized (HELD) {
            HELD.remove(file);
        }
    }
}
