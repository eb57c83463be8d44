package io.ackscope.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lab rewrites only its own section of the captures' README. */
class LabReadmeTest {

    private static Lab.Result result(long p50Micros) {
        Setup s = Setup.standard(false).get(0);
        Lab.Run r = new Lab.Run(s, 8080, List.of("ackscope", "serve", "-p", "0"), null,
                List.of("ackscope", "capture", "-i", "lo", "tcp port 8080"), List.of("ackscope", "load", "URL"),
                new LoadFigures(100, 0, 90, p50Micros, p50Micros, p50Micros, p50Micros),
                new CaptureFigures(500, 0, 10_000), Path.of(s.captureFile()),
                new StallFigures(4, 104, 100, 100, 0, 100, 0, 97, 40_100, 43_000, 47_900, 500, 43_000));
        return new Lab.Result(List.of(r), "a test", null, new LabEnvironment(Instant.EPOCH, "6.1", "17", "abc123",
                null, List.of("libpcap0.8 1.10")));
    }

    private static Lab.Options options(Path out) {
        return new Lab.Options(List.of("java"), out, out.resolve("analysis"), 1_000_000_000L, 4, 1024, 160, 20_000, Lab.NginxMode.SKIP, 0,
                List.of(), true, "jobs/lab-delayed-ack -d 1s");
    }

    @Test
    void replacesItsSectionAndKeepsTheRest(@TempDir Path dir) throws IOException {
        Path readme = dir.resolve("README.md");
        Files.writeString(readme, "# Sample captures\n\n## other.pcap\n\nHand-written.\n");
        LabReadme.update(readme, result(44_000), options(dir));
        String first = Files.readString(readme);
        assertTrue(first.startsWith("# Sample captures\n\n## other.pcap\n\nHand-written.\n\n" + LabReadme.BEGIN),
                first);
        assertTrue(first.contains("| `lab-serve-nagle.pcap.gz` | `serve --no-nodelay --split-writes` | 44.00 ms |"),
                first);
        assertTrue(first.contains("`ackscope capture -i lo 'tcp port 8080'`"), first);
        assertTrue(first.contains("| 97 timer, 3 other | 100.0% of 100 | 43.0 ms (40.1-47.9) | STALL |"), first);

        Files.writeString(readme, first + "\n## after\n\nAlso kept.\n");
        LabReadme.update(readme, result(45_000), options(dir));
        String second = Files.readString(readme);
        assertEquals(second.indexOf(LabReadme.BEGIN), second.lastIndexOf(LabReadme.BEGIN),
                "one lab section: " + second);
        assertTrue(second.contains("| 45.00 ms |") && !second.contains("| 44.00 ms |"), second);
        assertTrue(second.startsWith("# Sample captures\n\n## other.pcap\n\nHand-written.\n"), second);
        assertTrue(second.endsWith(LabReadme.END + "\n\n## after\n\nAlso kept.\n"), second);
    }

    @Test
    void createsTheReadmeWhenThereIsNone(@TempDir Path dir) throws IOException {
        Path readme = dir.resolve("README.md");
        LabReadme.update(readme, result(44_000), options(dir));
        String text = Files.readString(readme);
        assertTrue(text.startsWith("# Sample captures\n") && text.strip().endsWith(LabReadme.END), text);
    }
}
