package io.ackscope.spark;

import io.ackscope.capture.RotatedArchive;
import io.ackscope.tables.PacketSchema;
import io.ackscope.tables.SchemaDoc;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze hdfs://...} against a real HDFS (a {@link MiniDFSCluster}: NameNode and one DataNode in this JVM,
 * on loopback) with 256 KB blocks and 100 KB splits, so split reads start, and records run, across block
 * boundaries; its tables, written to HDFS, equal a local run's over the same files row for row.
 *
 * <p>The archive: a bundled capture as one file, and a directory of rotated cuts of it named as {@code tcpdump -C}
 * names them ({@code cap}, {@code cap1}, ... {@code cap6}).
 */
class HdfsArchiveTest {
    static final int BLOCK = 256 * 1024;
    /** Not a divisor of the block size: splits start inside blocks. */
    static final String SPLIT = "100k";

    @TempDir
    static Path tmp;
    static MiniDFSCluster cluster;
    static FileSystem hdfs;
    static Path local;

    @BeforeAll
    static void start() throws IOException {
        local = tmp.resolve("archive");
        Path one = SparkTests.gunzippedSample("nginx-nodelay-off.pcap.gz", local.resolve("one"));
        RotatedArchive cuts = RotatedArchive.read(one);
        cuts.write(local.resolve("rot"), cuts.piecesOf(1000), RotatedArchive.tcpdumpC("cap"));

        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("dfs").toString());
        conf.setLong("dfs.namenode.fs-limits.min-block-size", 64 * 1024);
        conf.setLong("dfs.blocksize", BLOCK);
        conf.setInt("dfs.replication", 1);
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
        hdfs = cluster.getFileSystem();
        hdfs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path("/archive"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    static String hdfsUri(String path) {
        return hdfs.getUri().toString() + path;
    }

    /** Runs the {@code analyze} command as a user would; returns what it printed. */
    static String analyze(String in, String out) {
        // --verbose: the read-task line ("N files split") is the evidence that splits crossed HDFS blocks
        return SparkTests.analyzeCommand(in, "--out", out, "--verbose", "--master", "local[2]", "--partitions", "3",
                "--conf", "spark.sql.files.maxPartitionBytes=" + SPLIT, "--conf", "spark.sql.files.openCostInBytes=8k");
    }

    @Test
    void theArchiveIsStoredInBlocksThatSplitsCross() throws IOException {
        FileStatus one = hdfs.getFileStatus(new org.apache.hadoop.fs.Path("/archive/one/nginx-nodelay-off.pcap"));
        assertEquals(883_252, one.getLen());
        assertEquals(BLOCK, one.getBlockSize());
        BlockLocation[] blocks = hdfs.getFileBlockLocations(one, 0, one.getLen());
        assertEquals(4, blocks.length, "883 KB in 256 KB blocks");
        assertEquals(7, hdfs.listStatus(new org.apache.hadoop.fs.Path("/archive/rot")).length);
    }

    @Test
    void analyzeOnHdfsWritesTheTablesOfTheLocalRun() throws IOException {
        String hdfsOut = hdfsUri("/out");
        String printed = analyze(hdfsUri("/archive"), hdfsOut);
        assertTrue(printed.contains("ackscope analyze: 8 files, 1.7 MiB, 13,652 frames"), printed);
        assertTrue(printed.contains("(8 files split)"), "the capture and every 130 KB cut: " + printed);
        assertTrue(printed.contains("report: not written (" + hdfsOut + " is not a local directory)"), printed);
        assertTrue(hdfs.exists(new org.apache.hadoop.fs.Path("/out/_SUCCESS")));
        Path localOut = tmp.resolve("out-local");
        analyze(local.toString(), localOut.toString());

        for (TableSchema t : SchemaDoc.tables()) {
            if (t == PacketSchema.TABLE) {
                continue; // not written (--packets costs more than the rest of the run)
            }
            List<String> expected = rows(localOut.toUri().toString(), t.name());
            assertEquals(expected, rows(hdfsOut, t.name()), t.name());
            if (!t.name().equals("latency_events")) {
                assertFalse(expected.isEmpty(), t.name() + " has rows");
            }
        }
        List<String> files = SparkTests.tableText(hdfsOut, "capture_files", hdfs.getConf(),
                List.of("file", "read_mode", "splits", "frames")::contains);
        assertEquals(8, files.size());
        assertTrue(files.get(0).matches("\\[hdfs://localhost:\\d+/archive/one/nginx-nodelay-off.pcap, split, "
                + "(9|1\\d), 6826]"), "883 KB in 100 KB splits: " + files.get(0));
        assertTrue(files.get(1).matches("\\[hdfs://localhost:\\d+/archive/rot/cap, split, 2, 1000]"), files.get(1));
    }

    /** The table's rows, without the file path column ({@code hdfs://} here, {@code file:} there). */
    private static List<String> rows(String out, String table) throws IOException {
        return SparkTests.tableText(out, table, hdfs.getConf(), c -> !c.equals("file"));
    }
}
