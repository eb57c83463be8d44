package io.ackscope.report;

import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.HttpStartLine;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.Stall;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static io.ackscope.report.LadderReader.AFTER;
import static io.ackscope.report.LadderReader.BEFORE;
import static io.ackscope.report.LadderReader.HEAD;

/**
 * One chosen connection's flow graph, from its engine's second run: which frames are kept (the first
 * {@link LadderReader#HEAD}, a ring of the {@link LadderReader#BEFORE} frames before the focus, then
 * {@link LadderReader#AFTER} from it), the relative sequence numbers, the marks and notes the engine's analysis
 * gives them (retransmission, duplicate ACK, zero window, delayed ACK, held segment, resume) and the ladder made
 * of them. {@link LadderSweep} hands it the frames through {@link #sink()}.
 */
final class LadderCollector {
    /** Bytes of an HTTP start line kept for a label. */
    static final int INFO_BYTES = 96;

    final LadderReader.Want want;
    long seen;
    long firstNanos = -1, prevNanos = -1;
    long clientIsn = -1, serverIsn = -1;
    boolean focusReached;
    int afterLeft;
    final List<Entry> kept = new ArrayList<>();
    final Entry[] ring = new Entry[BEFORE];
    int ringStart, ringSize;
    /** Note of the delayed ACK the engine reported for the frame it is about to hand over. */
    String pendingNote;
    /** The resume frame of the stall the engine just reported, and its note. */
    long resumeFrame = -1;
    String resumeNote;
    final TreeSet<Integer> fileIndexes = new TreeSet<>();
    /**
     * Per side (originator, responder): it has sent new data (a payload, not a retransmission) since the last kept
     * frame. See {@link #settled()}.
     */
    private final boolean[] newDataAfterRows = new boolean[2];

    LadderCollector(LadderReader.Want want) {
        this.want = want;
    }

    void frame(Segment s, FrameAnalysis a) {
        if (rowsComplete() && s.payloadLength > 0 && !a.retransmission()) {
            newDataAfterRows[a.fromOriginator ? 0 : 1] = true;
        }
        seen++;
        fileIndexes.add(s.fileIndex);
        long ts = s.timestampNanos;
        if (firstNanos < 0) {
            firstNanos = ts;
        }
        long delta = prevNanos < 0 ? 0 : ts - prevNanos;
        prevNanos = ts;
        boolean client = a.fromOriginator;
        if (client && clientIsn < 0) {
            clientIsn = s.syn() ? s.seq : (s.seq - 1) & 0xFFFFFFFFL;
        } else if (!client && serverIsn < 0) {
            serverIsn = s.syn() ? s.seq : (s.seq - 1) & 0xFFFFFFFFL;
        }
        long relSeq = (s.seq - (client ? clientIsn : serverIsn)) & 0xFFFFFFFFL;
        long peer = client ? serverIsn : clientIsn;
        long relAck = !s.hasAck() ? -1 : peer < 0 ? 1 : (s.ack - peer) & 0xFFFFFFFFL;
        String note = pendingNote;
        pendingNote = null;

        Entry e = null;
        if (seen <= HEAD) {
            e = new Entry();
            kept.add(e);
        } else if (!focusReached) {
            if (isFocus(s)) {
                focusReached = true;
                drainRing();
                e = new Entry();
                kept.add(e);
                afterLeft = AFTER - 1;
            } else {
                int slot = (ringStart + ringSize) % BEFORE;
                if (ringSize == BEFORE) {
                    slot = ringStart;
                    ringStart = (ringStart + 1) % BEFORE;
                } else {
                    ringSize++;
                }
                if (ring[slot] == null) {
                    ring[slot] = new Entry();
                }
                e = ring[slot];
            }
        } else if (afterLeft > 0) {
            afterLeft--;
            e = new Entry();
            kept.add(e);
        }
        if (e == null) {
            return;
        }
        e.copy(s, a, seen, delta, relSeq, relAck);
        if (a.retransmission()) {
            mark(e, "RETRANSMISSION", a.rtoNanos > 0 ? "retransmission after a " + Format.duration(
                    a.rtoNanos / 1000) + " timeout" : "retransmission");
        } else if (a.duplicateAck()) {
            mark(e, "DUP_ACK", "duplicate ACK #" + a.dupAckNum);
        } else if (a.has(FrameAnalysis.ZERO_WINDOW)) {
            mark(e, "ZERO_WINDOW", "zero window: the receiver's buffer is full");
        }
        if (note != null && e.mark.isEmpty()) {
            mark(e, "DELAYED_ACK", note);
        }
        if (s.frameNumber == resumeFrame) {
            mark(e, "RESUMED", resumeNote);
            resumeFrame = -1;
        }
    }

