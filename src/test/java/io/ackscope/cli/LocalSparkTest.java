package io.ackscope.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What {@link LocalSpark#conf} sets for an embedded master and leaves to a cluster's. */
class LocalSparkTest {

    @Test
    void embeddedShuffleHasNoChecksumUnlessAsked() throws Exception {
        assertEquals("false", LocalSpark.conf("t", null, List.of()).get("spark.shuffle.checksum.enabled"));
        assertEquals("false", LocalSpark.conf("t", "local[2]", List.of()).get("spark.shuffle.checksum.enabled"));
        assertEquals("true", LocalSpark.conf("t", null, List.of("spark.shuffle.checksum.enabled=true"))
                .get("spark.shuffle.checksum.enabled"));
    }

    @Test
    void clusterMasterKeepsSparksShuffleChecksum() throws Exception {
        var sc = LocalSpark.conf("t", "spark://127.0.0.1:7077", List.of());
        assertFalse(sc.contains("spark.shuffle.checksum.enabled"));
        assertFalse(sc.contains("spark.driver.host"));
        assertEquals("spark://127.0.0.1:7077", sc.get("spark.master"));
    }
}
