package io.ackscope.capture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Listing an archive: rotated files in time order whatever their names, sources from directories or the given
 * rule, each file once however many paths lead to it, link loops reported, non-captures and ackscope outputs
 * skipped and listed, exact copies listed and not read, pcapng metadata recorded.
 */
class ArchiveTest {
    @TempDir
    static Path tmp;
    static RotatedArchive capture;

    @BeforeAll
    static void setUp() throws IOException {
        capture = RotatedArchive.read(Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz"));
    }

    static Archive list(Path... inputs) throws IOException {
        return list(Archive.SourceRule.DIRECTORY, inputs);
    }

    static Archive list(Archive.SourceRule rule, Path... inputs) throws IOException {
        List<String> in = new ArrayList<>();
        for (Path p : inputs) {
            in.add(p.toString());
        }
        return Archive.list(in, ArchiveStore.local(), rule);
    }

    static List<String> names(Archive a) {
        return a.files().stream().map(m -> Path.of(m.path()).getFileName().toString()).toList();
    }

    /** The file names of {@code files} (written in time order). */
    static List<String> names(List<Path> files) {
        return files.stream().map(p -> p.getFileName().toString()).toList();
    }

    @Test
    void rotatedFilesAreInTimeOrderWhateverTheirNames() throws IOException {
        List<int[]> eight = capture.pieces(8);
        List<Path> reversed = capture.write(tmp.resolve("reversed"), eight,
                RotatedArchive.reversed(8, "cap-", ".pcap"));
        assertEquals(names(reversed), names(list(tmp.resolve("reversed"))));
        assertEquals("cap-07.pcap", names(reversed).get(0));

        List<Path> ring = capture.write(tmp.resolve("ring"), eight, RotatedArchive.wrappedRing("ring", 8, 5));
        assertEquals(List.of("ring5", "ring6", "ring7", "ring0", "ring1", "ring2", "ring3", "ring4"), names(ring));
        assertEquals(names(ring), names(list(tmp.resolve("ring"))));

        List<Path> c = capture.write(tmp.resolve("c"), capture.pieces(12), RotatedArchive.tcpdumpC("cap"));
        Archive a = list(tmp.resolve("c"));
        assertEquals(names(c), names(a));
        assertEquals(List.of("cap", "cap1", "cap2"), names(a).subList(0, 3));
        long previous = Long.MIN_VALUE;
        for (Archive.Member m : a.files()) {
            assertTrue(m.firstNanos() > previous, m.path());
            previous = m.firstNanos();
            assertEquals(a.files().indexOf(m), m.index());
            assertEquals("pcap", m.format());
        }
    }

    @Test
    void gzipFilesAreOrderedByTheirFirstDecompressedRecord() throws IOException {
        List<int[]> four = capture.pieces(4);
        Path dir = tmp.resolve("mixed");
        capture.write(dir.resolve("b.pcap.gz"), four.get(0)[0], four.get(0)[1]);
        capture.write(dir.resolve("a.pcap"), four.get(1)[0], four.get(1)[1]);
        capture.write(dir.resolve("d.pcap.gz"), four.get(2)[0], four.get(2)[1]);
        capture.write(dir.resolve("c.pcap"), four.get(3)[0], four.get(3)[1]);
        Archive a = list(dir);
        assertEquals(List.of("b.pcap.gz", "a.pcap", "d.pcap.gz", "c.pcap"), names(a));
        assertEquals("gzip", a.files().get(0).compression());
    }

    @Test
    void sourcesAreDirectoriesRelativeToTheInput() throws IOException {
        Path root = tmp.resolve("archive");
        List<int[]> two = capture.pieces(2);
        capture.write(root.resolve("hostA/a1.pcap"), two.get(0)[0], two.get(0)[1]);
        capture.write(root.resolve("hostA/a2.pcap"), two.get(1)[0], two.get(1)[1]);
        capture.write(root.resolve("dc1/hostB/b.pcap"), 0, 10);
        capture.write(root.resolve("top.pcap"), 0, 10);
        Path alone = capture.write(tmp.resolve("elsewhere/named.pcap"), 0, 10);
        Archive a = list(root, alone);
        assertEquals(List.of("archive", "dc1/hostB", "elsewhere", "hostA"), a.sources());
        List<String> sourceOf = a.files().stream().map(m -> a.sources().get(m.source()) + ":"
                + Path.of(m.path()).getFileName()).toList();
        assertEquals(List.of("archive:top.pcap", "dc1/hostB:b.pcap", "elsewhere:named.pcap", "hostA:a1.pcap",
                "hostA:a2.pcap"), sourceOf);

        Archive byRegex = list(Archive.SourceRule.parse("/(host[AB])/"), root.resolve("hostA"),
                root.resolve("dc1"));
        assertEquals(List.of("hostA", "hostB"), byRegex.sources());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> list(Archive.SourceRule.parse("/(host[AB])/"), root));
        assertTrue(e.getMessage().contains("top.pcap"), e.getMessage());

        Archive byFile = list(Archive.SourceRule.FILE, root.resolve("hostA"));
        assertEquals(List.of("hostA/a1.pcap", "hostA/a2.pcap"), byFile.sources());
    }

