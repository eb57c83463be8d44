package io.ackscope.spark.carry;

import io.ackscope.spark.SparkTests;
import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The settle rule over a real listing: in each source only the newest file (by its first record) or a file with no
 * record yet is held back, and only while it is fresh and not analysed already; a file with no record does not make
 * the one before it in the listing an older file.
 */
class SettleTest {

    @Test
    void onlyAFreshNewestFileOrAFreshHeaderOnlyFileOfASourceIsHeldBack(@TempDir Path tmp) throws Exception {
        Path a = Files.createDirectories(tmp.resolve("archive/a"));
        Path b = Files.createDirectories(tmp.resolve("archive/b"));
        List<Path> pieces = threePieces(tmp, a);
        // b: one piece, and a capture that has written only its 24-byte header so far
        Files.copy(pieces.get(0), b.resolve("old.pcap"));
        Files.write(b.resolve("started.pcap"), java.util.Arrays.copyOf(Files.readAllBytes(pieces.get(0)), 24));
        long now = System.currentTimeMillis();
        for (Path f : List.of(pieces.get(0), pieces.get(1), b.resolve("old.pcap"))) {
            Files.setLastModifiedTime(f, FileTime.fromMillis(now - 120_000));
        }
        Archive archive = Archive.list(List.of(tmp.resolve("archive").toString()), ArchiveStore.local(),
                Archive.SourceRule.DIRECTORY);
        List<String> held = Settle.heldBack(archive, SettleTest::mtime, now, Duration.ofSeconds(60), Set.of());
        assertEquals(Set.of(pieces.get(2).toString(), b.resolve("started.pcap").toString()), Set.copyOf(held));
        assertEquals(2, held.size());
        assertEquals(List.of(b.resolve("started.pcap").toString()), Settle.heldBack(archive, SettleTest::mtime, now,
                Duration.ofSeconds(60), Set.of(pieces.get(2).toString())), "a file analysed already is taken");
        assertEquals(List.of(), Settle.heldBack(archive, SettleTest::mtime, now + 61_000, Duration.ofSeconds(60),
                Set.of()));
        assertEquals(List.of(), Settle.heldBack(archive, SettleTest::mtime, now, Duration.ZERO, Set.of()));
        Archive taken = archive.without(held);
        assertEquals(3, taken.files().size());
        assertEquals(List.of("a", "b"), taken.sources());
        assertEquals(List.of(0, 1, 2), taken.files().stream().map(Archive.Member::index).toList());
    }

    @Test
    void aQuietFirstIntervalsEmptyFileDoesNotReleaseTheFileBeingWritten(@TempDir Path tmp) throws Exception {
        // tcpdump -G 1 -w %H%M%S.pcap whose first second saw no packet: that file keeps only its 24-byte header and
        // sorts after the files with records; the newest of those is still being written
        Path dir = Files.createDirectories(tmp.resolve("captures"));
        List<Path> pieces = threePieces(tmp, dir);
        Path empty = dir.resolve("0-first-second.pcap");
        Files.write(empty, java.util.Arrays.copyOf(Files.readAllBytes(pieces.get(0)), 24));
        long now = System.currentTimeMillis();
        for (Path f : List.of(empty, pieces.get(0), pieces.get(1))) {
            Files.setLastModifiedTime(f, FileTime.fromMillis(now - 120_000));
        }
        Files.setLastModifiedTime(pieces.get(2), FileTime.fromMillis(now - 1_000));
        Archive archive = Archive.list(List.of(dir.toString()), ArchiveStore.local(), Archive.SourceRule.DIRECTORY);
        assertEquals(empty.toString(), archive.files().get(3).path(), "the file without a record sorts last");
        assertEquals(List.of(pieces.get(2).toString()),
                Settle.heldBack(archive, SettleTest::mtime, now, Duration.ofSeconds(60), Set.of()));
        assertEquals(List.of(), Settle.heldBack(archive, SettleTest::mtime, now + 60_000, Duration.ofSeconds(60),
                Set.of()));
    }

    /** A sample capture cut into three files of 700 frames or fewer in {@code dir}, in time order. */
    private static List<Path> threePieces(Path tmp, Path dir) throws Exception {
        Path whole = SparkTests.gunzippedSample("lab-cause-loss.pcap.gz", tmp.resolve("whole"));
        Process p = new ProcessBuilder("editcap", "-c", "700", whole.toString(), dir.resolve("cap.pcap").toString())
                .inheritIO().start();
        assertEquals(0, p.waitFor());
        List<Path> pieces;
        try (var s = Files.list(dir)) {
            pieces = s.sorted().toList();
        }
        assertEquals(3, pieces.size());
        return pieces;
    }

    private static long mtime(String path) {
        try {
            return Files.getLastModifiedTime(Path.of(path)).toMillis();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
