package io.ackscope.capture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/** Test helper: reads every record of a capture into comparable values, keeping how reading ended. */
final class Records {

    /** One record, copied out of the reader (with a CRC of its bytes so comparisons cover the data). */
    record Rec(long frame, long timestampNanos, int section, int interfaceId, int linkType, long originalLength,
               int capturedLength, long offset, long crc) {
        /** Same record apart from the frame number (split readers number within the split). */
        boolean sameAs(Rec o) {
            return timestampNanos == o.timestampNanos && section == o.section && interfaceId == o.interfaceId
                    && linkType == o.linkType && originalLength == o.originalLength
                    && capturedLength == o.capturedLength && offset == o.offset && crc == o.crc;
        }
    }

    /** What a full read produced. */
    static final class Outcome {
        final List<Rec> records = new ArrayList<>();
        CaptureException error;
        CaptureProblem tail;
        CaptureInfo info;
        long endPosition;
    }

    private Records() {
    }

    static Rec current(CaptureReader r) {
        CRC32 crc = new CRC32();
        crc.update(r.data(), r.dataOffset(), r.capturedLength());
        return new Rec(r.frameNumber(), r.timestampNanos(), r.sectionNumber(), r.interfaceId(), r.linkType(),
                r.originalLength(), r.capturedLength(), r.recordOffset(), crc.getValue());
    }

    /** Reads to the end or the first CaptureException; closes the reader. */
    static Outcome readAll(CaptureReader r) throws IOException {
        Outcome out = new Outcome();
        try (r) {
            while (r.next()) {
                out.records.add(current(r));
            }
        } catch (CaptureException e) {
            out.error = e;
        }
        out.tail = r.tailProblem();
        out.info = r.info();
        out.endPosition = r.position();
        return out;
    }

    /** Opens and reads a stream; a CaptureException while opening counts as an error with no records. */
    static Outcome readStream(java.io.InputStream in, String name) throws IOException {
        CaptureReader r;
        try {
            r = Captures.open(in, name);
        } catch (CaptureException e) {
            Outcome out = new Outcome();
            out.error = e;
            return out;
        }
        return readAll(r);
    }

    /** tshark's frame.time_epoch rendering for in-range values: seconds, a point, 9 digits. */
    static String epoch9(long nanos) {
        if (nanos == CaptureReader.NO_TIMESTAMP) {
            return "";
        }
        String sign = nanos < 0 ? "-" : "";
        long abs = Math.abs(nanos);
        StringBuilder frac = new StringBuilder(Long.toString(abs % 1_000_000_000L));
        while (frac.length() < 9) {
            frac.insert(0, '0');
        }
        return sign + abs / 1_000_000_000L + "." + frac;
    }
}
