package io.ackscope.capture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rotated-archive fixture cuts real captures into files that read back as the frames they hold. */
class RotatedArchiveTest {
    /** 6826 frames over 2.9 s (09:51:12.925 to 09:51:15.834 UTC on 2026-12-02), microsecond pcap. */
    static final Path NGINX = Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz");
    /** 2026-12-02T09:51:12Z */
    static final long FIRST_SECOND = 1_796_205_072L;

    @TempDir
    Path tmp;
    static RotatedArchive nginx;
    static List<Records.Rec> nginxFrames;

    @BeforeAll
    static void read() throws IOException, CaptureException {
        nginx = RotatedArchive.read(NGINX);
        nginxFrames = Records.readAll(Captures.open(NGINX)).records;
    }

    /** The frames of a file as the reader gives them, without the offsets (which differ between files). */
    static List<String> frames(Path f) throws IOException, CaptureException {
        Records.Outcome o = Records.readAll(Captures.open(f));
        assertNull(o.error, f.toString());
        assertNull(o.tail, f.toString());
        return o.records.stream().map(RotatedArchiveTest::content).toList();
    }

    static String content(Records.Rec r) {
        return r.timestampNanos() + "/" + r.interfaceId() + "/" + r.linkType() + "/" + r.originalLength() + "/"
                + r.capturedLength() + "/" + Long.toHexString(r.crc());
    }

    static List<String> frames(List<Records.Rec> all, int from, int to) {
        return all.subList(from, to).stream().map(RotatedArchiveTest::content).toList();
    }

    static List<String> names(List<Path> files) {
        return files.stream().map(p -> p.getFileName().toString()).toList();
    }

    @Test
    void tcpdumpCNamesDoNotSortInTimeAndEachFileHoldsItsFrames() throws Exception {
        assertEquals(6826, nginx.frames());
        List<Path> files = nginx.write(tmp, nginx.piecesOf(100), RotatedArchive.tcpdumpC("cap"));
        assertEquals(69, files.size());
        assertEquals(List.of("cap", "cap1", "cap2"), names(files.subList(0, 3)));
        assertEquals("cap68", files.get(68).getFileName().toString());
        try (var s = Files.list(tmp)) {
            List<String> byName = s.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(List.of("cap", "cap1", "cap10", "cap11"), byName.subList(0, 4), "cap10 sorts before cap2");
        }
        for (int i = 0; i < files.size(); i++) {
            int end = Math.min(6826, 100 * i + 100);
            assertEquals(frames(nginxFrames, 100 * i, end), frames(files.get(i)), files.get(i).toString());
        }
        assertEquals(26, frames(files.get(68)).size());
    }

