package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/** Opens captures: decompression and format detection by magic bytes (to be completed by the readers). */
final class Captures {
    private Captures() {
    }

    static CaptureReader open(Path file) throws IOException, CaptureException {
        throw new UnsupportedOperationException("not implemented yet");
    }

    static CaptureReader open(InputStream in, String name) throws IOException, CaptureException {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
