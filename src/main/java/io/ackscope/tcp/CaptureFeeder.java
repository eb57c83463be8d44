package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.FileFrames;
import io.ackscope.decode.PacketDecoder;

import java.io.IOException;

/**
 * Reads a capture, decodes every frame and feeds its TCP segments to a {@link TcpEngine}. One per thread: it owns
 * a decoder and a segment that it reuses for every frame.
 */
public final class CaptureFeeder {
    private final PacketDecoder decoder = new PacketDecoder();
    private final Segment segment = new Segment();
    private long frames;
    private long tcpSegments;
    private long firstTs = Long.MIN_VALUE;
    private long minTs = Long.MAX_VALUE;
    private long maxTs = Long.MIN_VALUE;
    private long lastFrame;
    private long lastRecordTs = Long.MIN_VALUE;
    private long maxStep;
    private long duplicates;

    /**
     * Feeds every frame of {@code reader} to {@code engine} (the reader is not closed).
     *
     * @param fileIndex index of this capture in the input list, stored in every segment
     * @throws CaptureException the file is damaged; frames before the damage were fed
     */
    public void feed(CaptureReader reader, int fileIndex, TcpEngine engine) throws IOException, CaptureException {
        feed(reader, fileIndex, FileFrames.FIRST, engine);
    }

    /**
     * Feeds the frames of one file of a source: its duplicates of earlier files left out, the others numbered in
     * the source's frame sequence ({@link FileFrames}).
     *
     * @throws CaptureException the file is damaged; frames before the damage were fed
     */
    public void feed(CaptureReader reader, int fileIndex, FileFrames numbering, TcpEngine engine)
            throws IOException, CaptureException {
        feed(reader, fileIndex, numbering, (java.util.function.Consumer<Segment>) engine::accept);
    }

    /**
     * {@link #feed(CaptureReader, int, FileFrames, TcpEngine)} to any consumer of segments (the segment is reused:
     * its values are valid until the consumer returns).
     *
     * @throws CaptureException the file is damaged; frames before the damage were fed
     */
    public void feed(CaptureReader reader, int fileIndex, FileFrames numbering,
                     java.util.function.Consumer<Segment> engine) throws IOException, CaptureException {
        while (reader.next()) {
            frames++;
            long ts = reader.timestampNanos();
            if (reader.hasTimestamp()) {
                if (firstTs == Long.MIN_VALUE) {
                    firstTs = ts;
                }
                minTs = Math.min(minTs, ts);
                maxTs = Math.max(maxTs, ts);
            }
            if (reader.hasTimestamp()) {
                if (lastRecordTs != Long.MIN_VALUE) {
                    maxStep = Math.max(maxStep, ts - lastRecordTs);
                }
                lastRecordTs = ts;
            }
            lastFrame = Math.max(lastFrame, reader.frameNumber());
            if (numbering.duplicate(reader.frameNumber())) {
                duplicates++;
                continue;
            }
            decoder.decode(reader.linkType(), reader.data(), reader.dataOffset(), reader.capturedLength(),
                    reader.originalLength());
            if (segment.fill(decoder, reader.data(), fileIndex, numbering.sourceFrame(reader.frameNumber()), ts,
                    reader.originalLength())) {
                tcpSegments++;
                engine.accept(segment);
            }
        }
    }

    /** The highest frame number read since the last {@link #startFile()} (tshark's numbering, per file). */
    public long lastFrame() {
        return lastFrame;
    }

    /** Frames left out as duplicates of an earlier file's. */
    public long duplicates() {
        return duplicates;
    }

    /** Earliest and latest timestamp read since the last {@link #startFile()}; MAX/MIN_VALUE before any. */
    public long minTimestampNanos() {
        return minTs;
    }

    public long maxTimestampNanos() {
        return maxTs;
    }

    /** Timestamp of the last record read that has one, since the last {@link #startFile()}. */
    public long lastRecordNanos() {
        return lastRecordTs;
    }

    /** Longest step between consecutive records with timestamps since the last {@link #startFile()}. */
    public long maxStepNanos() {
        return maxStep;
    }

    /** Starts the per-file figures ({@link #lastFrame()}, the time range) afresh for the next file. */
    public void startFile() {
        lastFrame = 0;
        minTs = Long.MAX_VALUE;
        maxTs = Long.MIN_VALUE;
        lastRecordTs = Long.MIN_VALUE;
        maxStep = 0;
    }

    /** Frames read so far. */
    public long frames() {
        return frames;
    }

    /** Frames that carried a TCP segment of their own (fed to the engine; duplicates are not). */
    public long tcpSegments() {
        return tcpSegments;
    }

    /** Timestamp of the first frame read (epoch ns), {@code Long.MIN_VALUE} before any. */
    public long firstTimestampNanos() {
        return firstTs;
    }
}
