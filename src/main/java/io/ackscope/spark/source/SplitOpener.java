package io.ackscope.spark.source;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.SplitLocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.Closeable;
import java.io.IOException;

/** Opens a {@link CaptureSplit} on its Hadoop filesystem, positioned at its first record. */
final class SplitOpener {
    private SplitOpener() {
    }

    /** A split's reader and what else must be closed with it. */
    record Opened(CaptureReader reader, Closeable input) implements Closeable {
        @Override
        public void close() throws IOException {
            try (Closeable in = input) {
                reader.close();
            }
        }
    }

    static Opened open(CaptureSplit split, Configuration conf) throws IOException, CaptureException {
        Path path = new Path(split.file().path());
        FileSystem fs = HadoopSeekableInput.captureFileSystem(path, conf);
        if (split.whole()) {
            var in = fs.open(path);
            try {
                return new Opened(CaptureReader.open(in, split.file().path()), in);
            } catch (IOException | CaptureException | RuntimeException e) {
                in.close();
                throw e;
            }
        }
        HadoopSeekableInput in = HadoopSeekableInput.open(fs, path);
        try {
            SplitLocator loc = SplitLocator.open(in, split.file().path());
            return new Opened(loc.openSplit(split.start(), split.end()), in);
        } catch (IOException | CaptureException | RuntimeException e) {
            in.close();
            throw e;
        }
    }
}
