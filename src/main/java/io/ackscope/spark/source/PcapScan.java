package io.ackscope.spark.source;

import io.ackscope.tcp.FrameFilter;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.util.SerializableConfiguration;
import scala.reflect.ClassTag$;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** A planned read: which captures, split where, read by which tasks. Planning runs once per scan. */
final class PcapScan implements Scan, Batch {
    private final CaseInsensitiveStringMap options;
    private final StructType required;
    private final boolean tcpOnly;
    private ReadPlan plan;
    private Broadcast<SerializableConfiguration> conf;

    PcapScan(CaseInsensitiveStringMap options, StructType required, boolean tcpOnly) {
        this.options = options;
        this.required = required;
        this.tcpOnly = tcpOnly;
    }

    @Override
    public StructType readSchema() {
        return required;
    }

    @Override
    public String description() {
        return "pcap " + String.join(",", CapturePlanner.paths(options)) + (tcpOnly ? " (TCP frames)" : "");
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    private synchronized void plan() {
        if (plan != null) {
            return;
        }
        SparkSession spark = SparkSession.active();
        Configuration hadoop = CapturePlanner.hadoopConf(spark, options);
        conf = spark.sparkContext().broadcast(new SerializableConfiguration(hadoop),
                ClassTag$.MODULE$.apply(SerializableConfiguration.class));
        try {
            plan = CapturePlanner.plan(spark, CapturePlanner.paths(options), hadoop, conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public InputPartition[] planInputPartitions() {
        plan();
        SplitStatsAccumulator acc = statsAccumulator();
        if (acc != null) {
            acc.planned(plan);
        }
        return plan.partitions().toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        plan();
        return new PcapReaderFactory(required, conf, options.getInt("payloadBytes", 128),
                payloadHttpOnly(),
                options.getBoolean("failOnDamage", false), tcpOnly,
                statsAccumulator(), frameFilter(options));
    }

    /**
     * The frames the scan keeps: options {@code since}, {@code until}, {@code server} (endpoints separated by
     * commas) and {@code filter}, as {@code analyze}'s options of those names ({@link FrameFilter}).
     */
    static FrameFilter frameFilter(Map<String, String> options) {
        String servers = options.get(SERVER_OPTION);
        return FrameFilter.parse(options.get("since"), options.get("until"),
                servers == null || servers.isBlank() ? List.of() : List.of(servers.split(",")), options.get("filter"));
    }

    /** The data source option of the {@code --server} endpoints. */
    static final String SERVER_OPTION = "server";

    private boolean payloadHttpOnly() {
        String p = options.getOrDefault("payload", "all");
        if (!p.equals("all") && !p.equals("http")) {
            throw new IllegalArgumentException("option payload must be all or http, not " + p);
        }
        return p.equals("http");
    }

    private SplitStatsAccumulator statsAccumulator() {
        return SplitStatsAccumulator.lookup(options.get(SplitStatsAccumulator.OPTION));
    }
}
