package io.ackscope.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one test for "can be read once only" (ArchiveStore.isStream), and the listing's Entry.stream agrees with it. */
class StreamEntryTest {

    @TempDir
    Path tmp;

    @Test
    void fifosAndDevicesAreStreamsFilesDirectoriesAndNothingAreNot() throws Exception {
        Path file = Files.writeString(tmp.resolve("a.pcap"), "x");
        Path fifo = Fifos.make(tmp.resolve("pipe"));
        Path linkToFifo = Files.createSymbolicLink(tmp.resolve("link"), fifo);
        Path missing = tmp.resolve("missing");
        Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), missing);
        assertFalse(ArchiveStore.isStream(file));
        assertFalse(ArchiveStore.isStream(tmp), "a directory");
        assertFalse(ArchiveStore.isStream(missing));
        assertFalse(ArchiveStore.isStream(dangling));
        assertTrue(ArchiveStore.isStream(fifo));
        assertTrue(ArchiveStore.isStream(linkToFifo), "links are followed");
        assertTrue(ArchiveStore.isStream(Path.of("/dev/null")), "a device");
        ArchiveStore local = ArchiveStore.local();
        for (Path p : new Path[] {file, tmp, fifo, linkToFifo}) {
            assertEquals(ArchiveStore.isStream(p), local.stat(p.toString()).stream(), p.toString());
        }
    }
}