    @Test
    void filesConcatenateByteForByteToTheCapture() throws Exception {
        List<Path> files = nginx.write(tmp, nginx.piecesOf(500), i -> "part" + i + ".pcap");
        assertEquals(14, files.size());
        byte[] preamble = nginx.preamble();
        assertEquals(24, preamble.length, "pcap file header");
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        joined.writeBytes(preamble);
        for (Path f : files) {
            byte[] b = Files.readAllBytes(f);
            assertArrayEquals(preamble, Arrays.copyOf(b, preamble.length), f.toString());
            joined.write(b, preamble.length, b.length - preamble.length);
        }
        assertArrayEquals(nginx.file(0, nginx.frames()), joined.toByteArray());
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(NGINX))) {
            assertArrayEquals(in.readAllBytes(), joined.toByteArray(), "the capture as it is");
        }
    }

    @Test
    void timeRotationNamesFilesByTheSecondOfTheirFirstFrameAsTcpdumpG() throws Exception {
        List<int[]> pieces = nginx.piecesByTime(Duration.ofSeconds(1));
        List<Path> files = nginx.write(tmp, pieces, nginx.strftime("cap-%Y%m%d-%H%M%S.pcap", pieces));
        assertEquals(List.of("cap-20261202-095112.pcap", "cap-20261202-095113.pcap", "cap-20261202-095114.pcap",
                "cap-20261202-095115.pcap"), names(files));
        int from = 0;
        for (int i = 0; i < files.size(); i++) {
            long second = FIRST_SECOND + i;
            int to = from;
            while (to < nginxFrames.size() && nginxFrames.get(to).timestampNanos() / 1_000_000_000L == second) {
                to++;
            }
            assertTrue(to > from, "frames in second " + second);
            assertEquals(frames(nginxFrames, from, to), frames(files.get(i)), files.get(i).toString());
            from = to;
        }
        assertEquals(nginxFrames.size(), from);
        assertEquals("cap-1796205073.pcap", nginx.strftime("cap-%s.pcap", pieces).apply(1));
    }

    @Test
    void shortIntervalsCutWhereAFrameIsAnIntervalAfterThePieceStart() {
        List<int[]> pieces = nginx.piecesByTime(Duration.ofMillis(250));
        assertTrue(pieces.size() >= 9 && pieces.size() <= 12, pieces.size() + " pieces over 2.9 s");
        int frames = 0;
        for (int[] p : pieces) {
            long first = nginx.timestampNanos(p[0]);
            assertTrue(nginx.timestampNanos(p[1] - 1) - first < 250_000_000L, Arrays.toString(p));
            if (p[1] < nginx.frames()) {
                assertTrue(nginx.timestampNanos(p[1]) - first >= 250_000_000L, Arrays.toString(p));
            }
            frames += p[1] - p[0];
        }
        assertEquals(nginx.frames(), frames);
    }

    @Test
    void aNamingThatRepeatsIsRefused() {
        List<int[]> pieces = nginx.piecesByTime(Duration.ofMillis(100));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> nginx.write(tmp, pieces, nginx.strftime("cap-%s.pcap", pieces)));
        assertTrue(e.getMessage().contains("two pieces named cap-1796205073.pcap"), e.getMessage());
    }

    @Test
    void aWrappedRingHoldsTheLastPiecesUnderNamesThatWrapAround() throws Exception {
        List<int[]> cuts = nginx.piecesOf(1000);
        assertEquals(7, cuts.size());
        // tcpdump -C -W 5 after 7 files: cap0 and cap1 were overwritten by the 6th and 7th
        List<Path> files = nginx.write(tmp, cuts.subList(2, 7), RotatedArchive.wrappedRing("cap", 5, 2));
        assertEquals(List.of("cap2", "cap3", "cap4", "cap0", "cap1"), names(files));
        assertEquals(frames(nginxFrames, 5000, 6000), frames(tmp.resolve("cap0")));
        assertEquals(frames(nginxFrames, 6000, 6826), frames(tmp.resolve("cap1")));
        assertEquals(frames(nginxFrames, 2000, 3000), frames(tmp.resolve("cap2")));
    }

    @Test
    void overlappingFilesRepeatTheFirstFramesOfTheNext() throws Exception {
        List<Path> files = nginx.write(tmp, RotatedArchive.overlapping(nginx.piecesOf(1000), 10),
                RotatedArchive.reversed(7, "cap-", ".pcap"));
        assertEquals(List.of("cap-06.pcap", "cap-05.pcap"), names(files.subList(0, 2)), "reverse time order");
        assertEquals(frames(nginxFrames, 0, 1010), frames(files.get(0)));
        assertEquals(frames(nginxFrames, 1000, 2010), frames(files.get(1)));
        assertEquals(frames(nginxFrames, 6000, 6826), frames(files.get(6)));
        int total = 0;
        for (Path f : files) {
            total += frames(f).size();
        }
        assertEquals(6826 + 6 * 10, total);
    }

    @Test
    void gzipNamedFilesAreCompressed() throws Exception {
        Path f = nginx.write(tmp.resolve("cap.pcap.gz"), 100, 300);
        assertEquals(0x1f, Files.readAllBytes(f)[0] & 0xff);
        assertEquals(frames(nginxFrames, 100, 300), frames(f));
    }

    @Test
    void pcapngFilesKeepTheirInterfacesAndBlocks() throws Exception {
        Path capture = Corpus.dir().resolve("pcpp__many_interfaces-1.pcapng");
        RotatedArchive ng = RotatedArchive.read(capture);
        List<Records.Rec> all = Records.readAll(Captures.open(capture)).records;
        assertEquals(all.size(), ng.frames());
        List<Path> files = ng.write(tmp, ng.piecesOf(20), RotatedArchive.tcpdumpC("ng"));
        assertEquals(4, files.size());
        List<String> joined = new ArrayList<>();
        for (Path f : files) {
            joined.addAll(frames(f));
        }
        assertEquals(frames(all, 0, all.size()), joined);
        assertNotEquals(all.get(0).interfaceId(), all.stream().mapToInt(Records.Rec::interfaceId).max().getAsInt(),
                "the capture has frames on several interfaces");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(ng.preamble());
        for (Path f : files) {
            byte[] b = Files.readAllBytes(f);
            bytes.write(b, ng.preamble().length, b.length - ng.preamble().length);
        }
        assertArrayEquals(Files.readAllBytes(capture), bytes.toByteArray());
    }

    @Test
    void pcapngWithAnInterfaceDeclaredAfterAPacketIsRefused() {
        IOException e = assertThrows(IOException.class,
                () -> RotatedArchive.read(Corpus.dir().resolve("pcpp__pcapng-example.pcapng")));
        assertTrue(e.getMessage().contains("block type 1 at byte 10732 after the first packet"), e.getMessage());
    }
}
