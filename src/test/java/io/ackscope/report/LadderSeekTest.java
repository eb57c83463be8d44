package io.ackscope.report;

import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.TableReader;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.ConnectionId;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.TcpEngine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flow graphs read by seeking (capture_files' seek points) are the flow graphs read from the start of the file:
 * every connection of a real capture, with a seek point at every record (so the sweep seeks between
 * connections wherever it can), with the points {@code analyze} writes, and with a point that is not a record.
 */
@Tag("slow")
class LadderSeekTest {

    @TempDir
    Path tmp;

    /** Every connection of the latency capture's tables, shown from its start, latest first. */
    static List<LadderReader.Want> allConnections() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        List<LadderReader.Want> wants = new ArrayList<>();
        TableReader.scan(dir, Tables.CONNECTIONS, List.of(Connections.STREAM, Connections.FIRST_FILE_INDEX,
                Connections.FIRST_FRAME, Connections.CLIENT_PORT, Connections.SERVER_PORT,
                Connections.CLIENT_PACKETS, Connections.SERVER_PACKETS, Connections.LAST_TIME), b -> {
            for (int i = 0; i < b.rows; i++) {
                wants.add(new LadderReader.Want(b.longs(Connections.STREAM).values[i],
                        (int) b.longs(Connections.FIRST_FILE_INDEX).values[i],
                        b.longs(Connections.FIRST_FRAME).values[i],
                        (int) b.longs(Connections.CLIENT_PORT).values[i],
                        (int) b.longs(Connections.SERVER_PORT).values[i],
                        b.longs(Connections.CLIENT_PACKETS).values[i] + b.longs(Connections.SERVER_PACKETS).values[i],
                        b.longs(Connections.LAST_TIME).values[i], -1, -1));
            }
        });
        // the sweep must sort them itself: hand them over latest first
        wants.sort((x, y) -> Long.compare(y.firstFrame(), x.firstFrame()));
        return wants;
    }

    /** The latency capture uncompressed, in {@code dir}. */
    static Path plainCopy(Path dir) throws Exception {
        Path plain = dir.resolve("latency.pcap");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(AnalyzedCaptures.LATENCY))) {
            Files.copy(in, plain);
        }
        return plain;
    }

    /** A seek point at every record of {@code file}. */
    private static LadderReader.SeekIndex everyRecord(Path file) throws Exception {
        List<long[]> points = new ArrayList<>();
        try (CaptureReader r = Captures.open(file)) {
            while (r.next()) {
                points.add(new long[]{r.frameNumber(), r.recordOffset()});
            }
        }
        return new LadderReader.SeekIndex(points.stream().mapToLong(p -> p[0]).toArray(),
                points.stream().mapToLong(p -> p[1]).toArray());
    }

    /** The same frames and rows, ladder by ladder, none unavailable. */
    static void assertSameLadders(List<ReportData.Ladder> expected, List<ReportData.Ladder> got) {
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < expected.size(); i++) {
            assertNull(got.get(i).unavailable(), "ladder " + i + ": " + got.get(i).unavailable());
            assertEquals(expected.get(i).frames(), got.get(i).frames(), "ladder " + i);
            assertEquals(expected.get(i).rows(), got.get(i).rows(), "ladder " + i);
        }
    }

    @Test
    void seekingToEveryConnectionGivesTheFlowGraphsOfAReadFromTheStart() throws Exception {
        List<LadderReader.Want> wants = allConnections();
        assertTrue(wants.size() >= 5, "connections: " + wants.size());
        Path plain = plainCopy(tmp);
        List<ReportData.Ladder> fromStart = LadderReader.read(List.of(plain.toString()),
                List.of(LadderReader.SeekIndex.NONE), wants);
        long rows = fromStart.stream().mapToLong(l -> l.rows().size()).sum();
        assertTrue(rows >= 5L * wants.size(), "rows: " + rows);
        LadderReader.SeekIndex dense = everyRecord(plain);
        assertTrue(dense.frames().length > 100, "records: " + dense.frames().length);
        assertSameLadders(fromStart, LadderReader.read(List.of(plain.toString()), List.of(dense), wants));
        // the compressed original, read from its start as before seek points existed
        assertSameLadders(fromStart, LadderReader.read(List.of(AnalyzedCaptures.LATENCY.toString()), List.of(),
                wants));
    }

    @Test
    void theSeekPointsAnalyzeWritesAreRecordsOfTheFile() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        List<long[][]> found = new ArrayList<>();
        TableReader.scan(dir, Tables.CAPTURE_FILES, Tables.CAPTURE_FILES_SEEK_COLUMNS,
                b -> found.add(new long[][]{b.longLists(CaptureFilesTable.SEEK_FRAMES)[0],
                        b.longLists(CaptureFilesTable.SEEK_OFFSETS)[0]}));
        assertEquals(1, found.size());
        LadderReader.SeekIndex dense = everyRecord(plainCopy(tmp));
        long[] frames = found.get(0)[0], offsets = found.get(0)[1];
        long records = dense.frames().length;
        long expectedPoints = (records - 1) / 16_384 + 1;
        assertEquals(expectedPoints, frames.length, Arrays.toString(frames));
        for (int i = 0; i < frames.length; i++) {
            assertEquals(1 + 16_384L * i, frames[i]);
            assertEquals(dense.offsets()[(int) frames[i] - 1], offsets[i], "offset of frame " + frames[i]);
        }
        // what the report hands the flow graphs
        LadderReader.SeekIndex read = InputReader.read(io.ackscope.tables.TableFiles.whole(dir)).seekIndexes().get(0);
        assertEquals(Arrays.toString(frames), Arrays.toString(read.frames()));
        assertEquals(Arrays.toString(offsets), Arrays.toString(read.offsets()));
    }

    @Test
    void aSeekPointThatIsNotARecordFallsBackToTheStartOfTheFile() throws Exception {
        List<LadderReader.Want> wants = allConnections();
        Path plain = plainCopy(tmp);
        List<ReportData.Ladder> fromStart = LadderReader.read(List.of(plain.toString()),
                List.of(LadderReader.SeekIndex.NONE), wants);
        LadderReader.SeekIndex dense = everyRecord(plain);
        long[] offsets = dense.offsets().clone();
        for (int i = 1; i < offsets.length; i++) {
            offsets[i] += 1; // every point but the first is one byte inside its record
        }
        assertSameLadders(fromStart, LadderReader.read(List.of(plain.toString()),
                List.of(new LadderReader.SeekIndex(dense.frames(), offsets)), wants));
    }

    /**
     * A classic pcap of the latency capture's records regrouped one port pair after another (each connection's
     * records together, in their order). Returns the seek points of the first record of every group, and adds
     * each group's record count to {@code sizes}.
     */
    private LadderReader.SeekIndex regrouped(Path out, List<Integer> sizes) throws Exception {
        Map<Long, List<byte[]>> groups = new LinkedHashMap<>();
        int linkType = -1;
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        try (CaptureReader r = Captures.open(AnalyzedCaptures.LATENCY)) {
            while (r.next()) {
                linkType = r.linkType();
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                assertTrue(s.fill(d, r.data(), 0, r.frameNumber(), r.timestampNanos(), r.originalLength()));
                long pair = ((long) Math.min(s.srcPort, s.dstPort) << 16) | Math.max(s.srcPort, s.dstPort);
                ByteBuffer rec = ByteBuffer.allocate(16 + r.capturedLength()).order(ByteOrder.LITTLE_ENDIAN);
                rec.putInt((int) (r.timestampNanos() / 1_000_000_000L))
                        .putInt((int) (r.timestampNanos() / 1000 % 1_000_000)).putInt(r.capturedLength())
                        .putInt((int) r.originalLength()).put(r.data(), r.dataOffset(), r.capturedLength());
                groups.computeIfAbsent(pair, k -> new ArrayList<>()).add(rec.array());
            }
        }
        assertTrue(groups.size() >= 5, "port pairs: " + groups.size());
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262144)
                .putInt(linkType);
        file.write(h.array());
        List<Long> frames = new ArrayList<>(), offsets = new ArrayList<>();
        long frame = 1;
        for (List<byte[]> records : groups.values()) {
            frames.add(frame);
            offsets.add((long) file.size());
            sizes.add(records.size());
            for (byte[] rec : records) {
                file.write(rec);
                frame++;
            }
        }
        Files.write(out, file.toByteArray());
        return new LadderReader.SeekIndex(frames.stream().mapToLong(Long::longValue).toArray(),
                offsets.stream().mapToLong(Long::longValue).toArray());
    }

    /** The connections of {@code file} as the engine finds them, in order of their first frame. */
    private static List<LadderReader.Want> connections(Path file) throws Exception {
        Map<ConnectionId, long[]> found = new LinkedHashMap<>(); // ports, frames, last µs
        TcpEngine engine = new TcpEngine(new AnalysisSink() {
            @Override
            public void onFrame(Segment seg, FrameAnalysis a) {
                long[] c = found.computeIfAbsent(a.connection, k -> new long[]{seg.srcPort, seg.dstPort, 0, 0});
                c[2]++;
                c[3] = Math.max(c[3], seg.timestampNanos / 1000);
            }
        });
        PacketDecoder d = new PacketDecoder();
        Segment s = new Segment();
        try (CaptureReader r = Captures.open(file)) {
            while (r.next()) {
                d.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                assertTrue(s.fill(d, r.data(), 0, r.frameNumber(), r.timestampNanos(), r.originalLength()));
                engine.accept(s);
            }
        }
        engine.finish();
        List<LadderReader.Want> wants = new ArrayList<>();
        found.forEach((id, c) -> wants.add(new LadderReader.Want(id.stream(), id.firstFileIndex(),
                id.firstFrameNumber(), (int) c[0], (int) c[1], c[2], c[3], -1, -1)));
        return wants;
    }

    @Test
    void theSweepSeeksFromOneConnectionToTheNextAndReadsNothingBetween() throws Exception {
        Path file = tmp.resolve("regrouped.pcap");
        List<Integer> sizes = new ArrayList<>();
        LadderReader.SeekIndex index = regrouped(file, sizes);
        List<LadderReader.Want> all = connections(file);
        assertEquals(sizes.size(), all.size(), "one connection per port pair");
        // every other connection, latest first (the sweep orders them)
        List<LadderReader.Want> wants = new ArrayList<>();
        long wantedRecords = 0;
        for (int i = all.size() - 1; i >= 0; i--) {
            if (i % 2 == 1) {
                wants.add(all.get(i));
                wantedRecords += sizes.get(i);
            }
        }
        // each connection read to its last frame, so that the records read are its group's
        LadderReader.Sweep fromStart = LadderReader.sweepToTheEnd(List.of(file.toString()),
                List.of(LadderReader.SeekIndex.NONE), wants);
        LadderReader.Sweep seeking = LadderReader.sweepToTheEnd(List.of(file.toString()), List.of(index), wants);
        assertSameLadders(fromStart.ladders(), seeking.ladders());
        // each wanted connection's records and nothing else: its group ends with its last frame
        assertEquals(wantedRecords, seeking.recordsRead());
        assertTrue(fromStart.recordsRead() > wantedRecords + sizes.get(sizes.size() - 2),
                "from the start: " + fromStart.recordsRead());
        // as the report reads: each connection only until its flow graph is settled, fewer records still
        LadderReader.Sweep settling = LadderReader.sweep(List.of(file.toString()), List.of(index), wants);
        assertSameLadders(fromStart.ladders(), settling.ladders());
        assertTrue(settling.recordsRead() < wantedRecords, "settling: " + settling.recordsRead());
    }
}