    @Test
    void theResultDoesNotDependOnTheOrderOfInputs() throws IOException {
        Path root = tmp.resolve("order");
        capture.write(root.resolve("x/1.pcap"), 0, 100);
        capture.write(root.resolve("y/2.pcap"), 100, 200);
        Path z = capture.write(tmp.resolve("order-z/3.pcap"), 200, 300);
        Archive ab = list(root.resolve("x"), root.resolve("y"), z);
        Archive ba = list(z, root.resolve("y"), root.resolve("x"));
        assertEquals(ab.files(), ba.files());
        assertEquals(ab.sources(), ba.sources());
    }

    @Test
    void aFileReachedByManyPathsIsReadOnceAndLinkLoopsAreReported() throws IOException {
        Path root = tmp.resolve("links");
        Path real = capture.write(root.resolve("hostA/cap-0001.pcap"), 0, 100);
        capture.write(root.resolve("hostA/cap-0002.pcap"), 100, 200);
        Files.createSymbolicLink(root.resolve("hostA/latest.pcap"), real.getFileName());
        Files.createLink(root.resolve("hostA/hardlink.pcap"), real);
        Files.createSymbolicLink(root.resolve("hostA/up"), Path.of(".."));          // a loop
        Files.createSymbolicLink(root.resolve("aaa-alias"), Path.of("hostA"));      // the same directory again
        Files.createSymbolicLink(root.resolve("hostA/dangling.pcap"), Path.of("nothing-here"));
        Archive a = list(root, root.resolve("hostA"), real);
        assertEquals(List.of("cap-0001.pcap", "cap-0002.pcap"), names(a));
        assertEquals(List.of("hostA"), a.sources(), "the real directory, not the alias");
        List<String> skipped = a.skipped().stream().map(s -> tmp.relativize(Path.of(s.path())) + ": " + s.reason())
                .toList();
        assertTrue(skipped.contains("links/hostA/up: a link loop: leads back to " + root), skipped.toString());
        assertTrue(skipped.contains("links/hostA/dangling.pcap: a dangling link"), skipped.toString());
    }

