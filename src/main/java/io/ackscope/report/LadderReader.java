package io.ackscope.report;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.capture.FileFrames;
import io.ackscope.capture.SeekableInput;
import io.ackscope.capture.SplitLocator;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.AckDelay;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.HttpStartLine;
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
 * which segment was held) because the engine runs again over those frames. The cost is one sweep over the
 * capture files in file order that reads only around the chosen connections: it enters a file at the seek point
 * ({@code capture_files.seek_frames}/{@code seek_offsets}) before a chosen connection's first frame, reads while a
 * started connection still has frames to come (the {@code connections} table says how many) or until the capture
 * clock is past its end, and seeks ahead to the next one when none has ({@link #sweep}). Each connection's engine
 * sees only the frames on its port pair from its first frame: its results for a 4-tuple depend only on that
 * 4-tuple's frames, as for analyze's per-partition engines. Compressed files, and outputs without seek points,
 * are read from their start. When the captures are not readable here (moved, or on a cluster filesystem) or not
 * again (a FIFO or standard input, which analyze read once: {@link #rereadable}), the page says so and shows
 * everything else.
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

    /**
     * Where a reader can start inside one capture file with known frame numbers: the {@code seek_frames} and
     * {@code seek_offsets} of {@code capture_files} (ascending frame numbers and the offsets of their records).
     */
    record SeekIndex(long[] frames, long[] offsets) {
        static final SeekIndex NONE = new SeekIndex(new long[0], new long[0]);

        /** The last seek point at or before {@code frame}, or -1 (read from the start). */
        int before(long frame) {
            int i = java.util.Arrays.binarySearch(frames, frame);
            return i >= 0 ? i : -i - 2;
        }
    }

    /**
     * Reads the ladders of {@code wants}. {@code files} are the capture files by index, as the tables name them;
     * {@code seeks} their seek indexes (missing or {@link SeekIndex#NONE}: read that file from its start).
     *
     * <p>Each connection gets an engine of its own that sees only the frames on its port pair from its first
     * frame on: a connection's analysis starts fresh at its first frame in a whole-file run too (the frame that
     * starts a connection always finds its 4-tuple with no current connection), so its frames come out the same.
     * The reading is one sweep in file order: it starts at the seek point before the first chosen connection's
     * first frame, reads while some started connection still has frames to come, and when none has, seeks to the
     * point before the next connection's first frame if that is ahead, instead of reading on.
     */
    static List<ReportData.Ladder> read(List<String> files, List<SeekIndex> seeks, List<Want> wants) {
        return sweep(files, seeks, wants).ladders();
    }

    /**
     * As {@link #read(List, List, List)} over an archive's files: {@code frames} says how each file's frames are
     * numbered in its source (a want's frames are source frames) and which are duplicates of an earlier file's
     * (skipped, as analyze skipped them); {@code sources} names each file's source, and the started connections
     * end where their source does.
     */
    static List<ReportData.Ladder> read(List<String> files, List<SeekIndex> seeks, List<FileFrames> frames,
                                        List<String> sources, List<Want> wants) {
        return sweep(files, seeks, frames, sources, wants).ladders();
    }

    /** The ladders, and how many records the sweep read to draw them. */
    record Sweep(List<ReportData.Ladder> ladders, long recordsRead) {
    }

    /** As {@link #read}, counting the records read. */
    static Sweep sweep(List<String> files, List<SeekIndex> seeks, List<Want> wants) {
        return sweep(files, seeks, java.util.Collections.nCopies(files.size(), FileFrames.FIRST),
                java.util.Collections.nCopies(files.size(), ""), wants);
    }

    /** As {@link #read(List, List, List, List, List)}, counting the records read. */
    static Sweep sweep(List<String> files, List<SeekIndex> seeks, List<FileFrames> frames, List<String> sources,
                       List<Want> wants) {
        if (wants.isEmpty()) {
            return new Sweep(List.of(), 0);
        }
        long recordsRead = 0;
        int n = wants.size();
        Collector[] cs = new Collector[n];
        TcpEngine[] engines = new TcpEngine[n];
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            cs[i] = new Collector(wants.get(i));
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt((Integer i) -> wants.get(i).firstFile())
                .thenComparingLong(i -> wants.get(i).firstFrame()));
        List<Integer> active = new ArrayList<>(); // started, with frames to come; the others are finished

        int next = 0; // position in order of the next connection not started
        PacketDecoder decoder = new PacketDecoder();
        Segment seg = new Segment();
        String problem = null;
        java.util.Set<Integer> noSeek = new java.util.HashSet<>();
        // where the next read starts: file, and the seek point in it (-1: its start)
        int file = Math.max(0, wants.get(order[0]).firstFile());
        int point = seekPoint(seeks, frames, file, wants.get(order[0]).firstFrame(), noSeek);
        sweep:
        while (file < files.size()) {
            Path p = localPath(files.get(file));
            if (p == null || !Files.isReadable(p)) {
                problem = p == null ? "the capture file is not on this machine's filesystem (" + files.get(file)
                        + "); run ackscope report where the captures are"
                        : "capture file not found here: " + p;
                break;
            }
            if (!rereadable(p)) {
                problem = "the capture " + p + " was a pipe or device that analyze read once, so its packets "
                        + "cannot be read again; analyze a copy in a file to get flow graphs";
                break;
            }
            int jumpFile = -1, jumpPoint = -1;
            try (Opened o = open(p, files.get(file), point < 0 ? null : seeks.get(file), point)) {
                if (o == null) {
                    noSeek.add(file); // the seek point did not hold: read this file from its start
                    point = -1;
                    continue;
                }
                CaptureReader r = o.reader;
                FileFrames numbering = file < frames.size() ? frames.get(file) : FileFrames.FIRST;
                boolean first = true;
                while (r.next()) {
                    recordsRead++;
                    if (first && o.firstOffset >= 0 && r.recordOffset() != o.firstOffset) {
                        noSeek.add(file); // not the record the index named: read this file from its start
                        jumpFile = file;
                        jumpPoint = -1;
                        break;
                    }
                    first = false;
                    long fileFrame = o.frameBase + r.frameNumber();
                    if (numbering.duplicate(fileFrame)) {
                        continue; // analyze analysed this frame in an earlier file of the source
                    }
                    long frame = numbering.sourceFrame(fileFrame);
                    while (next < n && wants.get(order[next]).firstFile() <= file
                            && wants.get(order[next]).firstFrame() <= frame) {
                        int w = order[next++];
                        engines[w] = new TcpEngine(new Sink(cs[w]));
                        active.add(w);
                    }
                    if (!active.isEmpty()) {
                        decoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(),
                                r.originalLength());
                        if (seg.fill(decoder, r.data(), file, frame, r.timestampNanos(), r.originalLength())) {
                            for (int k = 0; k < active.size(); k++) {
                                int w = active.get(k);
                                if (wants.get(w).mayCarry(seg)) {
                                    engines[w].accept(seg);
                                }
                            }
                        }
                        long micros = r.hasTimestamp() ? r.timestampNanos() / 1000 : Long.MIN_VALUE;
                        for (int k = active.size() - 1; k >= 0; k--) {
                            int w = active.get(k);
                            if (cs[w].seen >= wants.get(w).frames()
                                    || micros > wants.get(w).lastMicros() + STOP_SLACK_MICROS) {
                                engines[w].finish();
                                active.remove(k);
                            }
                        }
                    }
                    if (active.isEmpty()) {
                        if (next == n) {
                            break sweep;
                        }
                        Want w = wants.get(order[next]);
                        int to = seekPoint(seeks, frames, w.firstFile(), w.firstFrame(), noSeek);
                        if (w.firstFile() > file) {
                            jumpFile = w.firstFile();
                            jumpPoint = to;
                            break;
                        }
                        if (to >= 0 && seeks.get(file).frames()[to] > fileFrame) {
                            jumpFile = file;
                            jumpPoint = to;
                            break;
                        }
                    }
                }
            } catch (CaptureException e) {
                // Damaged from here on: analyze stopped at the same place, so the frames before it are all there is.
            } catch (IOException e) {
                problem = "could not read " + p + ": " + e.getMessage();
                break;
            }
            if (jumpFile >= 0) {
                file = jumpFile;
                point = jumpPoint;
            } else if (!active.isEmpty() && file + 1 < files.size()
                    && java.util.Objects.equals(sources.get(file + 1), sources.get(file))) {
                file++; // the started connections go on in the next file of their source
                point = -1;
            } else if (!active.isEmpty()) {
                for (int w : active) {
                    engines[w].finish(); // their source ends here
                }
                active.clear();
                if (next == n) {
                    break;
                }
                Want w = wants.get(order[next]);
                file = Math.max(file + 1, w.firstFile());
                point = seekPoint(seeks, frames, file, w.firstFrame(), noSeek);
            } else if (next < n) {
                Want w = wants.get(order[next]);
                file = Math.max(file + 1, w.firstFile());
                point = seekPoint(seeks, frames, file, w.firstFrame(), noSeek);
            } else {
                break;
            }
        }
        for (int w : active) {
            engines[w].finish();
        }
        List<ReportData.Ladder> out = new ArrayList<>();
        for (Collector c : cs) {
            out.add(c.ladder(files, problem));
        }
        return new Sweep(out, recordsRead);
    }

    /**
     * The seek point of {@code file} before source frame {@code frame}, or -1 (no index, or none before it). The
     * file's own frame number is at least {@code frame - base} (duplicates only add to it), so the point found is
     * never past the frame.
     */
    private static int seekPoint(List<SeekIndex> seeks, List<FileFrames> frames, int file, long frame,
                                 java.util.Set<Integer> noSeek) {
        if (file < 0 || file >= seeks.size() || seeks.get(file) == null || noSeek.contains(file)) {
            return -1;
        }
        return seeks.get(file).before(frame - (file < frames.size() ? frames.get(file).base() : 0));
    }

    /** A capture opened for reading, and what its frame numbers add to the reader's. */
    private record Opened(CaptureReader reader, java.io.Closeable input, long frameBase, long firstOffset)
            implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try (java.io.Closeable in = input) {
                reader.close();
            }
        }
    }

    /**
     * Opens {@code p} at seek point {@code point} of {@code seek} (or at its start when {@code point} is -1).
     * Null when the file cannot be entered there (not splittable, or the offset is outside its records); the
     * caller checks that the first record is at {@link Opened#firstOffset} (else the file changed since analyze).
     */
    private static Opened open(Path p, String name, SeekIndex seek, int point) throws IOException, CaptureException {
        if (point < 0) {
            return new Opened(Captures.open(p), null, 0, -1);
        }
        SeekableInput in = SeekableInput.open(p);
        try {
            SplitLocator loc = SplitLocator.open(in, name);
            long offset = seek.offsets()[point];
            if (!loc.splittable() || offset < loc.dataStart() || offset >= loc.length()) {
                in.close();
                return null;
            }
            return new Opened(loc.openSplit(offset, loc.length()), in, seek.frames()[point] - 1, offset);
        } catch (IOException | CaptureException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /**
     * Whether {@code p} can be read again: a regular file, not a FIFO, a device or standard input
     * ({@code /dev/stdin} and {@code /proc/self/fd/N} would name the report's own input, not the one analyzed).
     * Opening a FIFO again would wait for a writer that will not come.
     */
    static boolean rereadable(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        return Files.isRegularFile(abs) && !abs.startsWith("/dev") && !abs.startsWith("/proc");
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

    /** Hands one chosen connection's frames, delayed ACKs and stalls to its collector. */
    private static final class Sink implements AnalysisSink {
        private final Collector c;

        Sink(Collector c) {
            this.c = c;
        }

        /** The collector, if {@code id} is its connection (its port pair may carry others before or after it). */
        private Collector of(ConnectionId id) {
            return c.want.firstFile() == id.firstFileIndex() && c.want.firstFrame() == id.firstFrameNumber() ? c
                    : null;
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
