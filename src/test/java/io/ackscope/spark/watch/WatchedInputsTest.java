package io.ackscope.spark.watch;

import io.ackscope.spark.SparkTests;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The watch's file stream lists the input directories and reads nothing: a 3 GB file (sparse; the {@code binaryFile}
 * format refuses to read one over 2 GB) is handed over with its length, nested source directories are found, and
 * names starting with {@code _} or {@code .} are left out as {@code analyze} leaves them out; a second batch holds
 * only the file that arrived since the first.
 */
@Tag("slow")
class WatchedInputsTest {
    static SparkSession spark;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        spark = SparkTests.session("WatchedInputsTest");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    @Test
    void theStreamListsNestedFilesWithoutReadingThem() throws Exception {
        Path in = tmp.resolve("captures");
        Files.createDirectories(in.resolve("dc1/sensor3"));
        Files.createDirectories(in.resolve("_staging"));
        try (RandomAccessFile big = new RandomAccessFile(in.resolve("dc1/sensor3/big.pcap").toFile(), "rw")) {
            big.setLength(3L << 30);
        }
        Files.write(in.resolve("hostA.pcap"), new byte[24]);
        Files.write(in.resolve("_staging/x.pcap"), new byte[24]);
        Files.write(in.resolve(".partial.pcap"), new byte[24]);
        List<TreeMap<String, Long>> batches = new CopyOnWriteArrayList<>();
        StreamingQuery q = WatchedInputs.start(spark, List.of(in.toString()), tmp.resolve("ck").toString(),
                Duration.ofSeconds(1), (batch, id) -> {
                    TreeMap<String, Long> files = new TreeMap<>();
                    for (Row r : batch.collectAsList()) {
                        String path = r.getString(0);
                        files.put(path.substring(path.indexOf("/captures/") + "/captures/".length()), r.getLong(2));
                    }
                    batches.add(files);
                });
        try {
            q.processAllAvailable();
            Files.write(in.resolve("dc1/sensor3/next.pcap"), new byte[100]);
            q.processAllAvailable();
        } finally {
            q.stop();
        }
        assertEquals(List.of(new TreeMap<>(java.util.Map.of("dc1/sensor3/big.pcap", 3L << 30, "hostA.pcap", 24L)),
                new TreeMap<>(java.util.Map.of("dc1/sensor3/next.pcap", 100L))), batches);
    }
}
