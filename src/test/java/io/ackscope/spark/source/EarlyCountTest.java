package io.ackscope.spark.source;

import io.ackscope.spark.SparkTests;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The split counting started before Spark gives the planner exactly its own job's results, or nothing. */
class EarlyCountTest {

    @TempDir
    Path tmp;

    @AfterEach
    void forget() {
        EarlyCount.clear();
    }

    private static SparkConf conf(String master, String maxPartitionBytes) {
        return new SparkConf(false).setMaster(master).set("spark.sql.files.maxPartitionBytes", maxPartitionBytes)
                .set("spark.sql.files.openCostInBytes", "1k");
    }

    private Path plainSample() throws Exception {
        Path dir = tmp.resolve("in");
        SparkTests.gunzippedSample("nginx-nodelay-on.pcap.gz", dir);
        return dir;
    }

    /** The candidate splits the planner makes under {@code conf} with {@code parallelism}, and its own count. */
    private static List<SplitCounter.Task> plannerTasks(Path dir, SparkConf conf, int parallelism) throws Exception {
        List<CaptureFile> files = CapturePlanner.list(List.of(dir.toString()), new Configuration());
        return CapturePlanner.countingTasks(files, CapturePlanner.Sizing.of(
                k -> conf.contains(k) ? conf.get(k) : null, parallelism, files));
    }

    private static String text(List<SplitCounter.Result> results) {
        List<String> out = new ArrayList<>();
        for (SplitCounter.Result r : results) {
            out.add(r.frames() + " " + r.errorOffset() + " " + r.needsWhole() + " " + Arrays.toString(r.framesBefore()));
        }
        return String.join("\n", out);
    }

    @Test
    void localCoresOfEachMasterForm() {
        assertEquals(1, EarlyCount.localCores(new SparkConf(false).setMaster("local")));
        assertEquals(3, EarlyCount.localCores(new SparkConf(false).setMaster("local[3]")));
        assertEquals(2, EarlyCount.localCores(new SparkConf(false).setMaster("local[2,4]")));
        assertEquals(Runtime.getRuntime().availableProcessors(),
                EarlyCount.localCores(new SparkConf(false).setMaster("local[*]")));
        assertEquals(0, EarlyCount.localCores(new SparkConf(false).setMaster("spark://127.0.0.1:7077")));
        assertEquals(0, EarlyCount.localCores(new SparkConf(false).setMaster("local-cluster[2,1,1024]")));
        assertEquals(0, EarlyCount.localCores(new SparkConf(false)));
    }

    @Test
    void theEarlyCountIsThePlannersOwnCountOfTheSameSplits() throws Exception {
        Path dir = plainSample();
        SparkConf conf = conf("local[2]", "64k");
        EarlyCount.start(List.of(dir.toString()), conf);
        List<SplitCounter.Task> tasks = plannerTasks(dir, conf, 2);
        assertTrue(tasks.size() > 10, "candidate splits: " + tasks.size());
        List<SplitCounter.Result> own = new ArrayList<>();
        for (SplitCounter.Task t : tasks) {
            own.add(SplitCounter.count(t, new Configuration()));
        }
        List<SplitCounter.Result> early = EarlyCount.take(tasks);
        assertNotNull(early);
        assertEquals(text(own), text(early));
        long frames = early.stream().mapToLong(SplitCounter.Result::frames).sum();
        assertEquals(40_000, frames);
        assertNull(EarlyCount.take(tasks), "taken once");
    }

    @Test
    void otherSplitsOrAnotherMasterGetNothing() throws Exception {
        Path dir = plainSample();
        EarlyCount.start(List.of(dir.toString()), conf("local[2]", "64k"));
        // the planner saw another split size (a setting changed after the start): it runs its own job
        assertNull(EarlyCount.take(plannerTasks(dir, conf("local[2]", "96k"), 2)));
        EarlyCount.clear();
        EarlyCount.start(List.of(dir.toString()), conf("spark://127.0.0.1:7077", "64k"));
        assertNull(EarlyCount.take(plannerTasks(dir, conf("local[2]", "64k"), 2)), "not started for a cluster");
    }
}
