package io.ackscope.spark;

import io.ackscope.tables.HivePath;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** {@link HivePath} escapes and unescapes partition values exactly as Spark's own catalog does. */
class HivePathTest {

    @Test
    void everyCharacterIsEscapedAndUnescapedAsSparkDoes() {
        for (char c = 1; c < 0x800; c++) {
            String v = "a" + c + "b";
            String escaped = ExternalCatalogUtils.escapePathName(v);
            assertEquals(escaped, HivePath.escape(v), "U+" + Integer.toHexString(c));
            assertEquals(v, HivePath.unescape(escaped));
            assertEquals(ExternalCatalogUtils.unescapePathName(escaped), HivePath.unescape(escaped));
        }
        Random r = new Random(21);
        String alphabet = "ab/%=:#?*[]^{}\\'\"\t\n 1.-_%2F%zz%4";
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = 1 + r.nextInt(12); n > 0; n--) {
                sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            String v = sb.toString();
            assertEquals(ExternalCatalogUtils.escapePathName(v), HivePath.escape(v), v);
            assertEquals(ExternalCatalogUtils.unescapePathName(v), HivePath.unescape(v), v);
            assertEquals(v, HivePath.unescape(HivePath.escape(v)), v);
        }
    }

    @Test
    void partitionDirectoriesNameTheSourceAndTheUtcDate() {
        assertEquals("source=__HIVE_DEFAULT_PARTITION__", HivePath.sourceDir(""));
        assertEquals(ExternalCatalogUtils.DEFAULT_PARTITION_NAME(), HivePath.DEFAULT_PARTITION);
        // 2026-12-03T23:59:59.999999999Z and one nanosecond later
        long nanos = 1_796_342_399_999_999_999L;
        assertEquals("source=hostA%2Feth0/date=2026-12-03", HivePath.sourceDateDir("hostA/eth0", nanos));
        assertEquals("source=hostA%2Feth0/date=2026-12-04", HivePath.sourceDateDir("hostA/eth0", nanos + 1));
        assertEquals("source=x/date=1969-12-31", HivePath.sourceDateDir("x", -1));
        assertEquals("source=x/date=__HIVE_DEFAULT_PARTITION__", HivePath.sourceDateDir("x", Long.MIN_VALUE));
        assertEquals("a=b/c", HivePath.sourceOf(HivePath.sourceDateDir("a=b/c", 0) + "/part-00000.snappy.parquet"));
        assertEquals("", HivePath.sourceOf(HivePath.sourceDir("") + "/part-00000.snappy.parquet"));
        assertNull(HivePath.sourceOf("part-00000.snappy.parquet"));
    }
}
