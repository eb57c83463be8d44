package io.ackscope.spark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jobs/submit-analyze} without {@code SPARK_HOME} (SparkSubmit from the jars in {@code target/lib}, master
 * {@code local[1]}) is as quiet as {@code jobs/ackscope analyze}: ackscope's summary on stdout, none of Spark's INFO
 * lines (about 160 a run with Spark's defaults) on stderr. Runs in {@code mvn verify}, after {@code package}.
 */
class SubmitAnalyzeIT {

    @Test
    void withoutSparkHomeSparkKeepsItsInfoLinesToItself(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Path stdout = tmp.resolve("stdout");
        Path stderr = tmp.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(List.of("jobs/submit-analyze", "--master", "local[1]",
                SparkTests.sample("nginx-nodelay-off.pcap.gz").toString(), "--out", out.toString()))
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().remove("SPARK_HOME");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().put("ACKSCOPE_CLUSTER_JAR",
                Path.of(System.getProperty("ackscope.clusterJar", "target/ackscope-cluster.jar")).toString());
        Process p = pb.start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "submit-analyze still running after 300 s");
        String err = Files.readString(stderr, StandardCharsets.UTF_8);
        String summary = Files.readString(stdout, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), summary + err);
        assertTrue(summary.startsWith("ackscope analyze: 1 file, "), summary);
        assertTrue(Files.exists(out.resolve("_SUCCESS")), summary);
        assertFalse(err.contains(" INFO "), err);
        assertFalse(err.contains("Using Spark's default log4j profile"), err);
    }
}
