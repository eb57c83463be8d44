package io.ackscope.cli;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureInfo;
import io.ackscope.capture.CaptureProblem;
import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.DecodeStatus;
import io.ackscope.decode.Layer;
import io.ackscope.decode.PacketDecoder;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-file counts for {@code ackscope info}: one pass over the records, primitives only per record (the map of
 * decode stop reasons is touched only for packets that did not decode fully, and is keyed by the decoder's constant
 * strings).
 */
final class CaptureSummary {
    long packets;
    long capturedBytes;
    long originalBytes;
    long truncated;           // captured < original
    long oversized;           // captured > original
    long untimestamped;       // pcapng Simple Packet Blocks
    long outOfOrder;          // timestamp earlier than the previous timestamped record's
    long earliest = Long.MAX_VALUE;
    long latest = Long.MIN_VALUE;
    long firstRecordOffset = -1;
    long lastRecordOffset = -1;
    final long[] byStatus = new long[DecodeStatus.values().length];
    /** "STATUS at LAYER: reason" to count, for packets that did not decode fully. */
    final Map<String, Long> stopReasons = new LinkedHashMap<>();
    boolean decoded;

    CaptureInfo info;
    CaptureProblem tail;
    CaptureException error;
    long bytesRead;

    /**
     * Reads {@code reader} to its end, or to the first {@link CaptureException} (kept in {@link #error}).
     *
     * @param decoder decodes each packet for the status counts; null to skip decoding
     */
    void read(CaptureReader reader, PacketDecoder decoder) throws IOException {
        decoded = decoder != null;
        long previous = Long.MIN_VALUE;
        try {
            while (reader.next()) {
                packets++;
                int cap = reader.capturedLength();
                long orig = reader.originalLength();
                capturedBytes += cap;
                originalBytes += orig;
                if (cap < orig) {
                    truncated++;
                } else if (cap > orig) {
                    oversized++;
                }
                if (firstRecordOffset < 0) {
                    firstRecordOffset = reader.recordOffset();
                }
                lastRecordOffset = reader.recordOffset();
                if (reader.hasTimestamp()) {
                    long ts = reader.timestampNanos();
                    earliest = Math.min(earliest, ts);
                    latest = Math.max(latest, ts);
                    if (ts < previous) {
                        outOfOrder++;
                    }
                    previous = ts;
                } else {
                    untimestamped++;
                }
                if (decoder != null) {
                    decoder.decode(reader.linkType(), reader.data(), reader.dataOffset(), cap, orig);
                    DecodeStatus s = decoder.status();
                    byStatus[s.ordinal()]++;
                    if (s != DecodeStatus.OK) {
                        countStop(s, decoder.stopLayer(), decoder.stopReason());
                    }
                }
            }
        } catch (CaptureException e) {
            error = e;
        }
        tail = reader.tailProblem();
        info = reader.info();
        bytesRead = reader.position();
    }

    private void countStop(DecodeStatus s, Layer layer, String reason) {
        String key = s + " at " + layer + (reason == null ? "" : ": " + reason);
        stopReasons.merge(key, 1L, Long::sum);
    }

    /** This summary, its {@link #info} taken from {@code reader} if reading failed before it was set. */
    CaptureSummary withInfo(CaptureReader reader) {
        if (info == null) {
            info = reader.info();
        }
        return this;
    }
}
