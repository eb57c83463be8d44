package io.ackscope.cli;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The processes {@code analyze} starts, from the JVM's own record of them (JFR's {@code jdk.ProcessStart}) in a child
 * JVM analysing the bundled sample: none per file or directory written, none to delete Spark's temporary directories,
 * which are gone when it exits.
 */
class ProcessesStartedTest {
    @TempDir
    Path tmp;

    @Test
    void analyzeStartsOnlySparkAndHadoopsTwoProbesAndLeavesNoTemporaryDirectory() throws Exception {
        Path jfr = tmp.resolve("run.jfr");
        Path local = Files.createDirectory(tmp.resolve("spark-local"));
        Path out = tmp.resolve("out");
        String[] r = ChildAckscope.run(tmp, List.of("-XX:StartFlightRecording=filename=" + jfr + ",settings=default"),
                "analyze", "sample-pcaps/nginx-nodelay-off.pcap.gz", "--out", out.toString(),
                "--conf", "spark.local.dir=" + local);
        assertEquals("0", r[0], r[1] + r[2]);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));

        List<String> commands = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("jdk.ProcessStart")) {
                commands.add(e.getString("command"));
            }
        }
        // Hadoop's Shell asks once whether setsid works (class initialisation, as Spark starts), and Spark's last
        // executor-metrics heartbeat asks the page size once as it stops; nothing else: no chmod or ls per file,
        // no rm per temporary directory
        assertEquals(List.of("setsid bash -c echo $$", "getconf PAGESIZE"), commands);
        try (Stream<Path> left = Files.list(local)) {
            assertEquals(List.of(), left.toList(), "Spark's temporary directories under spark.local.dir");
        }
    }
}
