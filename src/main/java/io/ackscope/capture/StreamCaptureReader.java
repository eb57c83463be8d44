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
    /** Stop before a record that starts at or after this offset (Long.MAX_VALUE: read to the end). */
    final long end;

    private boolean ended;
    private CaptureException failure;

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
            if (in.position() >= end || !readRecord()) {
                ended = true;
                return false;
            }
            return true;
        } catch (CaptureException e) {
            failure = e;
            ended = true;
            throw e;
        }
    }

    /**
     * Reads the next packet record into the current-record fields.
     *
     * @return false at the end of the stream (clean, or with {@link #tailProblem} set)
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
