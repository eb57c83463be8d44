package io.ackscope.spark;

import io.ackscope.capture.SeekableInput;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;

/** A capture on any Hadoop filesystem as the readers' {@link SeekableInput}, through positioned reads. */
final class HadoopSeekableInput implements SeekableInput {
    private final FSDataInputStream in;
    private final long length;

    private HadoopSeekableInput(FSDataInputStream in, long length) {
        this.in = in;
        this.length = length;
    }

    static HadoopSeekableInput open(FileSystem fs, Path path) throws IOException {
        long length = fs.getFileStatus(path).getLen();
        return new HadoopSeekableInput(fs.open(path), length);
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read(long pos, byte[] b, int off, int len) throws IOException {
        if (pos >= length) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = in.read(pos, b, off, (int) Math.min(len, length - pos));
        return n == 0 ? -1 : n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
