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
 * which are gone when it exits, none for Spark's metrics unless they are asked for.
 */
class ProcessesStartedTest {
    @TempDir
    Path tmp;

    @Test
    void analyzeStartsOnlyHadoopsSetsidProbeAndLeavesNoTemporaryDirectory() throws Exception {
        Path local = Files.createDirectory(tmp.resolve("spark-local"));
        // Hadoop's Shell asks once whether setsid works (class initialisation, as Spark starts); nothing else: no
        // chmod or ls per file, no rm per temporary directory, no getconf for Spark's process-tree metrics
        assertEquals(List.of("setsid bash -c echo $$"), commandsOfAnalyze("spark.local.dir=" + local));
        try (Stream<Path> left = Files.list(local)) {
            assertEquals(List.of(), left.toList(), "Spark's temporary directories under spark.local.dir");
        }
    }

    @Test
    void processTreeMetricsAskedForAreLeftToSpark() throws Exception {
        // turned on, Spark's reader asks the page size as Spark makes it
        assertEquals(List.of("setsid bash -c echo $$", "getconf PAGESIZE"),
                commandsOfAnalyze("spark.executor.processTreeMetrics.enabled=true"));
    }

    /** The command lines of the processes a child JVM's analyze of the bundled sample started, with {@code conf}. */
    private List<String> commandsOfAnalyze(String conf) throws Exception {
        Path jfr = tmp.resolve("run.jfr");
        Path out = tmp.resolve("out");
        String[] r = ChildAckscope.run(tmp, List.of("-XX:StartFlightRecording=filename=" + jfr + ",settings=default"),
                "analyze", "sample-pcaps/nginx-nodelay-off.pcap.gz", "--out", out.toString(), "--conf", conf);
        assertEquals("0", r[0], r[1] + r[2]);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        List<String> commands = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("jdk.ProcessStart")) {
                commands.add(e.getString("command"));
            }
        }
        return commands;
    }
}
