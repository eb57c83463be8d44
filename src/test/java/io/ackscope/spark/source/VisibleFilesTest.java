package io.ackscope.spark.source;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The listing the watch and the table views share, on the real local filesystem through Hadoop: hidden names are
 * left out at every level, files are offered with their lengths, a file renamed and a directory removed while the
 * walk is under way are no error (Hadoop's {@code listFiles} failed on the first with "Error while running command
 * to get file permissions"), and the visitor can stop the walk.
 */
class VisibleFilesTest {
    @TempDir
    Path tmp;

    private static FileSystem local() throws IOException {
        return FileSystem.getLocal(new Configuration());   // what a file: path gets
    }

    private static org.apache.hadoop.fs.Path hadoop(Path p) {
        return new org.apache.hadoop.fs.Path(p.toUri());
    }

    private List<String> names(Path root, List<FileStatus> seen) {
        List<String> out = new ArrayList<>();
        for (FileStatus s : seen) {
            out.add(root.toUri().relativize(s.getPath().toUri()).getPath() + "=" + s.getLen());
        }
        return out;
    }

    @Test
    void hiddenNamesAreLeftOutAtEveryLevelAndFilesComeInNameOrderBeforeTheirDirectories() throws IOException {
        Files.createDirectories(tmp.resolve("b/inner"));
        Files.createDirectories(tmp.resolve("_state/x"));
        Files.createDirectories(tmp.resolve(".hidden"));
        Files.write(tmp.resolve("z.pcap"), new byte[3]);
        Files.write(tmp.resolve("a.pcap"), new byte[1]);
        Files.write(tmp.resolve(".a.pcap.part"), new byte[9]);
        Files.write(tmp.resolve("_SUCCESS"), new byte[0]);
        Files.write(tmp.resolve("b/inner/c.pcap"), new byte[5]);
        Files.write(tmp.resolve("b/_c.pcap"), new byte[5]);
        Files.write(tmp.resolve("_state/x/d.pcap"), new byte[7]);
        Files.write(tmp.resolve(".hidden/e.pcap"), new byte[7]);
        List<FileStatus> seen = new ArrayList<>();
        assertTrue(VisibleFiles.walk(local(), hadoop(tmp), seen::add));
        assertEquals(List.of("a.pcap=1", "z.pcap=3", "b/inner/c.pcap=5"), names(tmp, seen));
    }

    @Test
    void aFileRenamedAndADirectoryRemovedDuringTheWalkAreNoError() throws IOException {
        Files.createDirectories(tmp.resolve("later"));
        Files.write(tmp.resolve("later/f.pcap"), new byte[2]);
        for (String n : List.of("1.pcap", "2.pcap", "3.pcap")) {
            Files.write(tmp.resolve(n), new byte[4]);
        }
        List<FileStatus> seen = new ArrayList<>();
        assertTrue(VisibleFiles.walk(local(), hadoop(tmp), s -> {
            seen.add(s);
            if (s.getPath().getName().equals("1.pcap")) {
                try {   // what a capture writer does: write under a hidden name, then move into place
                    Files.move(tmp.resolve("2.pcap"), tmp.resolve(".2.pcap"));
                    Files.delete(tmp.resolve("later/f.pcap"));
                    Files.delete(tmp.resolve("later"));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return true;
        }));
        // the listing is of its moment: 2.pcap was listed before it moved; the removed directory lists nothing
        assertEquals(List.of("1.pcap=4", "2.pcap=4", "3.pcap=4"), names(tmp, seen));
    }

    @Test
    void theVisitorStopsTheWalkAndAFileOrAMissingRootIsItsOwnListing() throws IOException {
        Files.createDirectories(tmp.resolve("d"));
        Files.write(tmp.resolve("d/x.parquet"), new byte[6]);
        Files.write(tmp.resolve("d/y.parquet"), new byte[6]);
        List<FileStatus> seen = new ArrayList<>();
        assertFalse(VisibleFiles.walk(local(), hadoop(tmp), s -> seen.add(s) && false));
        assertEquals(List.of("d/x.parquet=6"), names(tmp, seen));

        seen.clear();
        assertTrue(VisibleFiles.walk(local(), hadoop(tmp.resolve("d/y.parquet")), seen::add));
        assertEquals(List.of("d/y.parquet=6"), names(tmp, seen));

        seen.clear();
        assertTrue(VisibleFiles.walk(local(), hadoop(tmp.resolve("gone")), seen::add));
        assertEquals(List.of(), seen);
    }
}
