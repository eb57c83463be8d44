package io.ackscope.report;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.capture.FileFrames;
import io.ackscope.capture.SeekableInput;
import io.ackscope.capture.SplitLocator;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.report.LadderReader.SeekIndex;
import io.ackscope.report.LadderReader.Want;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.TcpEngine;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The one sweep of {@link LadderReader}, as a cursor over the capture files: {@link #file} and {@link #point} say
 * where the next read starts (a file, and a seek point in it or -1 for its start); {@link #readFile} reads from
 * there, handing each record to {@link #step}, which starts the chosen connections whose first frame has come,
 * feeds the started ones, retires those that are complete, and, when none is started, says whether to seek ahead
 * ({@link #jumpFile}, {@link #jumpPoint}) instead of reading on; {@link #moveOn} then picks the next place to read.
 * One instance per sweep; not thread-safe.
 */
final class LadderSweep {
    /** What a record's step asks of the read loop. */
    private enum Step { READ_ON, LEAVE_FILE, DONE }

    /** How a file's read ended. */
    private enum FileEnd { READ, READ_FROM_START, STOP }

    private final List<String> files;
    private final List<SeekIndex> seeks;
    private final List<FileFrames> frames;
    private final List<String> sources;
    private final List<Want> wants;
    private final int n;
    /** Indexes into {@link #wants} by (first file, first frame). */
    private final Integer[] order;
    private final LadderCollector[] collectors;
    private final TcpEngine[] engines;
    /** Started connections with frames to come; the others are not started yet or finished. */
    private final List<Integer> active = new ArrayList<>();
    /** Files whose seek points did not hold: read from their start. */
    private final Set<Integer> noSeek = new HashSet<>();
    private final PacketDecoder decoder = new PacketDecoder();
    private final Segment seg = new Segment();

    /** Position in {@link #order} of the next connection not started. */
    private int next;
    private int file, point;
    private int jumpFile, jumpPoint;
    private boolean firstRecord;
    private String problem;
    private long recordsRead;

    /** Whether a connection is finished once {@link LadderCollector#settled}; else only at its last frame. */
    private final boolean settleEarly;

    /**
     * @param settleEarly finish a connection as soon as no later frame can change its flow graph (what the report
     *                    does); false reads each to its last frame
     */
    LadderSweep(List<String> files, List<SeekIndex> seeks, List<FileFrames> frames, List<String> sources,
                List<Want> wants, boolean settleEarly) {
        this.settleEarly = settleEarly;
        this.files = files;
        this.seeks = seeks;
        this.frames = frames;
        this.sources = sources;
        this.wants = wants;
        n = wants.size();
        collectors = new LadderCollector[n];
        engines = new TcpEngine[n];
        order = new Integer[n];
        for (int i = 0; i < n; i++) {
            collectors[i] = new LadderCollector(wants.get(i));
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt((Integer i) -> wants.get(i).firstFile())
                .thenComparingLong(i -> wants.get(i).firstFrame()));
    }

    /** Reads the wanted connections' frames, in file order, and makes their ladders. */
    LadderReader.Sweep run() {
        if (n == 0) {
            return new LadderReader.Sweep(List.of(), 0);
        }
        Want first = wants.get(order[0]);
        file = Math.max(0, first.firstFile());
        point = seekPoint(file, first.firstFrame());
        while (file < files.size()) {
            FileEnd end = readFile();
            if (end == FileEnd.STOP || (end == FileEnd.READ && !moveOn())) {
                break;
            }
        }
        for (int w : active) {
            engines[w].finish();
        }
        List<ReportData.Ladder> out = new ArrayList<>();
        for (LadderCollector c : collectors) {
            out.add(c.ladder(files, problem));
        }
        return new LadderReader.Sweep(out, recordsRead);
    }

    /** Reads {@link #file} from {@link #point} until a step leaves it or the sweep is done. */
    private FileEnd readFile() {
        Path p = LadderReader.localPath(files.get(file));
        if (p == null || !Files.isReadable(p)) {
            problem = p == null ? "the capture file is not on this machine's filesystem (" + files.get(file)
                    + "); run ackscope report where the captures are"
                    : "capture file not found here: " + p;
            return FileEnd.STOP;
        }
        if (!LadderReader.rereadable(p)) {
            problem = "the capture " + p + " was a pipe or device that analyze read once, so its packets "
                    + "cannot be read again; analyze a copy in a file to get flow graphs";
            return FileEnd.STOP;
        }
        jumpFile = -1;
        jumpPoint = -1;
        try (Opened o = open(p, files.get(file), point < 0 ? null : seeks.get(file), point)) {
            if (o == null) {
                noSeek.add(file); // the seek point did not hold: read this file from its start
                point = -1;
                return FileEnd.READ_FROM_START;
            }
            FileFrames numbering = file < frames.size() ? frames.get(file) : FileFrames.FIRST;
            firstRecord = true;
            while (o.reader.next()) {
                Step s = step(o, numbering);
                if (s != Step.READ_ON) {
                    return s == Step.DONE ? FileEnd.STOP : FileEnd.READ;
                }
            }
        } catch (CaptureException e) {
            // Damaged from here on: analyze stopped at the same place, so the frames before it are all there is.
        } catch (IOException e) {
            problem = "could not read " + p + ": " + e.getMessage();
            return FileEnd.STOP;
        }
        return FileEnd.READ;
    }

    /** One record: start, feed and retire connections; when none is started, whether to seek ahead. */
    private Step step(Opened o, FileFrames numbering) {
        CaptureReader r = o.reader;
        recordsRead++;
        if (firstRecord && o.firstOffset >= 0 && r.recordOffset() != o.firstOffset) {
            noSeek.add(file); // not the record the index named: read this file from its start
            jumpFile = file;
            jumpPoint = -1;
            return Step.LEAVE_FILE;
        }
        firstRecord = false;
        long fileFrame = o.frameBase + r.frameNumber();
        if (numbering.duplicate(fileFrame)) {
            return Step.READ_ON; // analyze analysed this frame in an earlier file of the source
        }
        long frame = numbering.sourceFrame(fileFrame);
        while (next < n && wants.get(order[next]).firstFile() <= file
                && wants.get(order[next]).firstFrame() <= frame) {
            int w = order[next++];
            engines[w] = new TcpEngine(collectors[w].sink());
            active.add(w);
        }
        if (!active.isEmpty()) {
            feed(r, frame);
            retire(r);
        }
        return active.isEmpty() ? seekAhead(fileFrame) : Step.READ_ON;
    }

    /** Hands the record to the engine of every started connection on its port pair. */
    private void feed(CaptureReader r, long frame) {
        if (!mayCarry(r)) {
            return;
        }
        decoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
        if (seg.fill(decoder, r.data(), file, frame, r.timestampNanos(), r.originalLength())) {
            for (int k = 0; k < active.size(); k++) {
                int w = active.get(k);
                if (wants.get(w).mayCarry(seg)) {
                    engines[w].accept(seg);
                }
            }
        }
    }

    /**
     * False only for a plain Ethernet / IPv4 / TCP frame, not a fragment, whose port pair no started connection has:
     * such a frame reaches no engine, and most frames of a sweep are such (a long connection keeps the sweep reading
     * beside thousands of others), so they are not decoded. Anything else (another link type, VLAN tags, IPv6, a
     * fragment, a short frame) is decoded in full and judged as before.
     */
    private boolean mayCarry(CaptureReader r) {
        byte[] d = r.data();
        int o = r.dataOffset();
        int len = r.capturedLength();
        if (r.linkType() != io.ackscope.capture.LinkTypes.EN10MB || len < 14 + 20 + 4 || d[o + 12] != 0x08
                || d[o + 13] != 0x00) {
            return true;
        }
        int ip = o + 14;
        int ihl = (d[ip] & 0x0f) * 4;
        if ((d[ip] & 0xf0) != 0x40 || ihl < 20 || d[ip + 9] != 6 || ((d[ip + 6] & 0x3f) | (d[ip + 7] & 0xff)) != 0
                || len < 14 + ihl + 4) {
            return true;
        }
        int src = (d[ip + ihl] & 0xff) << 8 | (d[ip + ihl + 1] & 0xff);
        int dst = (d[ip + ihl + 2] & 0xff) << 8 | (d[ip + ihl + 3] & 0xff);
        for (int k = 0; k < active.size(); k++) {
            Want w = wants.get(active.get(k));
            if ((src == w.clientPort() && dst == w.serverPort()) || (src == w.serverPort() && dst == w.clientPort())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Finishes the connections that have all their frames, whose flow graph no later frame can change
     * ({@link LadderCollector#settled}), or whose end the capture clock is well past.
     */
    private void retire(CaptureReader r) {
        long micros = r.hasTimestamp() ? r.timestampNanos() / 1000 : Long.MIN_VALUE;
        for (int k = active.size() - 1; k >= 0; k--) {
            int w = active.get(k);
            if (collectors[w].seen >= wants.get(w).frames() || settleEarly && collectors[w].settled()
                    || micros > wants.get(w).lastMicros() + LadderReader.STOP_SLACK_MICROS) {
                engines[w].finish();
                active.remove(k);
            }
        }
    }

    /** With no connection started: done, a seek to the next connection's point ahead, or reading on. */
    private Step seekAhead(long fileFrame) {
        if (next == n) {
            return Step.DONE;
        }
        Want w = wants.get(order[next]);
        int to = seekPoint(w.firstFile(), w.firstFrame());
        if (w.firstFile() > file) {
            jumpFile = w.firstFile();
            jumpPoint = to;
            return Step.LEAVE_FILE;
        }
        if (to >= 0 && seeks.get(file).frames()[to] > fileFrame) {
            jumpFile = file;
            jumpPoint = to;
            return Step.LEAVE_FILE;
        }
        return Step.READ_ON;
    }

    /** After a file's read: where the next read starts; false when the sweep is over. */
    private boolean moveOn() {
        if (jumpFile >= 0) {
            file = jumpFile;
            point = jumpPoint;
            return true;
        }
        if (!active.isEmpty() && file + 1 < files.size() && Objects.equals(sources.get(file + 1), sources.get(file))) {
            file++; // the started connections go on in the next file of their source
            point = -1;
            return true;
        }
        for (int w : active) {
            engines[w].finish(); // their source ends here
        }
        active.clear();
        if (next == n) {
            return false;
        }
        Want w = wants.get(order[next]);
        file = Math.max(file + 1, w.firstFile());
        point = seekPoint(file, w.firstFrame());
        return true;
    }

    /**
     * The seek point of {@code f} before source frame {@code frame}, or -1 (no index, or none before it). The
     * file's own frame number is at least {@code frame - base} (duplicates only add to it), so the point found is
     * never past the frame.
     */
    private int seekPoint(int f, long frame) {
        if (f < 0 || f >= seeks.size() || seeks.get(f) == null || noSeek.contains(f)) {
            return -1;
        }
        return seeks.get(f).before(frame - (f < frames.size() ? frames.get(f).base() : 0));
    }

    /** A capture opened for reading, and what its frame numbers add to the reader's. */
    private record Opened(CaptureReader reader, Closeable input, long frameBase, long firstOffset)
            implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try (Closeable in = input) {
                reader.close();
            }
        }
    }

    /**
     * Opens {@code p} at seek point {@code at} of {@code seek} (or at its start when {@code at} is -1). Null when
     * the file cannot be entered there (not splittable, or the offset is outside its records); the caller checks
     * that the first record is at {@link Opened#firstOffset} (else the file changed since analyze).
     */
    private static Opened open(Path p, String name, SeekIndex seek, int at) throws IOException, CaptureException {
        if (at < 0) {
            return new Opened(Captures.open(p), null, 0, -1);
        }
        SeekableInput in = SeekableInput.open(p);
        try {
            SplitLocator loc = SplitLocator.open(in, name);
            long offset = seek.offsets()[at];
            if (!loc.splittable() || offset < loc.dataStart() || offset >= loc.length()) {
                in.close();
                return null;
            }
            return new Opened(loc.openSplit(offset, loc.length()), in, seek.frames()[at] - 1, offset);
        } catch (IOException | CaptureException | RuntimeException e) {
            in.close();
            throw e;
        }
    }
}
