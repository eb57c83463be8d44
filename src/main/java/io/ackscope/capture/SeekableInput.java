package io.ackscope.capture;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Random access to the bytes of an uncompressed capture, for split reading. Spark adapts a Hadoop
 * {@code FSDataInputStream} (its positioned {@code read(long, byte[], int, int)}) to it; {@link #open(Path)} serves
 * local files.
 */
public interface SeekableInput extends Closeable {

    /** Total length in bytes. */
    long length() throws IOException;

    /**
     * Reads up to {@code len} bytes starting at {@code pos}, without moving any shared position.
     *
     * @return bytes read (at least 1 when {@code len > 0} and {@code pos < length()}), or -1 at or beyond the end
     */
    int read(long pos, byte[] b, int off, int len) throws IOException;

    /** Reads exactly {@code len} bytes at {@code pos}, or throws {@link EOFException}. */
    default void readFully(long pos, byte[] b, int off, int len) throws IOException {
        int done = 0;
        while (done < len) {
            int r = read(pos + done, b, off + done, len - done);
            if (r < 0) {
                throw new EOFException("end of input at " + (pos + done));
            }
            done += r;
        }
    }

    /**
     * A sequential stream starting at {@code pos}, made of positioned reads (the readers buffer on their side).
     * Closing the stream does not close this input.
     */
    default InputStream streamFrom(long pos) {
        SeekableInput self = this;
        return new InputStream() {
            private long at = pos;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int r = read(one, 0, 1);
                return r < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                int r = self.read(at, b, off, len);
                if (r > 0) {
                    at += r;
                }
                return r;
            }
        };
    }

    /** A local file through a {@link FileChannel} (positioned reads, safe for concurrent use). */
    static SeekableInput open(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        return new SeekableInput() {
            @Override
            public long length() throws IOException {
                return ch.size();
            }

            @Override
            public int read(long pos, byte[] b, int off, int len) throws IOException {
                if (pos >= ch.size()) {
                    return -1;
                }
                return ch.read(ByteBuffer.wrap(b, off, len), pos);
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }
}
