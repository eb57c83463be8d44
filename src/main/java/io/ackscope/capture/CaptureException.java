package io.ackscope.capture;

/**
 * A capture file is damaged: bad magic, an impossible block length, a record length beyond any sane bound.
 *
 * <p>This is the one checked exception of the capture layer. It always names the file and the byte offset
 * (in the decompressed stream) where the damage starts, so a job can report "file X, byte Y: reason" and go on
 * with the other files. Everything before {@link #offset()} has already been delivered by the reader.
 */
public final class CaptureException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;
    private final String reason;

    public CaptureException(String file, long offset, String reason) {
        super(file + ": byte " + offset + ": " + reason);
        this.file = file;
        this.offset = offset;
        this.reason = reason;
    }

    public CaptureException(String file, long offset, String reason, Throwable cause) {
        super(file + ": byte " + offset + ": " + reason, cause);
        this.file = file;
        this.offset = offset;
        this.reason = reason;
    }

    /** The capture's name as given to the reader (a path or URI). */
    public String file() {
        return file;
    }

    /** Byte offset in the (decompressed) capture stream where the damage starts. */
    public long offset() {
        return offset;
    }

    /** What is wrong, without the file and offset. */
    public String reason() {
        return reason;
    }
}
