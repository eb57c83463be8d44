package io.ackscope.capture;

import io.ackscope.capture.RotatedArchive.Naming;
import io.ackscope.capture.RotatedArchive.Piece;
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

    @TempDir
    Path tmp;
    static RotatedArchive nginx;
    static List<Records.Rec> nginxFrames;

    @BeforeAll
    static void read() throws IOException, CaptureException {
        nginx = RotatedArchive.of(NGINX);
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

    @Test
    void sizeRotatedNamesDoNotSortInTimeAndEachFileHoldsItsFrames() throws Exception {
        assertEquals(6826, nginx.frames());
        List<Path> files = nginx.byFrames(100).named(Naming.sizeRotated("cap")).write(tmp);
        assertEquals(69, files.size());
        assertEquals(List.of("cap", "cap1", "cap2"), files.subList(0, 3).stream()
                .map(p -> p.getFileName().toString()).toList());
        assertEquals("cap10", files.get(10).getFileName().toString());
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
        List<Path> files = nginx.byFrames(500).write(tmp);
        byte[] preamble = nginx.preamble();
        assertEquals(24, preamble.length, "pcap file header");
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        joined.writeBytes(preamble);
        for (Path f : files) {
            byte[] b = Files.readAllBytes(f);
            assertArrayEquals(preamble, Arrays.copyOf(b, preamble.length), f.toString());
            joined.write(b, preamble.length, b.length - preamble.length);
        }
        assertArrayEquals(nginx.whole(), joined.toByteArray());
        assertEquals(List.of("cap-00.pcap", "cap-01.pcap", "cap-13.pcap"), List.of(files.get(0), files.get(1),
                files.get(13)).stream().map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void timeRotationNamesFilesByTheSecondOfTheirFirstFrameAsTcpdumpG() throws Exception {
        RotatedArchive.Rotation r = nginx.byTime(Duration.ofSeconds(1)).named(Naming.strftime("cap-%Y%m%d-%H%M%S.pcap"));
        List<Path> files = r.write(tmp);
        assertEquals(List.of("cap-20261202-095112.pcap", "cap-20261202-095113.pcap", "cap-20261202-095114.pcap",
                "cap-20261202-095115.pcap"), files.stream().map(p -> p.getFileName().toString()).toList());
        int from = 0;
        for (int i = 0; i < files.size(); i++) {
            long second = 1_796_205_072L + i; // 2026-12-02T09:51:12Z
            int to = from;
            while (to < nginxFrames.size() && nginxFrames.get(to).timestampNanos() / 1_000_000_000L == second) {
                to++;
            }
            assertTrue(to > from, "frames in second " + second);
            assertEquals(frames(nginxFrames, from, to), frames(files.get(i)), files.get(i).toString());
            from = to;
        }
        assertEquals(nginxFrames.size(), from);
        assertEquals(List.of("cap-1796205072.pcap", "cap-1796205073.pcap", "cap-1796205074.pcap",
                "cap-1796205075.pcap"), r.named(Naming.strftime("cap-%s.pcap")).pieces().stream()
                .map(Piece::name).toList());
    }

    @Test
    void shortIntervalsCutWhereAFrameIsAnIntervalAfterTheFileStart() {
        List<Piece> pieces = nginx.byTime(Duration.ofMillis(250)).pieces();
        assertTrue(pieces.size() >= 9 && pieces.size() <= 12, pieces.size() + " files over 2.9 s");
        for (Piece p : pieces) {
            long first = nginx.timestampNanos(p.first());
            assertTrue(nginx.timestampNanos(p.end() - 1) - first < 250_000_000L, p.toString());
            if (p.end() < nginx.frames()) {
                assertTrue(nginx.timestampNanos(p.end()) - first >= 250_000_000L, p.toString());
            }
        }
        assertEquals(nginx.frames(), pieces.stream().mapToInt(Piece::frames).sum());
    }

    @Test
    void aWrappedRingKeepsTheLastFilesUnderNamesThatWrapAround() throws Exception {
        List<Path> files = nginx.byFrames(1000).ring("cap", 5).write(tmp);
        assertEquals(List.of("cap2", "cap3", "cap4", "cap0", "cap1"), files.stream()
                .map(p -> p.getFileName().toString()).toList(), "cuts 2..6 of 7, in time order");
        assertEquals(frames(nginxFrames, 5000, 6000), frames(tmp.resolve("cap0")));
        assertEquals(frames(nginxFrames, 6000, 6826), frames(tmp.resolve("cap1")));
        assertEquals(frames(nginxFrames, 2000, 3000), frames(tmp.resolve("cap2")));
        assertEquals(List.of("cap10", "cap00", "cap01", "cap02"), nginx.byFrames(500).ring("cap", 11).pieces()
                .stream().map(Piece::name).toList().subList(7, 11), "-W 11 pads to two digits; cuts 3..13 of 14");
    }

    @Test
    void overlappingFilesRepeatTheLastFramesOfTheFileBefore() throws Exception {
        List<Path> files = nginx.byFrames(1000).overlap(10).write(tmp);
        assertEquals(7, files.size());
        assertEquals(frames(nginxFrames, 0, 1000), frames(files.get(0)));
        assertEquals(frames(nginxFrames, 990, 2000), frames(files.get(1)));
        assertEquals(frames(nginxFrames, 5990, 6826), frames(files.get(6)));
        int total = 0;
        for (Path f : files) {
            total += frames(f).size();
        }
        assertEquals(6826 + 6 * 10, total);
    }

    @Test
    void aMissingFileLeavesAGapAndTheOthersKeepTheirNames() throws Exception {
        List<Path> files = nginx.byFrames(1000).named(Naming.sizeRotated("cap")).missing(3).write(tmp);
        assertEquals(List.of("cap", "cap1", "cap2", "cap4", "cap5", "cap6"), files.stream()
                .map(p -> p.getFileName().toString()).toList());
        assertEquals(frames(nginxFrames, 4000, 5000), frames(tmp.resolve("cap4")));
        assertThrows(IllegalArgumentException.class, () -> nginx.byFrames(1000).missing(7));
    }

    @Test
    void reversedNamesSortInReverseTimeOrder() throws Exception {
        List<Path> files = nginx.byFrames(1000).named(Naming.reversed("cap-", ".pcap")).write(tmp);
        assertEquals(List.of("cap-6.pcap", "cap-5.pcap", "cap-0.pcap"), List.of(files.get(0), files.get(1),
                files.get(6)).stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(frames(nginxFrames, 0, 1000), frames(tmp.resolve("cap-6.pcap")));
    }

    @Test
    void anExactCopyHasTheBytesOfItsOriginal() throws Exception {
        List<Path> files = nginx.byFrames(1000).copy(2, "cap-02 (copy).pcap").write(tmp);
        assertEquals(8, files.size());
        assertArrayEquals(Files.readAllBytes(tmp.resolve("cap-2.pcap")), Files.readAllBytes(files.get(7)));
        assertThrows(IllegalStateException.class, () -> nginx.byFrames(1000).copy(2, "cap-3.pcap").pieces(),
                "a copy may not take another file's name");
    }

    @Test
    void twoHostsGetIdenticalFiles() throws Exception {
        List<Path> files = nginx.byFrames(3000).writeHosts(tmp, "host-a", "host-b");
        assertEquals(6, files.size());
        for (String n : List.of("cap-0.pcap", "cap-1.pcap", "cap-2.pcap")) {
            assertArrayEquals(Files.readAllBytes(tmp.resolve("host-a").resolve(n)),
                    Files.readAllBytes(tmp.resolve("host-b").resolve(n)), n);
        }
    }

    @Test
    void aRepeatingNamingIsRefused() {
        RotatedArchive.Rotation r = nginx.byTime(Duration.ofMillis(100)).named(Naming.strftime("cap-%s.pcap"));
        IllegalStateException e = assertThrows(IllegalStateException.class, r::pieces);
        assertTrue(e.getMessage().contains("two files named cap-1796205073.pcap"), e.getMessage());
    }

    @Test
    void pcapngFilesKeepTheirInterfacesAndBlocks() throws Exception {
        Path capture = Corpus.dir().resolve("pcpp__many_interfaces-1.pcapng");
        RotatedArchive ng = RotatedArchive.of(capture);
        List<Records.Rec> all = Records.readAll(Captures.open(capture)).records;
        assertEquals(all.size(), ng.frames());
        List<Path> files = ng.byFrames(20).named(Naming.sizeRotated("ng")).write(tmp);
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
        assertArrayEquals(ng.whole(), bytes.toByteArray());
    }

    @Test
    void pcapngWithAnInterfaceDeclaredAfterAPacketIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RotatedArchive.of(Corpus.dir().resolve("pcpp__pcapng-example.pcapng")));
        assertTrue(e.getMessage().contains("block type 1 at byte 10732 after the first packet"), e.getMessage());
    }
}
