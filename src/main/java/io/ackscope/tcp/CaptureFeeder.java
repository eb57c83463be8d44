package io.ackscope.tcp;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
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

    /**
     * Feeds every frame of {@code reader} to {@code engine} (the reader is not closed).
     *
     * @param fileIndex index of this capture in the input list, stored in every segment
     * @throws CaptureException the file is damaged; frames before the damage were fed
     */
    public void feed(CaptureReader reader, int fileIndex, TcpEngine engine) throws IOException, CaptureException {
        while (reader.next()) {
            frames++;
            if (firstTs == Long.MIN_VALUE) {
                firstTs = reader.timestampNanos();
            }
            decoder.decode(reader.linkType(), reader.data(), reader.dataOffset(), reader.capturedLength(),
                    reader.originalLength());
            if (segment.fill(decoder, reader.data(), fileIndex, reader.frameNumber(), reader.timestampNanos(),
                    reader.originalLength())) {
                tcpSegments++;
                engine.accept(segment);
            }
        }
    }

    /** Frames read so far. */
    public long frames() {
        return frames;
    }

    /** Frames that carried a TCP segment of their own (fed to the engine). */
    public long tcpSegments() {
        return tcpSegments;
    }

    /** Timestamp of the first frame read (epoch ns), {@code Long.MIN_VALUE} before any. */
    public long firstTimestampNanos() {
        return firstTs;
    }
}
