package io.ackscope.spark.source;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * How the planner packs small files read whole into read tasks: local files cost {@link
 * CapturePlanner#LOCAL_OPEN_COST} each unless {@code spark.sql.files.openCostInBytes} is set; files elsewhere cost
 * Spark's open cost, as Spark's file sources count it.
 */
class CapturePlannerPackingTest {
    private static final int FILES = 1_000;
    private static final long LENGTH = 21_000;

    private static List<CapturePartition> pack(String prefix, Map<String, String> settings) {
        List<CaptureFile> files = new ArrayList<>();
        List<CaptureSplit> splits = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            CaptureFile f = new CaptureFile(i, prefix + "/archive/cap" + i, LENGTH, new String[0]);
            files.add(f);
            splits.add(new CaptureSplit(f, 0, 0, Long.MAX_VALUE, 1, true, true));
        }
        CapturePlanner.Sizing sizing = CapturePlanner.Sizing.of(settings::get, 2, files);
        return CapturePlanner.pack(splits, sizing);
    }

    /**
     * Tasks of Spark's packing: each file weighs its bytes plus {@code openCost}, up to Spark's split size for that
     * cost (the files' weight shared among 2 cores, at most {@code max}) a task.
     */
    private static int sparkTasks(long maxPartition, long openCost) {
        long max = Math.min(maxPartition, Math.max(openCost, FILES * (LENGTH + openCost) / 2));
        long perTask = 0;
        int tasks = 0;
        for (int i = 0; i < FILES; i++) {
            if (i == 0 || perTask + LENGTH > max) {
                tasks++;
                perTask = 0;
            }
            perTask += LENGTH + openCost;
        }
        return tasks;
    }

    @Test
    void localSmallFilesCostWhatOpeningThemDoes() {
        long max = 128L * 1024 * 1024;
        List<CapturePartition> local = pack("file:/data", Map.of());
        assertEquals(sparkTasks(max, CapturePlanner.LOCAL_OPEN_COST), local.size());
        assertEquals(2, local.size(), "1,000 files of 21 KB: a task per core");
        // every file once, in file order
        int next = 0;
        for (CapturePartition p : local) {
            for (CaptureSplit s : p.splits()) {
                assertEquals(next++, s.file().index());
            }
        }
        assertEquals(FILES, next);
    }

    @Test
    void elsewhereOrWithTheSettingSparksOpenCostHolds() {
        long max = 128L * 1024 * 1024;
        assertEquals(sparkTasks(max, 4L * 1024 * 1024), pack("hdfs://nn:8020/data", Map.of()).size());
        assertEquals(32, pack("hdfs://nn:8020/data", Map.of()).size(), "4 MB a file: 32 files a 128 MB task");
        Map<String, String> set = new HashMap<>();
        set.put("spark.sql.files.openCostInBytes", "1m");
        assertEquals(sparkTasks(max, 1024 * 1024), pack("file:/data", set).size());
    }
}
