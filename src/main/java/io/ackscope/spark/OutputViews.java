package io.ackscope.spark;

import io.ackscope.output.OutputMarker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Registers the tables of one or more {@code analyze} outputs as Spark SQL views, for {@code ackscope sql} and
 * {@code ackscope export}: each table a view of its name over every output that has it (outputs of several runs,
 * each with its own {@code source} values, read as one dataset). Only complete outputs are read: each one's
 * {@code _SUCCESS} must parse and name tables that are there, on any Hadoop filesystem, as {@code report} demands
 * locally.
 */
public final class OutputViews {

    private OutputViews() {
    }

    /**
     * Checks each output and registers its tables; returns view name to the directories it reads.
     *
     * @throws IOException naming the output that is not complete
     */
    public static Map<String, List<String>> register(SparkSession spark, List<String> outputs) throws IOException {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        Map<String, List<String>> tables = new LinkedHashMap<>();
        for (String out : outputs) {
            Path dir = new Path(out);
            FileSystem fs = dir.getFileSystem(conf);
            OutputMarker marker = marker(fs, dir, out);
            for (String table : marker.tables().keySet()) {
                Path t = new Path(dir, table);
                if (!fs.isDirectory(t)) {
                    throw new OutputMarker.Invalid(out + " is not a complete ackscope analyze output: table " + table
                            + " is missing");
                }
                tables.computeIfAbsent(table, k -> new ArrayList<>()).add(t.toString());
            }
        }
        for (Map.Entry<String, List<String>> e : tables.entrySet()) {
            Dataset<Row> df = spark.read().parquet(e.getValue().toArray(new String[0]));
            df.createOrReplaceTempView(e.getKey());
        }
        return tables;
    }

    /** Registers the captures {@code paths} (files, directories, globs) as the view {@code pcap}: one row a frame. */
    public static void registerCaptures(SparkSession spark, List<String> paths) {
        spark.read().format("pcap").load(paths.toArray(new String[0])).createOrReplaceTempView("pcap");
    }

    private static OutputMarker marker(FileSystem fs, Path dir, String name) throws IOException {
        Path file = new Path(dir, OutputMarker.FILE);
        if (!fs.exists(file)) {
            throw new OutputMarker.Invalid(name + " is not a complete ackscope analyze output (no "
                    + OutputMarker.FILE + (fs.isDirectory(dir) ? " marker)" : "; no such directory)"));
        }
        String text;
        try (FSDataInputStream in = fs.open(file)) {
            text = new String(in.readNBytes(16 << 20), StandardCharsets.UTF_8);
        }
        try {
            return OutputMarker.parse(text, file.toString());
        } catch (OutputMarker.Invalid e) {
            throw new OutputMarker.Invalid(name + " is not a complete ackscope analyze output: " + e.getMessage());
        }
    }
}
