package io.ackscope.report;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.Stall;
import io.ackscope.tcp.TcpEngine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The packets of a few chosen connections, for their flow graphs, re-read from the capture files.
 *
 * <p>Why re-read rather than store: the tables stay what they are (no table of packets per connection that only
 * the report uses, and no {@code --packets} needed), the report can pick its connections after filtering, and the
 * flow graph shows the engine's own per-frame analysis (retransmissions, duplicate ACKs, which ACK was delayed,
 * which segment was held) because the engine runs again over those frames. The cost is one sequential pass
 * over the capture files (the engine sees only the frames on the chosen connections' port pairs: its results for a
 * 4-tuple depend only on that 4-tuple's frames, as for analyze's per-partition engines, and the other frames are
 * most of its work), starting at the first file that holds a chosen connection and stopping as soon as every
 * chosen connection has shown all its frames (the {@code connections} table says how many), or when the capture
 * clock is past the last chosen connection's end. When the captures are not readable here (moved, or on a
 * cluster filesystem) the page says so and shows everything else.
 *
 * <p>A long connection is shown in part: its first {@link #HEAD} frames (the handshake), then the
 * {@link #BEFORE} frames before a focus frame (the held segment of its longest stall, or the first frame of its
 * slowest exchange) and {@link #AFTER} frames from it; the rows say how many frames were left out.
 */
final class LadderReader {
    static final int HEAD = 3, BEFORE = 8, AFTER = 18;
    static final int MAX_ROWS = HEAD + BEFORE + AFTER;
    /** Bytes of an HTTP start line kept for a label. */
    static final int INFO_BYTES = 96;
    /** Stop reading when the capture clock is this far past the end of every chosen connection. */
    static final long STOP_SLACK_MICROS = 120_000_000L;

    private LadderReader() {
    }

    /**
     * A connection to draw.
     *
     * @param focusFrame  frame number to centre on, or -1
     * @param focusMicros when {@code focusFrame} is -1: centre on the first frame at or after this time, or -1
     *                    to show the connection from its start
     */
    record Want(long stream, int firstFile, long firstFrame, int clientPort, int serverPort, long frames,
                long lastMicros, long focusFrame, long focusMicros) {

        /** True when {@code s} may belong to this connection's 4-tuple (its port pair, either way round). */
        boolean mayCarry(Segment s) {
            return (s.srcPort == clientPort && s.dstPort == serverPort)
                    || (s.srcPort == serverPort && s.dstPort == clientPort);
        }
    }

    static List<ReportData.Ladder> unavailable(List<Want> wants, String why) {
        List<ReportData.Ladder> l = new ArrayList<>();
        for (int i = 0; i < wants.size(); i++) {
            l.add(new ReportData.Ladder(null, why, wants.get(i).frames(), List.of()));
        }
        return l;
    }

    /** Reads the ladders of {@code wants}; {@code files} are the capture files by index, as the tables name them. */
    static List<ReportData.Ladder> read(List<String> files, List<Want> wants) {
        if (wants.isEmpty()) {
            return List.of();
        }
        Collector[] cs = new Collector[wants.size()];
        int startFile = Integer.MAX_VALUE;
        long stopMicros = Long.MIN_VALUE;
        for (int i = 0; i < cs.length; i++) {
            cs[i] = new Collector(wants.get(i));
            startFile = Math.min(startFile, wants.get(i).firstFile());
            stopMicros = Math.max(stopMicros, wants.get(i).lastMicros());
        }
        stopMicros += STOP_SLACK_MICROS;
        Sink sink = new Sink(cs);
        TcpEngine engine = new TcpEngine(sink);
        PacketDecoder decoder = new PacketDecoder();
        Segment seg = new Segment();
        String problem = null;
        outer:
        for (int f = Math.max(0, startFile); f < files.size(); f++) {
            Path p = localPath(files.get(f));
            if (p == null || !Files.isReadable(p)) {
                problem = p == null ? "the capture file is not on this machine's filesystem (" + files.get(f)
                        + "); run ackscope report where the captures are"
                        : "capture file not found here: " + p;
                break;
            }
            try (CaptureReader r = Captures.open(p)) {
                while (r.next()) {
                    decoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                    if (seg.fill(decoder, r.data(), f, r.frameNumber(), r.timestampNanos(), r.originalLength())
                            && wanted(wants, seg)) {
                        engine.accept(seg);
                        if (sink.allComplete()) {
                            break outer;
                        }
                    }
                    if (r.hasTimestamp() && r.timestampNanos() / 1000 > stopMicros) {
                        break outer;
                    }
                }
            } catch (CaptureException e) {
                // Damaged from here on: analyze stopped at the same place, so the frames before it are all there is.
            } catch (IOException e) {
                problem = "could not read " + p + ": " + e.getMessage();
                break;
            }
        }
        engine.finish();
        List<ReportData.Ladder> out = new ArrayList<>();
        for (Collector c : cs) {
            out.add(c.ladder(files, problem));
        }
        return out;
    }

    private static boolean wanted(List<Want> wants, Segment s) {
        for (int i = 0; i < wants.size(); i++) {
            if (wants.get(i).mayCarry(s)) {
                return true;
            }
        }
        return false;
    }

    /** A local path for a file as the tables name it ({@code file:/x} or a plain path); null for other schemes. */
    static Path localPath(String name) {
        if (name == null) {
            return null;
        }
        if (name.startsWith("file:")) {
            String rest = name.substring(5);
            while (rest.startsWith("//")) {
                rest = rest.substring(1);
            }
            return Path.of(rest);
        }
        if (name.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
            return null;
        }
        return Path.of(name);
    }

    private static final class Sink implements AnalysisSink {
        private final Collector[] cs;

        Sink(Collector[] cs) {
            this.cs = cs;
        }

        private Collector of(ConnectionId id) {
            for (Collector c : cs) {
                if (c.want.firstFile() == id.firstFileIndex() && c.want.firstFrame() == id.firstFrameNumber()) {
                    return c;
                }
            }
            return null;
        }

        boolean allComplete() {
            for (Collector c : cs) {
                if (c.seen < c.want.frames()) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void onFrame(Segment s, FrameAnalysis a) {
            Collector c = of(a.connection);
            if (c != null) {
                c.frame(s, a);
            }
        }

        @Override
        public void onAckDelay(AckDelay d) {
            Collector c = of(d.connection());
            if (c != null && d.ackClass().delayed()) {
                c.pendingNote = "ACK delayed " + Format.duration(d.valueNanos() / 1000) + " (" + switch (d.ackClass()) {
                    case DELAYED_40MS -> "40 ms delayed-ACK timer";
                    case DELAYED_200MS -> "200 ms delayed-ACK timer";
                    default -> "delayed";
                } + ")";
            }
        }

        @Override
        public void onStall(Stall s) {
            Collector c = of(s.connection());
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

    /** Copies the first line of an HTTP/1.x message into {@code out}; returns its length, 0 if not HTTP. */
    static int httpStart(byte[] p, int len, byte[] out) {
        int i = 0;
        while (i < len && i < 17 && p[i] >= 'A' && p[i] <= 'Z') {
            i++;
        }
        boolean request = i > 0 && i < len && p[i] == ' ';
        boolean response = len >= 5 && p[0] == 'H' && p[1] == 'T' && p[2] == 'T' && p[3] == 'P' && p[4] == '/';
        if (!request && !response) {
            return 0;
        }
        int n = 0;
        while (n < len && n < out.length && p[n] != '\r' && p[n] != '\n') {
            out[n] = p[n];
            n++;
        }
        return n;
    }

    private static final class Collector {
        final Want want;
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

        Collector(Want want) {
            this.want = want;
        }

        void frame(Segment s, FrameAnalysis a) {
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
                Path p = localPath(n);
                names.add(p != null && p.getFileName() != null ? p.getFileName().toString() : String.valueOf(n));
            }
            String source = "re-read from " + String.join(", ", names) + " and analysed again"
                    + (problem != null && seen < want.frames() ? " (incomplete: " + problem + ")" : "");
            return new ReportData.Ladder(source, null, seen, rows);
        }
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
