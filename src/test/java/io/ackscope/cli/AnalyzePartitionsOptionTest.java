package io.ackscope.cli;

import io.ackscope.spark.Analyze;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which partition count analyze hands the engine: --partitions, else Spark's setting when given, else by size. */
class AnalyzePartitionsOptionTest {
    @Test
    void theOptionThenSparksSettingThenTheCapturesSize() {
        AnalyzeCommand c = new AnalyzeCommand();
        SparkConf plain = new SparkConf(false);
        SparkConf given = new SparkConf(false).set("spark.sql.shuffle.partitions", "6");
        assertEquals(Analyze.Options.BY_SIZE, c.enginePartitions(plain));
        assertEquals(0, c.enginePartitions(given));   // 0: spark.sql.shuffle.partitions
        c.partitions = 3;
        assertEquals(3, c.enginePartitions(plain));
        assertEquals(3, c.enginePartitions(given));
    }
}
