package io.ackscope.probe;

import com.sun.jna.Native;
import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A capture written to a stream rather than a file ({@code capture -w -}, as {@code tcpdump -w -}): libpcap's dumper
 * writes into a named pipe in a private temporary directory, and a thread copies every byte to the stream while
 * reading the records with ackscope's own reader. The capture so reports the exact number of packets written, as it
 * does for a file (which it reads back), and nothing but the pcap reaches the stream.
 *
 * <p>Usage: {@link #open}, give {@link #path()} to libpcap's dumper, close the dumper, then {@link #finish()}.
 * {@link #close()} always removes the pipe and its directory, and releases the copier if libpcap never opened the
 * pipe.
 */
final class PipedPcapOutput implements AutoCloseable {

    /** {@code mkfifo(3)}, bound through JNA (which pcap4j brings). */
    private static final class LibC {
        static {
            Native.register("c");
        }

        static native int mkfifo(String path, int mode);
    }

    private final Path dir;
    private final Path fifo;
    private final OutputStream sink;
    private final Thread copier;
    private volatile long records;
    private volatile Exception failure;

    private PipedPcapOutput(Path dir, Path fifo, OutputStream sink) {
        this.dir = dir;
        this.fifo = fifo;
        this.sink = sink;
        this.copier = new Thread(this::copy, "capture-stdout");
        this.copier.setDaemon(true);
    }

    /** Makes the pipe and starts the thread that copies it to {@code sink}. */
    static PipedPcapOutput open(OutputStream sink) throws IOException {
        Path dir = Files.createTempDirectory("ackscope-capture-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path fifo = dir.resolve("capture.pcap");
        if (LibC.mkfifo(fifo.toString(), 0600) != 0) {
            int errno = Native.getLastError();
            Files.deleteIfExists(dir);
            throw new IOException("cannot make a pipe at " + fifo + " (errno " + errno + ")");
        }
        PipedPcapOutput out = new PipedPcapOutput(dir, fifo, sink);
        out.copier.start();
        return out;
    }

    /** The pipe libpcap writes to. */
    Path path() {
        return fifo;
    }

    private void copy() {
        try (InputStream pipe = new FileInputStream(fifo.toFile())) {
            InputStream in = new Tee(pipe, sink);
            long n = 0;
            try (CaptureReader r = CaptureReader.open(in, "standard output")) {
                while (r.next()) {
                    n++;
                }
            } catch (CaptureException e) {
                failure = e;
            }
            records = n;
            in.transferTo(OutputStream.nullOutputStream()); // whatever the reader left is still copied by the tee
            sink.flush();
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
    }

    /** Waits until libpcap's dumper was closed and every byte copied; returns the records written. */
    long finish() throws IOException, InterruptedException {
        copier.join();
        if (failure != null) {
            throw new IOException("the capture written to standard output: " + failure.getMessage(), failure);
        }
        return records;
    }

    @Override
    public void close() throws IOException {
        if (copier.isAlive()) {
            // the copier may be blocked opening the pipe because libpcap never did: opening the writing end
            // releases it, and closing that end gives it the end of the stream
            new FileOutputStream(fifo.toFile()).close();
            try {
                copier.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Files.deleteIfExists(fifo);
        Files.deleteIfExists(dir);
    }

    /** Copies every byte read from the pipe to the sink, once, in order; closing it leaves the pipe open. */
    private static final class Tee extends FilterInputStream {
        private final OutputStream sink;

        Tee(InputStream in, OutputStream sink) {
            super(in);
            this.sink = sink;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                sink.write(b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                sink.write(b, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = 0;
            byte[] buf = new byte[8192];
            while (skipped < n) {
                int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
                if (r < 0) {
                    break;
                }
                skipped += r;
            }
            return skipped;
        }

        @Override
        public boolean markSupported() {
            return false;
        }

        @Override
        public void close() {
            // the reader closes its input when done; the copier still drains the pipe after that
        }
    }
}
