package io.ackscope.capture;

import java.io.IOException;

/**
 * What the pcap and pcapng readers share: the buffered input, the optional split end, and the rule that a reader
 * stays ended (returns false, or throws the same exception again) once it has ended.
 */
abstract class StreamCaptureReader extends CaptureReader {
    final StreamInput in;
    final Compression compression;
    final int maxRecordLength;
    /**
     * Stop before a record that starts at or after this offset (Long.MAX_VALUE: read to the end). A split reader may
     * move it once, to where the next split will start ({@link SplitTarget}).
     */
    long end;

    private boolean ended;
    private CaptureException failure;
    private boolean needsWholeFileRead;
    /** For a split reader: where the next split will start. */
    private SplitTarget splitTarget;
    private boolean extended;

    /** Where the split that begins at a given split end will start reading (the locator's boundary). */
    interface SplitTarget {
        long nextStart(long splitEnd) throws IOException;
    }

    StreamCaptureReader(String name, StreamInput in, Compression compression, int maxRecordLength, long end) {
        super(name);
        this.in = in;
        this.compression = compression;
        this.maxRecordLength = maxRecordLength;
        this.end = end;
    }

    @Override
    public final boolean next() throws IOException, CaptureException {
        if (failure != null) {
            throw failure;
        }
        if (ended) {
            return false;
        }
        try {
            while (true) {
                if (in.position() < end) {
                    if (readRecord()) {
                        return true;
                    }
                    if (tailProblem != null || in.position() < end) {
                        ended = true;   // end of stream: clean, or tailProblem set
                        return false;
                    }
                }
                if (splitTarget == null) {
                    ended = true;
                    return false;
                }
                if (!extended) {
                    // Read on to where the next split starts, so that records the locator skipped are not lost.
                    extended = true;
                    long target = splitTarget.nextStart(end);
                    if (target > in.position()) {
                        end = target;
                        continue;
                    }
                    end = target;
                }
                if (in.position() != end) {
                    throw splitUnsafe(in.position(), "the next split starts at byte " + end
                            + ", which is not a record boundary");
                }
                ended = true;
                return false;
            }
        } catch (CaptureException e) {
            failure = e;
            ended = true;
            throw e;
        }
    }

    /**
     * Reads the next packet record into the current-record fields.
     *
     * @return false at the end of the stream (clean, or with {@link #tailProblem} set), or when the next block
     *         starts at or after {@link #end}
     */
    abstract boolean readRecord() throws IOException, CaptureException;

    /** Ends reading with {@link #tailProblem} set, consuming the {@code available} bytes of the partial unit. */
    final boolean endInside(long offset, int available, String reason) {
        in.consume(available);
        tailProblem = new CaptureProblem(offset, reason);
        return false;
    }

    final CaptureException damage(long offset, String reason) {
        return new CaptureException(name, offset, reason);
    }

    /** Damage that only a whole-file read can get past (split readers); sets {@link #needsWholeFileRead()}. */
    final CaptureException splitUnsafe(long offset, String what) {
        needsWholeFileRead = true;
        return damage(offset, "split reading cannot continue: " + what + "; read the file whole");
    }

    void setSplitTarget(SplitTarget target) {
        this.splitTarget = target;
    }

    /**
     * True if this split reader stopped with a {@link CaptureException} because the file cannot be read in splits
     * (a pcapng section or interface block after the data start, or a split boundary the locator got wrong).
     */
    final boolean needsWholeFileRead() {
        return needsWholeFileRead;
    }

    /** True once {@link #next()} has returned false or thrown. */
    public final boolean ended() {
        return ended;
    }

    /**
     * Offset where reading stopped: after a clean end or a split end, the offset of the first record not returned
     * (for a split reader, the true boundary where the next split must start).
     */
    final long stopPosition() {
        return in.position();
    }

    @Override
    public final long position() {
        return in.position();
    }

    @Override
    public final void close() throws IOException {
        in.close();
    }
}