    /** Every row is kept: the head, the frames before the focus, the focus and the frames after it. */
    private boolean rowsComplete() {
        return focusReached && afterLeft == 0;
    }

    /**
     * True when no later frame can change the rows: they are all kept, and each side has sent new data since the
     * last of them. What the engine says of a frame it says when the frame comes, except a stall, which marks its
     * held segment and its delayed ACK when its holder's next new data leaves ({@link #stall}); that new data ends
     * every stall candidate of either side (the holder's is resumed or dropped, the peer's cancelled), and a later
     * candidate's held segment is the holder's newest data, a frame after the rows. The rest of a long connection,
     * which may span the whole capture, then need not be read.
     */
    boolean settled() {
        return rowsComplete() && newDataAfterRows[0] && newDataAfterRows[1];
    }

    private boolean isFocus(Segment s) {
        if (want.focusFrame() >= 0) {
            return s.frameNumber == want.focusFrame();
        }
        if (want.focusMicros() >= 0) {
            return s.timestampNanos / 1000 >= want.focusMicros();
        }
        return true;
    }

    private void drainRing() {
        for (int i = 0; i < ringSize; i++) {
            Entry r = ring[(ringStart + i) % BEFORE];
            Entry copy = new Entry();
            copyEntry(r, copy);
            kept.add(copy);
        }
        ringSize = 0;
    }

    private static void copyEntry(Entry from, Entry to) {
        to.ordinal = from.ordinal;
        to.frame = from.frame;
        to.fileIndex = from.fileIndex;
        to.tsNanos = from.tsNanos;
        to.deltaNanos = from.deltaNanos;
        to.seq = from.seq;
        to.ack = from.ack;
        to.hasAck = from.hasAck;
        to.flags = from.flags;
        to.len = from.len;
        to.window = from.window;
        to.analysis = from.analysis;
        to.dupAckNum = from.dupAckNum;
        to.rtoNanos = from.rtoNanos;
        to.fromClient = from.fromClient;
        to.infoLen = from.infoLen;
        System.arraycopy(from.info, 0, to.info, 0, from.infoLen);
        to.mark = from.mark;
        to.note = from.note;
    }

    /** A stall is reported at its resume frame (before that frame's onFrame): mark the frames it names. */
    void stall(Stall s) {
        String holder = s.holdingSide().role(), delayer = s.delayingSide().role();
        for (Entry e : entries()) {
            if (e.frame == s.heldFrame()) {
                mark(e, "HELD", "small " + holder + " segment not yet ACKed: Nagle holds the rest back");
            } else if (e.frame == s.ackFrame()) {
                mark(e, "DELAYED_ACK", delayer + "'s delayed ACK, " + Format.duration(s.ackDelayNanos() / 1000)
                        + " after the data: now the held data may leave");
            }
        }
        resumeNote = "the held data leaves " + Format.duration(s.resumeGapNanos() / 1000)
                + " after the delayed ACK (stall of " + Format.duration(s.durationNanos() / 1000) + ")";
        resumeFrame = s.resumeFrame();
    }

    private List<Entry> entries() {
        List<Entry> l = new ArrayList<>(kept);
        for (int i = 0; i < ringSize; i++) {
            l.add(ring[(ringStart + i) % BEFORE]);
        }
        return l;
    }

    private static void mark(Entry e, String mark, String note) {
        e.mark = mark;
        e.note = note;
    }

