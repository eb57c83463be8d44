package io.ackscope.spark.commit;

import io.ackscope.output.OutputLock;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The output lock ({@link OutputLock}'s file and text) on a Hadoop filesystem, which has no file locks: the lock is
 * the exclusive creation of {@code DIR/_ackscope.lock}. A lock file left by a run that died is stale when it names
 * this host and a process that no longer exists; it is then replaced. One that names another host is reported, with
 * its age, for the user to remove.
 */
public final class CreatedLock implements AutoCloseable {
    private final FileSystem fs;
    private final Path path;

    private CreatedLock(FileSystem fs, Path path) {
        this.fs = fs;
        this.path = path;
    }

    public static CreatedLock acquire(FileSystem fs, Path path) throws IOException {
        String text = OutputLock.text("analyze");
        for (int attempt = 0; attempt < 10; attempt++) {
            try (FSDataOutputStream out = fs.create(path, false)) {
                out.write(text.getBytes(StandardCharsets.UTF_8));
                return new CreatedLock(fs, path);
            } catch (IOException e) {
                if (!fs.exists(path)) {
                    throw e;
                }
            }
            String holder = read(fs, path);
            if (holder != null && !OutputLock.staleOnThisHost(holder)) {
                OutputLock.Busy busy = OutputLock.busy(OutputDirectory.show(path.getParent()), holder);
                throw new OutputLock.Busy(busy.getMessage() + " (if it is gone, remove " + path + ")");
            }
            if (holder != null) {
                fs.delete(path, false);
            }
        }
        throw new IOException("cannot take the lock " + path + " (it keeps changing)");
    }

    private static String read(FileSystem fs, Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return new String(in.readNBytes(4096), StandardCharsets.UTF_8);
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    /** Deletes the lock file. */
    @Override
    public void close() {
        try {
            fs.delete(path, false);
        } catch (IOException e) {
            // a lock file left behind is stale on this host once this process has ended
        }
    }
}
