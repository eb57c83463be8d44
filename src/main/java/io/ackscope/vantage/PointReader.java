package io.ackscope.vantage;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureProblem;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.TcpEngine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads one capture point's files (in the order given, as one capture) into {@link PointSegments}. The TCP engine
 * numbers the connections, so a point's stream numbers are the ones {@code conv} and {@code analyze} give the same
 * files, and decides each connection's originator.
 *
 * <p>The engine's {@link Segment} does not carry the IP ID, so the reader keeps it per frame while it decodes and
 * looks it up when the engine reports the frame (the engine may report a connection's first SYNs later than it
 * reads them).
 */
public final class PointReader {
    /** Frames of one file are numbered up to this in the capture order (file index times it, plus the frame). */
    private static final long FILE_STRIDE = 1L << 40;

    private PointReader() {
    }

    /**
     * Reads {@code files} as one capture point named {@code source}.
     *
     * @throws CaptureException a file is not a capture, or is damaged before its first frame; damage after that
     *                          is kept in {@link PointSegments#damage()} with the frames before it
     */
    public static PointSegments read(String source, List<Path> files) throws IOException, CaptureException {
        PointSegments out = new PointSegments(source);
        List<int[]> ipIds = new ArrayList<>();
        long[] tuple = new long[4];
        int[] ports = new int[2];
        TcpEngine engine = new TcpEngine(new AnalysisSink() {
            @Override
            public void onFrame(Segment s, FrameAnalysis fa) {
                boolean o = fa.fromOriginator;
                PointSegments.clientFirst(s, o, tuple, ports);
                int[] ids = ipIds.get(s.fileIndex);
                int ipId = s.frameNumber < ids.length ? ids[(int) s.frameNumber] : 0;
                out.add(fa.stream, fa.fromOriginator, s.seq, s.ack, s.payloadLength, s.flags,
                        s.hasTimestamps ? s.tsVal : -1, ipId, s.timestampNanos,
                        s.fileIndex * FILE_STRIDE + s.frameNumber, tuple, ports);
            }
        });
        PacketDecoder decoder = new PacketDecoder();
        Segment segment = new Segment();
        for (int f = 0; f < files.size(); f++) {
            int[] ids = new int[1024];
            ipIds.add(ids);
            try (CaptureReader reader = Captures.open(files.get(f))) {
                try {
                    while (reader.next()) {
                        ids = decode(reader, decoder, ids);
                        ipIds.set(f, ids);
                        if (segment.fill(decoder, reader.data(), f, reader.frameNumber(), reader.timestampNanos(),
                                reader.originalLength())) {
                            engine.accept(segment);
                        }
                    }
                } catch (CaptureException e) {
                    if (reader.frameNumber() == 0) {
                        throw e;    // nothing could be read: not a capture, or damaged from its start
                    }
                    out.addDamage(e.getMessage());
                }
                CaptureProblem tail = reader.tailProblem();
                if (tail != null) {
                    out.addDamage(files.get(f) + ": byte " + tail.offset() + ": cut short: " + tail.reason());
                }
            }
        }
        engine.finish();
        return out;
    }

    /** Decodes the reader's current frame and notes its IP ID in {@code ids} (grown as needed; returned). */
    private static int[] decode(CaptureReader reader, PacketDecoder decoder, int[] ids) {
        long frame = reader.frameNumber();
        decoder.decode(reader.linkType(), reader.data(), reader.dataOffset(), reader.capturedLength(),
                reader.originalLength());
        int[] out = ids;
        if (frame >= out.length) {
            out = Arrays.copyOf(out, (int) Math.max(frame + 1, out.length * 2L));
        }
        out[(int) frame] = decoder.ipId();
        return out;
    }
}