    @Test
    void directoriesTakeCapturesByMagicAndListTheRest() throws IOException {
        Path dir = tmp.resolve("magic");
        capture.write(dir.resolve("capture.bin"), 0, 50);
        capture.write(dir.resolve("capture.pcap.gz"), 50, 100);
        Files.writeString(dir.resolve("README.md"), "# captures of host A\n");
        Files.writeString(dir.resolve("rotate.sh"), "#!/bin/sh\ntcpdump -G 60 -w cap-%s.pcap\n");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("notes.txt.gz")))) {
            out.write("not a capture".getBytes(StandardCharsets.UTF_8));
        }
        Files.write(dir.resolve("empty"), new byte[0]);
        Archive a = list(dir);
        assertEquals(List.of("capture.bin", "capture.pcap.gz"), names(a));
        List<String> skipped = a.skipped().stream().map(s -> Path.of(s.path()).getFileName() + ": " + s.reason())
                .toList();
        assertEquals(List.of("README.md: not a capture: unknown magic 23206361 (looks like text); expected pcap "
                        + "(a1b2c3d4, a1b23c4d), pcapng (0a0d0d0a), gzip, zstd or bzip2",
                "empty: not a capture: empty file",
                "notes.txt.gz: not a capture: unknown magic 6e6f7420 inside the gzip stream (looks like text); "
                        + "expected pcap (a1b2c3d4, a1b23c4d), pcapng (0a0d0d0a), gzip, zstd or bzip2",
                "rotate.sh: not a capture: unknown magic 23212f62 (looks like text); expected pcap (a1b2c3d4, "
                        + "a1b23c4d), pcapng (0a0d0d0a), gzip, zstd or bzip2"), skipped);
        Archive named = list(dir.resolve("README.md"));
        assertEquals(List.of("README.md"), names(named), "a file named as an input is read (and its damage shown)");
    }

    @Test
    void ackscopeOutputsAndExcludedDirectoriesAreNotRead() throws IOException {
        Path root = tmp.resolve("with-output");
        capture.write(root.resolve("hostA/a.pcap"), 0, 50);
        Path done = Files.createDirectories(root.resolve("out-done"));
        Files.writeString(done.resolve("_SUCCESS"), "{\"tool\":\"ackscope\",\"command\":\"analyze\"}\n");
        capture.write(done.resolve("connections/stray.pcap"), 0, 50);
        Path running = Files.createDirectories(root.resolve("out-running/" + Archive.STAGING_PREFIX + "1"));
        capture.write(running.getParent().resolve("stray.pcap"), 0, 50);
        Path excluded = capture.write(root.resolve("next-out/stray.pcap"), 0, 50).getParent();
        Archive a = Archive.list(List.of(root.toString()), ArchiveStore.local(), Archive.SourceRule.DIRECTORY,
                List.of(excluded.toString()));
        assertEquals(List.of("a.pcap"), names(a));
        List<String> skipped = a.skipped().stream().map(s -> Path.of(s.path()).getFileName() + ": " + s.reason())
                .toList();
        assertEquals(List.of("next-out: the output directory", "out-done: an ackscope output (_SUCCESS)",
                "out-running: an ackscope output (" + Archive.STAGING_PREFIX + "1)"), skipped);
    }

    @Test
    void exactCopiesWithinASourceAreListedNotRead() throws IOException {
        Path root = tmp.resolve("copies");
        List<int[]> three = capture.pieces(3);
        capture.write(root.resolve("hostA"), three, i -> "cap" + i + ".pcap");
        Files.copy(root.resolve("hostA/cap1.pcap"), root.resolve("hostA/cap1.pcap.bak"));
        capture.write(root.resolve("hostB"), three, i -> "cap" + i + ".pcap");   // same bytes, another source
        Archive a = list(root);
        assertEquals(6, a.files().size(), "hostB's identical files are its own");
        assertEquals(1, a.copies().size());
        Archive.Copy c = a.copies().get(0);
        assertEquals(root.resolve("hostA/cap1.pcap.bak").toString(), c.path());
        assertEquals(root.resolve("hostA/cap1.pcap").toString(), c.of());
        assertEquals("hostA", a.sources().get(c.source()));
    }

    @Test
    void pcapngSectionAndInterfaceMetadataIsRecorded() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("ng"));
        Files.copy(Path.of("testdata/corpus/gopacket__le_test102.pcapng"), dir.resolve("t.pcapng"));
        Archive.Member m = list(dir).files().get(0);
        assertEquals("pcapng", m.format());
        assertEquals(new Archive.Metadata("Apple MBP", "OS-X 10.10.5", "pcap_writer.lua",
                m.metadata().interfaces(), List.of("test102")), m.metadata());
        assertEquals(2, m.metadata().interfaces().size(), "the interfaces declared before the first packet");
    }
}
