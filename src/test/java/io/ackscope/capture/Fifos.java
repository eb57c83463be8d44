package io.ackscope.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test helper: named pipes made with mkfifo(1), fed by a writer thread. */
public final class Fifos {
    private Fifos() {
    }

    /** Makes a FIFO at {@code path}. */
    public static Path make(Path path) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("mkfifo " + path + " failed");
        }
        return path;
    }

    /**
     * Writes {@code bytes} into a FIFO from another thread and closes it; opening blocks until a reader opens the
     * FIFO, so a reader that opens it a second time waits for a writer that never comes.
     */
    public static Thread feed(Path fifo, byte[] bytes) {
        Thread t = new Thread(() -> {
            try (OutputStream o = Files.newOutputStream(fifo)) {
                o.write(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "fifo-writer-" + fifo.getFileName());
        t.setDaemon(true);
        t.start();
        return t;
    }
}
