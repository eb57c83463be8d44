package io.ackscope.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusIntegrityTest {

    @Test
    void everyListedCaptureIsPresentWithItsChecksum() {
        Path dir = Corpus.dir();
        assertEquals(List.of(), Corpus.checksumProblems(dir));
        assertEquals(77, Corpus.captures().size(), "MANIFEST.tsv lists the 77 captures");
        for (String file : Corpus.captures()) {
            assertTrue(Files.isRegularFile(dir.resolve("expected").resolve(file + ".tcp.tsv")),
                    "tshark's reference output for " + file);
        }
    }

    @Test
    void aMissingOrAlteredCaptureIsNamed(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.dir();
        List<String> sums = Files.readAllLines(dir.resolve("SHA256SUMS"));
        Files.write(tmp.resolve("SHA256SUMS"), sums.subList(0, 3));
        String first = sums.get(0).substring(64).trim();
        String second = sums.get(1).substring(64).trim();
        String third = sums.get(2).substring(64).trim();
        Files.copy(dir.resolve(first), tmp.resolve(first));
        byte[] altered = Files.readAllBytes(dir.resolve(second));
        altered[altered.length - 1] ^= 1;
        Files.write(tmp.resolve(second), altered);

        List<String> problems = Corpus.checksumProblems(tmp);

        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith(second + " has SHA-256 "), problems.get(0));
        assertEquals(third + " is missing", problems.get(1));
    }
}
