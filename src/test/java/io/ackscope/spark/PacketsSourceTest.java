package io.ackscope.spark;

import io.ackscope.capture.Archive;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The {@code packets} table takes each frame's source and file index from the run's numbering, as every other table
 * does: with {@code --source-by file} two captures in one directory are two sources in {@code packets} too (the
 * {@code pcap} data source's own listing names sources by directory), each file's frames under its own.
 */
class PacketsSourceTest {
    @TempDir
    Path tmp;

    @Test
    void packetsFollowTheSourceRuleOfTheRun() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        SparkTests.gunzippedSample("nginx-nodelay-on.pcap.gz", in);
        SparkTests.gunzippedSample("lab-cause-churn.pcap.gz", in);
        Path out = tmp.resolve("out");
        SparkSession spark = SparkTests.session("PacketsSourceTest");
        try {
            Analyze.run(spark, new Analyze.Options(List.of(in.toString()), out.toString(), false, true, 2,
                    Archive.SourceRule.FILE), new PrintStream(OutputStream.nullOutputStream()), false);
        } finally {
            spark.stop();
        }
        String byFile = "SELECT source, file_index, count(*) FROM read_parquet('" + out + "/packets/**/*.parquet',"
                + " hive_partitioning = false) GROUP BY ALL ORDER BY ALL";
        String files = "SELECT source, file_index, frames FROM read_parquet('" + out
                + "/capture_files/**/*.parquet', hive_partitioning = false) ORDER BY ALL";
        List<String> packets = rows(byFile);
        assertEquals(2, packets.size(), packets.toString());
        assertEquals(rows(files), packets, "one source per file, every frame under its file's source");
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet r = st.executeQuery(sql)) {
            while (r.next()) {
                out.add(r.getString(1) + " " + r.getInt(2) + " " + r.getLong(3));
            }
        }
        return out;
    }
}
