package io.ackscope.capture;

import java.io.IOException;

/**
 * The decompressor found the compressed data damaged or cut short (as opposed to an I/O error of the underlying
 * source). {@link StreamInput} turns it into a {@link CaptureException} at the decompressed offset it reached.
 */
final class CompressedDataException extends IOException {
    private static final long serialVersionUID = 1L;

    CompressedDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