    ReportData.Ladder ladder(List<String> files, String problem) {
        if (!focusReached) {
            drainRing();
        }
        if (seen == 0) {
            return new ReportData.Ladder(null, problem != null ? problem
                    : "the connection was not found when the capture was read again (has the file changed "
                    + "since analyze?)", want.frames(), List.of());
        }
        List<ReportData.LadderRow> rows = new ArrayList<>();
        long prev = 0;
        for (Entry e : kept) {
            rows.add(new ReportData.LadderRow(e.ordinal - prev - 1, e.fileIndex, e.frame,
                    (e.tsNanos - firstNanos) / 1000, e.deltaNanos / 1000, e.fromClient, flags(e.flags), e.seq,
                    e.hasAck ? e.ack : -1, e.len, e.window,
                    new String(e.info, 0, e.infoLen, java.nio.charset.StandardCharsets.ISO_8859_1), e.mark,
                    e.note));
            prev = e.ordinal;
        }
        List<String> names = new ArrayList<>();
        for (int fi : fileIndexes) {
            String n = fi < files.size() ? files.get(fi) : null;
            Path p = LadderReader.localPath(n);
            names.add(p != null && p.getFileName() != null ? p.getFileName().toString() : String.valueOf(n));
        }
        // settled, its frames after the rows were not read: the connections table counts them
        long frames = settled() ? Math.max(seen, want.frames()) : seen;
        String source = "re-read from " + String.join(", ", names) + " and analysed again"
                + (problem != null && frames < want.frames() ? " (incomplete: " + problem + ")" : "");
        return new ReportData.Ladder(source, null, frames, rows);
    }

    /** Where this connection's engine reports: only what concerns this connection reaches the collector. */
    AnalysisSink sink() {
        return new Sink(this);
    }

    /** Hands one chosen connection's frames, delayed ACKs and stalls to its collector. */
    private static final class Sink implements AnalysisSink {
        private final LadderCollector c;

        Sink(LadderCollector c) {
            this.c = c;
        }

        /** The collector, if {@code id} is its connection (its port pair may carry others before or after it). */
        private LadderCollector of(ConnectionId id) {
            return c.want.firstFile() == id.firstFileIndex() && c.want.firstFrame() == id.firstFrameNumber() ? c
                    : null;
        }

        @Override
        public void onFrame(Segment s, FrameAnalysis a) {
            LadderCollector c = of(a.connection);
            if (c != null) {
                c.frame(s, a);
            }
        }

        @Override
        public void onAckDelay(AckDelay d) {
            LadderCollector c = of(d.connection());
            if (c != null && d.ackClass().delayed()) {
                c.pendingNote = "ACK delayed " + Format.duration(d.valueNanos() / 1000) + " (" + switch (d.ackClass()) {
                    case DELAYED_40MS -> "40 ms delayed-ACK timer";
                    case DELAYED_200MS -> "200 ms-class delayed-ACK timer";
                    default -> "delayed";
                } + ")";
            }
        }

        @Override
        public void onStall(Stall s) {
            LadderCollector c = of(s.connection());
            if (c != null) {
                c.stall(s);
            }
        }
    }

    /** One frame as the flow graph needs it; reused in the ring of frames before the focus. */
    private static final class Entry {
        long ordinal, frame, tsNanos, deltaNanos, seq, ack, rtoNanos;
        int fileIndex, flags, len, window, analysis, dupAckNum, infoLen;
        boolean fromClient, hasAck;
        final byte[] info = new byte[INFO_BYTES];
        String mark = "", note = "";

        void copy(Segment s, FrameAnalysis a, long ordinal, long delta, long relSeq, long relAck) {
            this.ordinal = ordinal;
            frame = s.frameNumber;
            fileIndex = s.fileIndex;
            tsNanos = s.timestampNanos;
            deltaNanos = delta;
            seq = relSeq;
            ack = relAck;
            hasAck = s.hasAck();
            flags = s.flags;
            len = s.payloadLength;
            window = s.window;
            analysis = a.flags;
            dupAckNum = a.dupAckNum;
            rtoNanos = a.rtoNanos;
            fromClient = a.fromOriginator;
            infoLen = httpStart(s.payloadPrefix, s.payloadPrefixLength, info);
            mark = "";
            note = "";
        }
    }

    /** Copies the first line of an HTTP message ({@link HttpStartLine}) into {@code out}; its length, 0 if none. */
    static int httpStart(byte[] p, int len, byte[] out) {
        if (!HttpStartLine.isStart(p, 0, len)) {
            return 0;
        }
        int n = 0;
        while (n < len && n < out.length && p[n] != '\r' && p[n] != '\n') {
            out[n] = p[n];
            n++;
        }
        return n;
    }

    /** TCP flags as Wireshark lists them: "SYN, ACK". */
    static String flags(int f) {
        String[] names = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR", "NS"};
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            if ((f & (1 << i)) != 0) {
                if (sb.length() > 0) {
                    sb.append(", ");
                }
                sb.append(names[i]);
            }
        }
        return sb.toString();
    }
}
