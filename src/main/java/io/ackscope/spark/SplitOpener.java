package io.ackscope.spark;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;

/** Opens a {@link CaptureSplit} on its Hadoop filesystem, positioned at its first record. */
final class SplitOpener {
    private SplitOpener() {
    }

    static CaptureReader open(CaptureSplit split, Configuration conf) throws IOException, CaptureException {
        Path path = new Path(split.file().path());
        FileSystem fs = path.getFileSystem(conf);
        FSDataInputStream in = fs.open(path);
        try {
            return CaptureReader.open(in, split.file().path());
        } catch (IOException | CaptureException | RuntimeException e) {
            in.close();
            throw e;
        }
    }
}
